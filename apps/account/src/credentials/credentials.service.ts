import type { AppToken } from '../common/app-scope';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiException } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry } from '@geoaccount/signing';
import type { AdminPrincipal } from '../admin-sessions/admin-principal';
import { AuditTrail } from '../audit/audit-trail';
import { AppCodes } from '../apps/apps.codes';
import { TimestampFormatter } from '../common/timestamp';
import { credentialState } from './credential.record';
import { CredentialSecrets, type IssuedCredential } from './credential-secrets';
import { CredentialCodes } from './credentials.codes';
import { CredentialsRepository } from './credentials.repository';
import { CredentialsSync } from './credentials-sync';

/** An app has at most two active credentials (docs/contract.md §14). */
export const MAX_ACTIVE_CREDENTIALS = 2;

/**
 * Issues and revokes app credentials (docs/contract.md §14): at most two active, the other
 * one optionally retired after `retire_others_in` seconds; each change is an audit event and
 * moves the control plane's change counter in its transaction, and this instance reloads at once.
 */
@Injectable()
export class CredentialsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credentials: CredentialsRepository,
    private readonly secrets: CredentialSecrets,
    private readonly sync: CredentialsSync,
    private readonly audit: AuditTrail,
    private readonly time: TimestampFormatter,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
  ) {}

  /** The app must exist in the database (a `config` app is read-only): its row locked for the transaction. */
  private async lockApp(em: EntityManager, appToken: AppToken): Promise<void> {
    if (this.registry.isConfigured(appToken)) throw new ApiException(AppCodes.CONFIG_READ_ONLY);
    if (!(await this.credentials.lockApp(em, appToken))) throw new ApiException(AppCodes.NOT_FOUND);
  }

  async issue(actor: AdminPrincipal, appToken: AppToken, retireOthersIn?: number): Promise<IssuedCredential> {
    const issued = await this.dataSource.transaction(async (em) => {
      await this.lockApp(em, appToken);
      const now = Date.now();
      const active = (await this.credentials.listOf([appToken], em)).filter((c) => credentialState(c, now) === 'active');
      if (active.length >= MAX_ACTIVE_CREDENTIALS) throw new ApiException(CredentialCodes.TWO_ACTIVE);
      if (retireOthersIn !== undefined) {
        const expireTime = new Date(now + retireOthersIn * 1000);
        for (const other of active) {
          await this.credentials.setExpireTime(em, appToken, other.credentialId, expireTime);
          await this.audit.record(em, {
            appToken,
            action: 'modify',
            resourceType: 'credential',
            resourceId: other.credentialId,
            resultCode: '90000',
            operator: actor.login,
            changes: { expire_time: { from: this.time.format(other.expireTime) ?? '', to: this.time.format(expireTime) } },
          });
        }
      }
      return this.issueIn(em, actor, appToken);
    });
    await this.sync.refresh(true);
    return issued;
  }

  /** Issues a credential inside the caller's transaction (a new app's first one); the caller refreshes. */
  async issueIn(em: EntityManager, actor: AdminPrincipal, appToken: AppToken): Promise<IssuedCredential> {
    const issued = this.secrets.generate();
    await this.credentials.insert(em, { appToken, credentialId: issued.credential_id, ...this.secrets.seal(appToken, issued) });
    await this.credentials.bumpVersion(em);
    await this.audit.record(em, {
      appToken,
      action: 'create',
      resourceType: 'credential',
      resourceId: issued.credential_id,
      resultCode: '90000',
      operator: actor.login,
      changes: { state: { to: 'active' } },
    });
    return issued;
  }

  /** Revokes a credential at once (an already revoked one stays so, without a new event). */
  async revoke(actor: AdminPrincipal, appToken: AppToken, credentialId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await this.lockApp(em, appToken);
      const credential = (await this.credentials.listOf([appToken], em)).find((c) => c.credentialId === credentialId);
      if (!credential) throw new ApiException(CredentialCodes.NOT_FOUND);
      if (credential.revokeTime) return;
      await this.credentials.revoke(em, appToken, credentialId);
      await this.credentials.bumpVersion(em);
      await this.audit.record(em, {
        appToken,
        action: 'revoke',
        resourceType: 'credential',
        resourceId: credentialId,
        resultCode: '90000',
        operator: actor.login,
        changes: { state: { from: credentialState(credential), to: 'revoked' } },
      });
    });
    await this.sync.refresh(true);
  }
}
