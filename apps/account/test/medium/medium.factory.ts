import { PiiKeyCheck } from '../../src/pii/pii-key-check';
import { JobLeader } from '../../src/database/job-leader';
import { ApiException, InvalidParameterException, createValidationPipe } from '@geoaccount/api';
import { Metrics } from '@geoaccount/observability';
import { type AppCredential, AppRegistry, type RegisteredApp, DEMO_APP, aesKeyObject, encryptPassword, hmacKey } from '@geoaccount/signing';
import type { AdminPrincipal } from '../../src/admin-sessions/admin-principal';
import { AdminSessionsRepository } from '../../src/admin-sessions/admin-sessions.repository';
import { AdminSessionsService } from '../../src/admin-sessions/admin-sessions.service';
import { AppsRepository } from '../../src/apps/apps.repository';
import { AppsService } from '../../src/apps/apps.service';
import { CredentialSecrets } from '../../src/credentials/credential-secrets';
import { CredentialsRepository } from '../../src/credentials/credentials.repository';
import { CredentialsService } from '../../src/credentials/credentials.service';
import { CredentialsSync } from '../../src/credentials/credentials-sync';
import { LockoutsService } from '../../src/lockouts/lockouts.service';
import { OperatorsRepository } from '../../src/operators/operators.repository';
import { OperatorsService } from '../../src/operators/operators.service';
import { AuditEventsRepository } from '../../src/audit/audit-events.repository';
import { AuditEventsService } from '../../src/audit/audit-events.service';
import { AuditTrail } from '../../src/audit/audit-trail';
import { AuthGroupsRepository } from '../../src/auth-groups/auth-groups.repository';
import { AuthGroupsService } from '../../src/auth-groups/auth-groups.service';
import { AuthsRepository } from '../../src/auths/auths.repository';
import { AuthsService } from '../../src/auths/auths.service';
import type { CreateAuthDto } from '../../src/auths/dto/create-auth.dto';
import type { CreateGroupDto } from '../../src/auth-groups/dto/create-group.dto';
import { AccountCodes } from '../../src/common/account-codes';
import { type AppToken, asAppToken } from '../../src/common/app-scope';
import type { RegisterUserDto } from '../../src/users/dto/register-user.dto';
import { TimestampFormatter } from '../../src/common/timestamp';
import { type AccountConfig, loadAccountConfig } from '../../src/config/account.config';
import { loadDirectoryConfig } from '../../src/config/directory.config';
import { DirectoryService } from '../../src/directory/directory.service';
import { LoginLockout } from '../../src/login/login-lockout';
import { LoginService } from '../../src/login/login.service';
import { PasswordVerifier } from '../../src/login/password-verifier';
import { PermissionsService } from '../../src/permissions/permissions.service';
import { PiiCipher } from '../../src/pii/pii-cipher';
import { loadPiiKeys } from '../../src/pii/pii-keys';
import { PasswordHasher } from '../../src/users/password-hasher';
import { UsersRepository } from '../../src/users/users.repository';
import { UsersService } from '../../src/users/users.service';
import type { MediumDatabase } from './medium-database';

/** Two apps of the medium tier: `A` (the demo app's keys) and `B`, to show tenancy. */
export const APP_A: ScopedApp = registered(DEMO_APP.appToken, DEMO_APP.secret, DEMO_APP.aesKey);
export const APP_B: ScopedApp = registered('app-0b0b0b0b0b0b0b0b', 'other-secret-0123456789abcdef', 'other-aes-key');

/** A registered app whose token is a query scope. */
export type ScopedApp = RegisteredApp & { readonly appToken: AppToken };

function registered(appToken: string, secret: string, aesKey: string): ScopedApp {
  return { appToken: asAppToken(appToken), hmacKey: hmacKey(secret), aesKey: aesKeyObject(aesKey), aesMode: 'gcm' };
}

/** The login field of a password, as a client sends it (docs/contract.md §4). */
export function sealedPassword(app: RegisteredApp, password: string): string {
  return encryptPassword(password, app.aesKey, app.aesMode);
}

/**
 * The account services on their real repositories and one database (a medium spec file's),
 * wired by hand as Nest would: no HTTP, no guard, no module. `env` overrides the defaults of
 * the configuration (cheap argon2 parameters unless given).
 */
