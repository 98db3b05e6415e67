import { NO_APP, asAppToken } from '../common/app-scope';
import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ApiException, InvalidParameterException } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry } from '@geoaccount/signing';
import type { AdminPrincipal } from '../admin-sessions/admin-principal';
import { AdminSessionsRepository } from '../admin-sessions/admin-sessions.repository';
import { AppsRepository } from '../apps/apps.repository';
import { type AuditChanges, AuditTrail } from '../audit/audit-trail';
import { TimestampFormatter } from '../common/timestamp';
import { LoginLockout } from '../login/login-lockout';
import { PasswordHasher } from '../users/password-hasher';
import type { CreateOperatorDto } from './dto/create-operator.dto';
import type { ModifyOperatorDto } from './dto/modify-operator.dto';
import { type OperatorView, operatorView } from './operator.view';
import { OperatorCodes } from './operators.codes';
import { OPERATOR_LOCKOUT_APP, OperatorsRepository } from './operators.repository';

/**
 * Operators of the services (docs/contract.md §14): a role, an app_admin's apps, a state, an
 * argon2id password (at least 12 characters) or a directory account (§9's `LDAP_*`).
 */
@Injectable()
export class OperatorsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly operators: OperatorsRepository,
    private readonly apps: AppsRepository,
    private readonly sessions: AdminSessionsRepository,
    private readonly lockout: LoginLockout,
    private readonly hasher: PasswordHasher,
    private readonly audit: AuditTrail,
    private readonly time: TimestampFormatter,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
  ) {}

  async create(actor: AdminPrincipal, dto: CreateOperatorDto): Promise<OperatorView> {
    const directory = dto.directory ?? false;
    if (directory && dto.password !== undefined) throw new InvalidParameterException('password', 'directory operator, no');
    if (!directory && dto.password === undefined) throw new InvalidParameterException('password', 'missing');
    const apps = await this.checkApps(dto.role, dto.apps ?? []);
    const passwordHash = dto.password === undefined ? null : await this.hasher.hash(dto.password);
    await this.dataSource.transaction(async (em) => {
      if (!(await this.operators.insert(em, { login: dto.login, role: dto.role, apps, passwordHash, directory })))
        throw new ApiException(OperatorCodes.EXISTS);
      const changes: AuditChanges = { role: { to: dto.role }, apps: { to: apps }, directory: { to: directory } };
      if (passwordHash) changes.password = { to: 'changed' };
      await this.record(em, actor, dto.login, 'create', changes);
    });
    return this.get(dto.login);
  }

  async list(): Promise<OperatorView[]> {
    return (await this.operators.list()).map((o) => operatorView(o, (d) => this.time.format(d)));
  }

  async get(login: string): Promise<OperatorView> {
    const operator = await this.operators.find(login);
    if (!operator) throw new ApiException(OperatorCodes.NOT_FOUND);
    return operatorView(operator, (d) => this.time.format(d));
  }

  async modify(actor: AdminPrincipal, login: string, dto: ModifyOperatorDto): Promise<OperatorView> {
    const passwordHash = dto.password === undefined ? undefined : await this.hasher.hash(dto.password);
    await this.dataSource.transaction(async (em) => {
      const before = await this.operators.find(login, em, true);
      if (!before) throw new ApiException(OperatorCodes.NOT_FOUND);
      if (before.directory && dto.password !== undefined) throw new InvalidParameterException('password', 'directory operator, no');
      const role = dto.role ?? before.role;
      // Another role than app_admin has no apps of its own.
      const apps = await this.checkApps(role, dto.apps ?? (role === 'app_admin' ? before.apps : []));
      const next = { role, apps, state: dto.state ?? before.state, passwordHash: passwordHash ?? before.passwordHash, directory: before.directory };
      const changes: AuditChanges = {};
      if (next.role !== before.role) changes.role = { from: before.role, to: next.role };
      if (next.apps.join(',') !== before.apps.join(',')) changes.apps = { from: before.apps, to: next.apps };
      if (next.state !== before.state) changes.state = { from: before.state, to: next.state };
      if (passwordHash) changes.password = { to: 'changed' };
      // docs/contract.md §14: "state":"enabled" clears the sign-in lock.
      if (dto.state === 'enabled' && (await this.lockout.clear(em, OPERATOR_LOCKOUT_APP, login, false)) && before.locked)
        changes.locked = { from: true, to: false };
      if (Object.keys(changes).length === 0) return;
      await this.operators.update(em, login, next);
      if (next.state === 'disabled' || passwordHash) await this.sessions.deleteOf(em, login);
      await this.record(em, actor, login, 'modify', changes);
    });
    return this.get(login);
  }

  /** An app_admin's apps must name apps; other roles take none. */
  private async checkApps(role: string, apps: string[]): Promise<string[]> {
    const unique = [...new Set(apps)];
    if (role !== 'app_admin') {
      if (unique.length > 0) throw new InvalidParameterException('apps', 'app_admin only:');
      return [];
    }
    const known = new Set<string>(await this.apps.existing(unique.map(asAppToken)));
    for (const app of unique) if (!known.has(app) && !this.registry.isConfigured(app)) throw new InvalidParameterException('apps', 'unknown app in');
    return unique;
  }

  private async record(em: import('typeorm').EntityManager, actor: AdminPrincipal, login: string, action: 'create' | 'modify', changes: AuditChanges) {
    await this.audit.record(em, {
      appToken: NO_APP,
      action,
      resourceType: 'operator',
      resourceId: login,
      resultCode: '90000',
      operator: actor.login,
      changes,
    });
  }
}
