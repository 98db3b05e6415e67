import { Injectable, Logger } from '@nestjs/common';
import { AccountCodes, ApiException } from '@geoaccount/api';
import { Metrics } from '@geoaccount/observability';
import { type RegisteredApp, decryptPassword } from '@geoaccount/signing';
import { PasswordHasher } from '../users/password-hasher';
import { UsersService } from '../users/users.service';
import { type UserView, toUserView } from '../users/user.view';
import type { LoginDto } from './dto/login.dto';
import { LoginLockout } from './login-lockout';

/**
 * Login check (interface 13, number 204). An unknown login id and a wrong password give the
 * same answer after the same work (a check against the dummy hash); both count towards the
 * lock of the (app, login id).
 */
@Injectable()
export class LoginService {
  private readonly logger = new Logger(LoginService.name);

  constructor(
    private readonly users: UsersService,
    private readonly hasher: PasswordHasher,
    private readonly lockout: LoginLockout,
    private readonly metrics: Metrics,
  ) {}

  async login(app: RegisteredApp, userLoginId: string, dto: LoginDto): Promise<UserView> {
    const password = decryptPassword(dto.user_pwd_encrypt, app.aesKey, app.aesMode);
    if (password === undefined) {
      this.metrics.login().failure('undecryptable');
      throw new ApiException(AccountCodes.INVALID_USER_INFO);
    }
    if (await this.lockout.lockedUntil(app.appToken, userLoginId)) {
      this.metrics.login().failure('locked');
      throw new ApiException(AccountCodes.LOGIN_LOCKED);
    }

    const user = await this.users.findForLogin(app.appToken, userLoginId);
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

    await this.lockout.reset(app.appToken, userLoginId);
    if (check.needsRehash && stored) await this.rehash(app.appToken, userLoginId, stored, password);
    return toUserView(user);
  }

  /** Replaces a hash made with old parameters; a failure here must not fail the login. */
  private async rehash(appToken: string, userLoginId: string, stored: string, password: string): Promise<void> {
    try {
      await this.users.replacePasswordHash(appToken, userLoginId, stored, await this.hasher.hash(password));
    } catch (err) {
      this.logger.warn(`password rehash failed: ${(err as Error).message}`);
    }
  }
}