export function accountServices(db: MediumDatabase, env: Record<string, string> = {}) {
  const config: AccountConfig = loadAccountConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ...env });
  const ds = db.dataSource;
  const repositories = {
    auths: new AuthsRepository(ds),
    groups: new AuthGroupsRepository(ds),
    users: new UsersRepository(ds),
    events: new AuditEventsRepository(ds),
  };
  const audit = new AuditTrail(repositories.events);
  const time = new TimestampFormatter(config);
  const hasher = new PasswordHasher(config);
  const pii = new PiiCipher(loadPiiKeys(config).keys);
  const metrics = new Metrics('account', { defaultMetrics: false });
  const users = new UsersService(repositories.users, hasher, pii, audit, new PiiKeyCheck(ds, pii));
  const lockout = new LoginLockout(ds, config, new JobLeader(ds));
  const directory = new DirectoryService(loadDirectoryConfig({}), metrics);
  return {
    config,
    repositories,
    auths: new AuthsService(ds, repositories.auths, time, config, audit),
    groups: new AuthGroupsService(ds, repositories.groups, audit),
    users,
    permissions: new PermissionsService(repositories.users, repositories.groups, repositories.auths, config),
    login: new LoginService(users, new PasswordVerifier(hasher, directory), lockout, metrics, config, audit),
    lockout,
    events: new AuditEventsService(repositories.events, config),
  };
}

export type AccountServices = ReturnType<typeof accountServices>;

/** What a call answers in code and message: 90000 when it succeeds, else its exception's. */
export async function outcome(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
    return { code: AccountCodes.OK.code, message: AccountCodes.OK.message };
  } catch (err) {
    if (err instanceof ApiException) return { code: err.result.code, message: err.message };
    if (err instanceof InvalidParameterException) return { code: AccountCodes.INVALID_PARAMETER.code, message: err.message };
    throw err;
  }
}

/** An auth of `app` with the fields given (a name by default). */
export function seedAuth(s: AccountServices, app: ScopedApp, authId: string, fields: Partial<CreateAuthDto> = {}): Promise<void> {
  return s.auths.create(app.appToken, authId, { auth_name: authId, ...fields } as CreateAuthDto);
}

export function seedGroup(s: AccountServices, app: ScopedApp, groupId: string, fields: Partial<CreateGroupDto> = {}): Promise<void> {
  return s.groups.create(app.appToken, groupId, { group_name: groupId, ...fields } as CreateGroupDto);
}

/** A user of `app` (ordinary, password `P@ssw0rd!` unless given). */
export function seedUser(s: AccountServices, app: ScopedApp, loginId: string, fields: Partial<RegisterUserDto> = {}): Promise<string> {
  return s.users.register(app.appToken, loginId, {
    user_name: loginId,
    user_type: 'C',
    user_pwd: 'P@ssw0rd!',
    ...fields,
  } as RegisterUserDto);
}

/** The `ADMIN_TOKEN`'s principal: an admin of every app. */
export const ADMIN: AdminPrincipal = { login: 'admin', role: 'admin', apps: [], via: 'token' };

/**
 * The control plane's services (docs/contract.md §14) on their real repositories and one
 * database, with an app registry of their own holding `configured` as the `APP_CREDENTIALS`
 * apps (read-only, `source: "config"`). Nothing polls: a change refreshes the registry
 * itself, and a spec calls `sync.refresh` / `sync.flushUses` when it wants them.
 */
export function controlPlaneServices(db: MediumDatabase, options: { env?: Record<string, string>; configured?: AppCredential[] } = {}) {
  const config: AccountConfig = loadAccountConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ...options.env });
  const ds = db.dataSource;
  const registry = new AppRegistry(options.configured ?? [DEMO_APP]);
  const repositories = {
    apps: new AppsRepository(ds),
    credentials: new CredentialsRepository(ds),
    operators: new OperatorsRepository(ds),
    sessions: new AdminSessionsRepository(ds),
    events: new AuditEventsRepository(ds),
  };
  const audit = new AuditTrail(repositories.events);
  const time = new TimestampFormatter(config);
  const hasher = new PasswordHasher(config);
  const pii = new PiiCipher(loadPiiKeys(config).keys);
  const secrets = new CredentialSecrets(pii);
  const sync = new CredentialsSync(repositories.credentials, secrets, registry, config);
  const credentials = new CredentialsService(ds, repositories.credentials, secrets, sync, audit, time, registry);
  const lockout = new LoginLockout(ds, config, new JobLeader(ds));
  const directory = new DirectoryService(loadDirectoryConfig({}), new Metrics('account', { defaultMetrics: false }));
  return {
    config,
    registry,
    repositories,
    pii,
    sync,
    credentials,
    apps: new AppsService(ds, repositories.apps, repositories.credentials, credentials, sync, audit, time, registry),
    operators: new OperatorsService(ds, repositories.operators, repositories.apps, repositories.sessions, lockout, hasher, audit, time, registry),
    sessions: new AdminSessionsService(ds, repositories.sessions, repositories.operators, hasher, lockout, directory, audit, config),
    lockouts: new LockoutsService(ds, lockout, repositories.apps, audit, registry),
    lockout,
  };
}

export type ControlPlaneServices = ReturnType<typeof controlPlaneServices>;

/**
 * A request body as the admin API's validation pipe makes it into `dto` (its class-validator
 * rules: lengths, enums, unknown fields), or the 90100 it refuses it with.
 */
export async function validBody<T>(dto: new () => T, body: Record<string, unknown>): Promise<T> {
  return (await createValidationPipe().transform(body, { type: 'body', metatype: dto })) as T;
}
