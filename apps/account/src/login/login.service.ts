import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { ApiException, type ResultCode } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { Metrics } from '@geoaccount/observability';
import { type RegisteredApp, decryptPassword } from '@geoaccount/signing';
import { AccountConfig } from '../config/account.config';
import type { AuditEventRow } from '../audit/audit-events.repository';
import { type AuditAction, AuditTrail } from '../audit/audit-trail';
import type { PasswordCheck } from '../users/password-hasher';
import type { UserEntity } from '../users/user.entity';
import type { LoginRow } from '../users/users.repository';
import { UsersService } from '../users/users.service';
import type { UserView } from '../users/user.view';
import type { LoginDto } from './dto/login.dto';
import { AttemptGate, GateTimeoutError } from './attempt-gate';
import { type LoginClaim, LoginLockout, type NoClaim } from './login-lockout';
import { PasswordVerifier } from './password-verifier';
import { type AppToken, appTokenOf } from '../common/app-scope';

interface LoginRead {
  /** The user's row, `null` when the login id is unknown. */
  user: UserEntity | null;
  /** This attempt's claim, or why there is none. */
  claim: LoginClaim | NoClaim;
}

/**
 * How long an attempt waits for a claim while the allowed ones are all being verified (then
 * 429 90429); the pauses between claims while another instance holds them.
 */
const BUSY_WAIT_MS = 10_000;
const BUSY_RETRY_MS = { first: 5, max: 100 };

/**
 * Login check (interface 204). Each attempt first claims one of the allowed
 * failures of its (app, login id) (see {@link LoginLockout}), then verifies the password: an
 * unknown login id and a wrong password give the same answer after the same work (a check
 * against the dummy hash), and both count towards the lock. A domain user's password is
 * checked by the app's directory instead (docs/contract.md §9), under the same rules.
 */
@Injectable()
export class LoginService {
  private readonly logger = new Logger(LoginService.name);
  /** The claim and the user in one round trip (`UsersRepository.loginReader`). */
  private readonly read: (appToken: AppToken, userLoginId: string, claimParams: readonly unknown[]) => Promise<LoginRow>;
  /** Turns of the attempts of one login id in this instance. */
  private readonly gate: AttemptGate;

  constructor(
    private readonly usersService: UsersService,
    private readonly passwords: PasswordVerifier,
    private readonly lockout: LoginLockout,
    private readonly metrics: Metrics,
    @Inject(AccountConfig) config: AccountConfig,
    private readonly audit: AuditTrail,
  ) {
    this.gate = new AttemptGate(config.LOGIN_MAX_FAILURES);
    this.read = usersService.loginReader({ cte: lockout.claimCte(), locked: lockout.lockedSql('l') });
  }

  private async claimAndRead(appToken: AppToken, userLoginId: string): Promise<LoginRead> {
    const { user, claimAt, locked } = await this.read(appToken, userLoginId, this.lockout.claimParams());
    return { user, claim: claimAt !== null ? { at: claimAt } : locked ? 'locked' : 'busy' };
  }

  /**
   * Claims an attempt. Attempts of one login id in this instance take turns in memory (as
   * many at a time as there are allowed failures), so that they do not ask PostgreSQL in vain;
   * while attempts of another instance hold the allowed failures, it claims again after short
   * pauses. Nothing free after {@link BUSY_WAIT_MS}: 429 90429.
   */
  private async claimWaiting(
    appToken: AppToken,
    userLoginId: string,
    deadline: number,
  ): Promise<{ user: UserEntity | null; claim: LoginClaim | null }> {
    for (let pause = BUSY_RETRY_MS.first; ; pause = Math.min(pause * 2, BUSY_RETRY_MS.max)) {
      const { user, claim } = await this.claimAndRead(appToken, userLoginId);
      if (claim === 'locked') return { user, claim: null };
      if (claim !== 'busy') return { user, claim };
      if (Date.now() >= deadline) {
        this.metrics.login().failure('busy');
        throw new ApiException(AccountCodes.RATE_LIMITED);
      }
      await sleep(pause / 2 + Math.random() * pause);
    }
  }

  /** Runs `attempt` with a turn of the login id in this instance. */
  private async inTurn<T>(appToken: AppToken, userLoginId: string, attempt: (deadline: number) => Promise<T>): Promise<T> {
    const key = `${appToken}\n${userLoginId}`;
    const deadline = Date.now() + BUSY_WAIT_MS;
    try {
      await this.gate.enter(key, BUSY_WAIT_MS);
    } catch (err) {
      if (err instanceof GateTimeoutError) {
        this.metrics.login().failure('busy');
        throw new ApiException(AccountCodes.RATE_LIMITED);
      }
      throw err;
    }
    try {
      return await attempt(deadline);
    } finally {
      this.gate.leave(key);
    }
  }

