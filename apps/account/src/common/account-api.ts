import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import { PATH_METADATA } from '@nestjs/common/constants';
import { AccountSignatureGuard } from '@geoaccount/signing';

/** Path prefix of every account endpoint (spec: `{base_url}/account/v1.0.1`). */
export const ACCOUNT_API_PREFIX = 'account/v1.0.1';

/**
 * The global guard: every route of a controller under `ACCOUNT_API_PREFIX` must carry a
 * valid docs/contract.md §2 signature; other routes (health probes) are public.
 */
@Injectable()
export class AccountApiGuard implements CanActivate {
  constructor(private readonly signature: AccountSignatureGuard) {}

  canActivate(context: ExecutionContext): Promise<boolean> | boolean {
    const path = Reflect.getMetadata(PATH_METADATA, context.getClass()) as string | string[] | undefined;
    const paths = Array.isArray(path) ? path : [path ?? ''];
    const signed = paths.some((p) => p.replace(/^\//, '').startsWith(ACCOUNT_API_PREFIX));
    return signed ? this.signature.canActivate(context) : true;
  }
}
