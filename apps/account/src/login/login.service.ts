import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AccountCodes, ApiException } from '@geoaccount/api';
import { Metrics } from '@geoaccount/observability';
import { type RegisteredApp, decryptPassword } from '@geoaccount/signing';
import { PasswordHasher } from '../users/password-hasher';
import type { UserEntity } from '../users/user.entity';
import { UsersService } from '../users/users.service';
import { type UserView, toUserView } from '../users/user.view';
import type { LoginDto } from './dto/login.dto';
import { LoginLockout } from './login-lockout';

/**
 * Login check (interface 13, number 204). An unknown login id and a wrong password give the
 * same answer after the same work (a check against the dummy hash); both count towards the
 * lock of the (app, login id).
 */
interface LoginRead {
  /** The user's row, `null` when the login id is unknown. */
  user: UserEntity | null;
  /** The login id is locked now. */
  locked: boolean;
  /** Failures are recorded for it (a success clears them). */
  failing: boolean;
}

@Injectable()
export class LoginService {
  private readonly logger = new Logger(LoginService.name);
  /**
   * The user and the login id's failure row in one round trip: the login reads both before
   * it verifies, and PostgreSQL's CPU is the argon2 hashes' CPU on a shared host.
   */
  private readonly readSql: string;

  constructor(
    private readonly dataSource: DataSource,
    private readonly usersService: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly lockout: LoginLockout,
    private readonly metrics: Metrics,
  ) {
    this.readSql = `SELECT ${usersService.columnList('u')},
        COALESCE(f."locked_until" > now(), false) AS "__locked", f."app_token" IS NOT NULL AS "__failing"
      FROM (VALUES (1)) AS "one" ("x")
      LEFT JOIN "users" "u" ON "u"."app_token" = $1 AND "u"."user_login_id" = $2
      LEFT JOIN "login_failures" "f" ON "f"."app_token" = $1 AND "f"."user_login_id" = $2`;
  }

  private async read(appToken: string, userLoginId: string): Promise<LoginRead> {
    const [row] = (await this.dataSource.query(this.readSql, [appToken, userLoginId])) as (UserEntity & {
      __locked: boolean;
      __failing: boolean;
    })[];
    const { __locked: locked, __failing: failing, ...user } = row!;
    return { user: user.userLoginId === null ? null : user, locked, failing };
  }

  async login(app: RegisteredApp, userLoginId: string, dto: LoginDto): Promise<UserView> {
    const password = decryptPassword(dto.user_pwd_encrypt, app.aesKey, app.aesMode);
    if (password === undefined) {
      this.metrics.login().failure('undecryptable');
      throw new ApiException(AccountCodes.INVALID_USER_INFO);
    }
    const { user, locked, failing } = await this.read(app.appToken, userLoginId);
    if (locked) {
      this.metrics.login().failure('locked');
      throw new ApiException(AccountCodes.LOGIN_LOCKED);
    }

    const stored = user?.userPwdHash ?? null;
    const check = await this.hasher.check(stored, password);
    if (!user || !check.ok) {
      const failures = await this.lockout.recordFailure(app.appToken, userLoginId);
      this.metrics.login().failure('bad_credentials');
      if (failures.locked) this.metrics.login().lockout();
      throw new ApiException(AccountCodes.LOGIN_FAILED);
    }
    if (dto.is_domain_user !== undefined && dto.is_domain_user !== user.isDomainUser) {
      this.metrics.login().failure('user_type');
      throw new ApiException(AccountCodes.LOGIN_USER_TYPE);
    }

    if (failing) await this.lockout.reset(app.appToken, userLoginId);
    if (check.needsRehash && stored) await this.rehash(app.appToken, userLoginId, stored, password);
    return toUserView(user);
  }

  /** Replaces a hash made with old parameters; a failure here must not fail the login. */
  private async rehash(appToken: string, userLoginId: string, stored: string, password: string): Promise<void> {
    try {
      await this.usersService.replacePasswordHash(appToken, userLoginId, stored, await this.hasher.hash(password));
    } catch (err) {
      this.logger.warn(`password rehash failed: ${(err as Error).message}`);
    }
  }
}
