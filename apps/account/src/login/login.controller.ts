import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { AccountInterface, ApiInterface, accountOk } from '@geoaccount/api';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { PathId } from '../common/path-id';
import { LoginDto } from './dto/login.dto';
import { LoginService } from './login.service';

/** Interface 13 of the spec (number 204). */
@Controller(`${ACCOUNT_API_PREFIX}/users/login`)
export class LoginController {
  constructor(private readonly login: LoginService) {}

  @Post(':user_login_id')
  @HttpCode(200)
  @ApiInterface(AccountInterface.LOGIN)
  async check(@CallerApp() app: RegisteredApp, @PathId('user_login_id') user_login_id: string, @Body() dto: LoginDto) {
    return accountOk(false, { ...(await this.login.login(app, user_login_id, dto)) });
  }
}
