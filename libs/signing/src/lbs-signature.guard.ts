import { type CanActivate, type ExecutionContext, Inject, Injectable, Optional, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { ApiException, InvalidParameterException, LbsCodes } from '@geoaccount/api';
import { APP_REGISTRY, type AppRegistry, CREDENTIAL_USES, type CredentialUseSink, liveCredentials } from './credentials';
import { CALLER_APP, CALLER_CREDENTIAL, type SignedRequest } from './caller-app';
import { verifyLbs } from './lbs-signature';
import { lbsSignedNames } from './portable';

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
 * parameters with one of the app's live secrets (§14: up to two, an expired one refused at
 * once). The use of a control-plane credential is recorded for `last_used_time`.
 */
@Injectable()
export class LbsSignatureGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(APP_REGISTRY) private readonly registry: AppRegistry,
    @Optional() @Inject(CREDENTIAL_USES) private readonly uses?: CredentialUseSink,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const op = this.reflector.get<LbsOperationMeta | undefined>(LBS_OPERATION, context.getHandler());
    if (!op) throw new Error('LbsSignatureGuard on a handler without @LbsOperation');
    const req = context.switchToHttp().getRequest<SignedRequest>();
    const query = req.query as Record<string, unknown>;
    for (const name of Object.keys(query)) {
      if (typeof query[name] !== 'string') throw new InvalidParameterException(name, 'repeated');
    }
    const app = this.registry.get(query.userToken);
    if (!app) throw new ApiException(LbsCodes.BAD_SIGNATURE, 'unknown userToken');
    const values: Record<string, string | undefined> = {};
    for (const name of op.signedNames) values[name] = query[LBS_PARAM_PREFIX + name] as string | undefined;
    const now = Date.now();
    const credential = liveCredentials(app, now).find((c) => verifyLbs(c.hmacKey, op.name, op.signedNames, values, query.signature));
    if (!credential) throw new ApiException(LbsCodes.BAD_SIGNATURE, 'bad signature');
    if (credential.credentialId !== '' && this.uses) this.uses.record(credential.credentialId, now);
    req[CALLER_APP] = app;
    req[CALLER_CREDENTIAL] = credential;
    return true;
  }
}
