import { createHash, timingSafeEqual } from 'node:crypto';
import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ApiException } from '@geoaccount/api';
import { AccountConfig } from '../config/account.config';
import { InternalCodes } from './internal.codes';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/** `Authorization: Bearer <INTERNAL_TOKEN>` (docs/contract.md §14); without the variable, every call is refused. */
@Injectable()
export class InternalTokenGuard implements CanActivate {
  private readonly expected?: Buffer;

  constructor(@Inject(AccountConfig) config: AccountConfig) {
    if (config.INTERNAL_TOKEN) this.expected = sha256(config.INTERNAL_TOKEN);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<Request>().headers.authorization ?? '';
    const token = /^Bearer (\S{1,512})$/.exec(header)?.[1];
    if (!this.expected || token === undefined || !timingSafeEqual(sha256(token), this.expected)) throw new ApiException(InternalCodes.BAD_TOKEN);
    return true;
  }
}
