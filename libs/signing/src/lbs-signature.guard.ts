import { type CanActivate, type ExecutionContext, Inject, Injectable, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException, InvalidParameterException, LbsCodes } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry, type RegisteredApp } from './credentials';
import { CALLER_APP, type SignedRequest } from './caller-app';
import { verifyLbs } from './lbs-signature';
import { hmacSha256, signatureMatches } from './hmac';
import { lbsPlaintext, lbsSignedNames } from './portable';

/** A location operation's name and the parameters its signature covers. */
export interface LbsOperationMeta {
  readonly name: string;
  readonly signedNames: readonly string[];
}
const LBS_OPERATION = 'lbs:operation';

/** Names a location operation and its own parameters (without the `param.` prefix). */
export const LbsOperation = (name: string, ownParams: readonly string[]): MethodDecorator =>
  SetMetadata(LBS_OPERATION, { name, signedNames: lbsSignedNames(ownParams) } satisfies LbsOperationMeta);

/** The operation a handler names with `@LbsOperation`, if any. */
export function lbsOperationOf(handler: object): LbsOperationMeta | undefined {
  return Reflect.getMetadata(LBS_OPERATION, handler) as LbsOperationMeta | undefined;
}

export const LBS_PARAM_PREFIX = 'param.';

/**
 * The credential that signed `query` for `op` (docs/contract.md §3, §14: one of the app's
 * active secrets, an expired one refused at once), its use recorded in memory for
 * `last_used_time`; undefined when none did or a parameter is repeated (`lbsRefusal` says
 * which). Safe to run twice on one request: recording a use is idempotent.
 */
export function lbsCallerOf(
  registry: AppRegistry,
  op: LbsOperationMeta,
  query: Readonly<Record<string, unknown>>,
): RegisteredApp | undefined {
  for (const name of Object.keys(query)) if (typeof query[name] !== 'string') return undefined;
  const candidates = registry.credentialsOf(query.userToken);
  if (!candidates) return undefined;
  const values: Record<string, string | undefined> = {};
  for (const name of op.signedNames) values[name] = query[LBS_PARAM_PREFIX + name] as string | undefined;
  const signature = query.signature;
  // An app of APP_CREDENTIALS has one credential and no expiry: one HMAC, no clock read.
  if (candidates.length === 1 && candidates[0]!.expiresAt === undefined) {
    return verifyLbs(candidates[0]!.hmacKey, op.name, op.signedNames, values, signature) ? used(registry, candidates[0]!) : undefined;
  }
  const now = Date.now();
  const plaintext = lbsPlaintext(op.name, op.signedNames, values);
  for (const c of candidates) {
    if (c.expiresAt !== undefined && now >= c.expiresAt) continue;
    if (signatureMatches(hmacSha256(c.hmacKey, plaintext), signature)) return used(registry, c, now);
  }
  return undefined;
}

function used(registry: AppRegistry, credential: RegisteredApp, now?: number): RegisteredApp {
  if (credential.credentialId !== undefined) registry.recordUse(credential, now);
  return credential;
}

/** Why `lbsCallerOf` found no caller: the refusal the guard answers. */
function lbsRefusal(registry: AppRegistry, query: Readonly<Record<string, unknown>>): Error {
  for (const name of Object.keys(query)) {
    if (typeof query[name] !== 'string') return new InvalidParameterException(name, 'repeated');
  }
  if (!registry.credentialsOf(query.userToken)) return new ApiException(LbsCodes.BAD_SIGNATURE, 'unknown userToken');
  return new ApiException(LbsCodes.BAD_SIGNATURE, 'bad signature');
}

/**
 * Verifies docs/contract.md §3 with `lbsCallerOf`: `userToken` names an app, `signature` signs
 * the operation's parameters with one of the app's active secrets.
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
    const app = lbsCallerOf(this.registry, op, query);
    if (!app) throw lbsRefusal(this.registry, query);
    req[CALLER_APP] = app;
    return true;
  }
}
