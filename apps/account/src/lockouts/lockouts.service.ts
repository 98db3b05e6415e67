import type { AppToken } from '../common/app-scope';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiException } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry } from '@geoaccount/signing';
import type { AdminPrincipal } from '../admin-sessions/admin-principal';
import { AppCodes } from '../apps/apps.codes';
import { AppsRepository } from '../apps/apps.repository';
import { AuditTrail } from '../audit/audit-trail';
import { LoginLockout } from '../login/login-lockout';
import { LockoutCodes } from './lockouts.codes';

/** Unlocks a user's login id (docs/contract.md §14): its failures and lock cleared, an audit event of the user. */
@Injectable()
export class LockoutsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly lockout: LoginLockout,
    private readonly apps: AppsRepository,
    private readonly audit: AuditTrail,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
  ) {}

  async unlock(actor: AdminPrincipal, appToken: AppToken, userLoginId: string): Promise<void> {
    if (!this.registry.isConfigured(appToken) && !(await this.apps.find(appToken))) throw new ApiException(AppCodes.NOT_FOUND);
    await this.dataSource.transaction(async (em) => {
      if (!(await this.lockout.clear(em, appToken, userLoginId, true))) throw new ApiException(LockoutCodes.NOT_LOCKED);
      await this.audit.record(em, {
        appToken,
        action: 'modify',
        resourceType: 'user',
        resourceId: userLoginId,
        resultCode: '90000',
        operator: actor.login,
        changes: { locked: { from: true, to: false } },
      });
    });
  }
}
