import { ALL_APPS, type AppToken, asAppToken } from '../common/app-scope';
import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiException } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry } from '@geoaccount/signing';
import { type AdminPrincipal, coversApp } from '../admin-sessions/admin-principal';
import { AuditTrail, type AuditChanges } from '../audit/audit-trail';
import { TimestampFormatter } from '../common/timestamp';
import type { IssuedCredential } from '../credentials/credential-secrets';
import { CredentialsRepository } from '../credentials/credentials.repository';
import { CredentialsService } from '../credentials/credentials.service';
import { CredentialsSync } from '../credentials/credentials-sync';
import type { AppRecord } from './app.record';
import { type AppView, appView, configAppView } from './app.view';
import { AppCodes } from './apps.codes';
import { AppsRepository } from './apps.repository';
import type { CreateAppDto } from './dto/create-app.dto';
import type { ModifyAppDto } from './dto/modify-app.dto';

/**
 * Apps of the control plane (docs/contract.md §14): created with a first credential, read
 * (with the `APP_CREDENTIALS` apps, `source: "config"`, read-only), renamed, disabled.
 */
@Injectable()
export class AppsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly apps: AppsRepository,
    private readonly credentialRows: CredentialsRepository,
    private readonly credentials: CredentialsService,
    private readonly sync: CredentialsSync,
    private readonly audit: AuditTrail,
    private readonly time: TimestampFormatter,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
  ) {}

  async create(actor: AdminPrincipal, dto: CreateAppDto): Promise<{ app: AppView; credential: IssuedCredential }> {
    const appToken = asAppToken(`app-${randomBytes(16).toString('hex')}`);
    const aesMode = dto.aes_mode ?? 'gcm';
    const credential = await this.dataSource.transaction(async (em) => {
      await this.apps.insert(em, { appToken, appName: dto.app_name, aesMode });
      await this.audit.record(em, {
        appToken,
        action: 'create',
        resourceType: 'app',
        resourceId: appToken,
        resultCode: '90000',
        operator: actor.login,
        changes: { app_name: { to: dto.app_name }, aes_mode: { to: aesMode }, state: { to: 'enabled' } },
      });
      return this.credentials.issueIn(em, actor, appToken);
    });
    await this.sync.refresh(true);
    return { app: await this.get(actor, appToken), credential };
  }

  /** The apps the principal may see: every one, or an app_admin's own. */
  async list(principal: AdminPrincipal): Promise<AppView[]> {
    // An app_admin's own apps; an admin's or an auditor's read crosses apps, and says so.
    const scope = principal.role === 'app_admin' ? principal.apps.map(asAppToken) : ALL_APPS;
    const configured = this.registry
      .configuredApps()
      .filter((a) => coversApp(principal, a.appToken))
      .map((a) => configAppView(a.appToken, a.aesMode));
    const rows = (await this.apps.list(scope)).filter((a) => !this.registry.isConfigured(a.appToken));
    return [...configured, ...(await this.views(rows))];
  }

  async get(principal: AdminPrincipal, appToken: AppToken): Promise<AppView> {
    void principal; // the guard checked the scope of the route's app
    const configured = this.registry.configuredApps().find((a) => a.appToken === appToken);
    if (configured) return configAppView(configured.appToken, configured.aesMode);
    const app = await this.apps.find(appToken);
    if (!app) throw new ApiException(AppCodes.NOT_FOUND);
    return (await this.views([app]))[0]!;
  }

  async modify(actor: AdminPrincipal, appToken: AppToken, dto: ModifyAppDto): Promise<AppView> {
    if (this.registry.isConfigured(appToken)) throw new ApiException(AppCodes.CONFIG_READ_ONLY);
    await this.dataSource.transaction(async (em) => {
      const app = await this.apps.find(appToken, em, true);
      if (!app) throw new ApiException(AppCodes.NOT_FOUND);
      const next = { appName: dto.app_name ?? app.appName, state: dto.state ?? app.state };
      const changes: AuditChanges = {};
      if (next.appName !== app.appName) changes.app_name = { from: app.appName, to: next.appName };
      if (next.state !== app.state) changes.state = { from: app.state, to: next.state };
      if (Object.keys(changes).length === 0) return;
      await this.apps.update(em, appToken, next);
      await this.credentialRows.bumpVersion(em);
      await this.audit.record(em, {
        appToken,
        action: 'modify',
        resourceType: 'app',
        resourceId: appToken,
        resultCode: '90000',
        operator: actor.login,
        changes,
      });
    });
    await this.sync.refresh(true);
    return this.get(actor, appToken);
  }

  private async views(apps: readonly AppRecord[]): Promise<AppView[]> {
    const credentials = await this.credentialRows.listOf(apps.map((a) => a.appToken));
    const format = (d: Date | null) => this.time.format(d);
    return apps.map((a) =>
      appView(
        a,
        credentials.filter((c) => c.appToken === a.appToken),
        format,
      ),
    );
  }
}
