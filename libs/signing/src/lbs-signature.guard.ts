import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException, InvalidParameterException, LbsCodes } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry, type RegisteredApp } from './credentials';
import { CALLER_APP, type SignedRequest } from './caller-app';
import { verifyLbs } from './lbs-signature';
import { hmacSha256Hex, signatureMatches } from './hmac';
import { lbsPlaintext, lbsSignedNames } from './portable';

interface LbsOperationMeta {
  name: string;
  signedNames: string[];
}
const LBS_OPERATION = 'lbs:operation';

/** Names a location operation and its own parameters (without the `param.` prefix). */
export const LbsOperation = (name: string, ownParams: readonly string[]): MethodDecorator =>
  SetMetadata(LBS_OPERATION, { name, signedNames: lbsSignedNames(ownParams) } satisfies LbsOperationMeta);

export const LBS_PARAM_PREFIX = 'param.';

/**
 * Verifies docs/contract.md §3: `userToken` names an app, `signature` signs the operation's
 * parameters with one of the app's active secrets (§14: up to two, an expired one refused at
 * once). The use of a control-plane credential is recorded in memory for `last_used_time`.
 */
@Injectable()
export class LbsSignatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const op = this.reflector.get<LbsOperationMeta | undefined>(LBS_OPERATION, context.getHandler());
    if (!op) throw new Error('LbsSignatureGuard on a handler without @LbsOperation');
    const req = context.switchToHttp().getRequest<SignedRequest>();
    const query = req.query as Record<string, unknown>;
    for (const name of Object.keys(query)) {
      if (typeof query[name] !== 'string') throw new InvalidParameterException(name, 'repeated');
    }
    const candidates = this.registry.credentialsOf(query.userToken);
    if (!candidates) throw new ApiException(LbsCodes.BAD_SIGNATURE, 'unknown userToken');
    const values: Record<string, string | undefined> = {};
    for (const name of op.signedNames) values[name] = query[LBS_PARAM_PREFIX + name] as string | undefined;
    const app = this.verify(candidates, op, values, query.signature);
    if (!app) throw new ApiException(LbsCodes.BAD_SIGNATURE, 'bad signature');
    req[CALLER_APP] = app;
    return true;
  }

  /** The credential whose secret signed the request, not expired; its use recorded in memory. */
  private verify(
    candidates: readonly RegisteredApp[],
    op: LbsOperationMeta,
    values: Record<string, string | undefined>,
    signature: unknown,
  ): RegisteredApp | undefined {
    // An app of APP_CREDENTIALS has one credential and no expiry: one HMAC, no clock read.
    if (candidates.length === 1 && candidates[0]!.expiresAt === undefined) {
      return verifyLbs(candidates[0]!.hmacKey, op.name, op.signedNames, values, signature) ? this.used(candidates[0]!) : undefined;
    }
    const now = Date.now();
    const plaintext = lbsPlaintext(op.name, op.signedNames, values);
    for (const c of candidates) {
      if (c.expiresAt !== undefined && now >= c.expiresAt) continue;
      if (signatureMatches(hmacSha256Hex(c.hmacKey, plaintext), signature)) return this.used(c, now);
    }
    return undefined;
  }

  private used(credential: RegisteredApp, now?: number): RegisteredApp {
    if (credential.credentialId !== undefined) this.registry.recordUse(credential, now);
    return credential;
  }
}
