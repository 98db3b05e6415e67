import { Body, HttpCode, Post } from '@nestjs/common';
import { ApiInterface, accountOk } from '@geoaccount/api';
import { AccountCodes, AccountInterface } from '../common/account-codes';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { LoginDto } from './dto/login.dto';
import { LoginService } from './login.service';
import { LoginRateLimit } from './login-rate-limit';
import { AccountController, AccountOperation } from '../common/account-openapi';
import { USER_SCHEMA } from '../users/user.view';

/** Interface 204. */
@AccountController(`${ACCOUNT_API_PREFIX}/users/login`)
export class LoginController {
  constructor(
    private readonly login: LoginService,
    private readonly rate: LoginRateLimit,
  ) {}

  @Post(':user_login_id')
  @HttpCode(200)
  @ApiInterface(AccountInterface.LOGIN)
  @AccountOperation(AccountInterface.LOGIN, {
    fields: LoginDto,
    summary: 'Check a login',
    description:
      'Checks the password (`user_pwd_encrypt`, AES with the app key, docs/contract.md §4) of a user (interface 204) and answers the user; repeated failures lock the login for a while (20443).',
    answer: USER_SCHEMA,
    extraCodes: [AccountCodes.INVALID_USER_INFO, AccountCodes.PII_UNAVAILABLE],
  })
  async check(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Body() dto: LoginDto) {
    const done = this.rate.enter(app.appToken);
    try {
      return accountOk(false, { ...(await this.login.login(app, user_login_id, dto)) });
    } finally {
      done();
    }
  }
}