  async login(app: RegisteredApp, userLoginId: string, dto: LoginDto): Promise<UserView> {
    const password = decryptPassword(dto.user_pwd_encrypt, app.aesKey, app.aesMode);
    if (password === undefined) {
      this.metrics.login().failure('undecryptable');
      throw new ApiException(AccountCodes.INVALID_USER_INFO);
    }
    return this.inTurn(appTokenOf(app), userLoginId, (deadline) => this.check(app, userLoginId, dto, password, deadline));
  }

  private async check(app: RegisteredApp, userLoginId: string, dto: LoginDto, password: string, deadline: number): Promise<UserView> {
    const { user, claim } = await this.claimWaiting(appTokenOf(app), userLoginId, deadline);
    if (!claim) {
      this.metrics.login().failure('locked');
      throw await this.refused(appTokenOf(app), userLoginId, 'login_locked', AccountCodes.LOGIN_LOCKED);
    }

    let check: PasswordCheck;
    try {
      check = await this.passwords.verify(appTokenOf(app), userLoginId, user, password);
    } catch (err) {
      // Nothing was verified (the directory unavailable, an error): not a failure.
      await this.giveBack(appTokenOf(app), userLoginId, claim);
      throw err;
    }
    if (!user || !check.ok) {
      // The claim stays: it is this failure.
      // The failure and its audit event in one statement.
      const locked = await this.lockout.fail(
        app.appToken,
        userLoginId,
        this.eventOf(appTokenOf(app), userLoginId, 'login_failed', AccountCodes.LOGIN_FAILED),
      );
      this.metrics.login().failure('bad_credentials');
      if (locked) this.metrics.login().lockout();
      throw new ApiException(AccountCodes.LOGIN_FAILED);
    }
    if (dto.is_domain_user !== undefined && dto.is_domain_user !== user.isDomainUser) {
      await this.giveBack(appTokenOf(app), userLoginId, claim);
      this.metrics.login().failure('user_type');
      throw await this.refused(appTokenOf(app), userLoginId, 'login_failed', AccountCodes.LOGIN_USER_TYPE);
    }

    // The answer first: a login whose answer fails (personal data that does not decrypt) is
    // still a success for the lockout, but no 'login' event.
    let view: UserView | undefined;
    let unanswerable: unknown;
    try {
      view = this.usersService.view(user);
    } catch (err) {
      unanswerable = err;
    }
    // The success and its audit event in one statement.
    const event = unanswerable === undefined ? this.eventOf(appTokenOf(app), userLoginId, 'login', AccountCodes.OK) : undefined;
    await this.lockout.succeed(appTokenOf(app), userLoginId, claim, event);
    if (check.needsRehash && user.userPwdHash) await this.rehash(appTokenOf(app), userLoginId, user.userPwdHash, password);
    if (view === undefined) throw unanswerable;
    return view;
  }

  /** The audit event of an attempt (docs/contract.md §10). */
  private eventOf(appToken: AppToken, userLoginId: string, action: AuditAction, code: ResultCode): AuditEventRow {
    return this.audit.rowOf({ appToken, action, resourceType: 'user', resourceId: userLoginId, resultCode: code.code });
  }

  /** Records a refused attempt that writes nothing else in the audit trail (docs/contract.md §10); the exception to throw. */
  private async refused(appToken: AppToken, userLoginId: string, action: AuditAction, code: ResultCode): Promise<ApiException> {
    await this.audit.recordAlone({
      appToken,
      action,
      resourceType: 'user',
      resourceId: userLoginId,
      resultCode: code.code,
    });
    return new ApiException(code);
  }

  /** Gives back the claim of an attempt that is not a failure; an error here leaves it counted. */
  private async giveBack(appToken: AppToken, userLoginId: string, claim: LoginClaim): Promise<void> {
    try {
      await this.lockout.release(appToken, userLoginId, claim);
    } catch (err) {
      this.logger.warn(`login claim release failed: ${(err as Error).message}`);
    }
  }

  /** Replaces a hash made with old parameters; a failure here must not fail the login. */
  private async rehash(appToken: AppToken, userLoginId: string, stored: string, password: string): Promise<void> {
    try {
      await this.usersService.replacePasswordHash(appToken, userLoginId, stored, await this.passwords.hash(password));
    } catch (err) {
      this.logger.warn(`password rehash failed: ${(err as Error).message}`);
    }
  }
}
