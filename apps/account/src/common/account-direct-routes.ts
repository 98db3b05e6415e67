import { type INestApplication, type PipeTransform, RequestMethod, type Type } from '@nestjs/common';
import {
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  REDIRECT_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { INTERFACE_NO, NoFieldsQuery, SIGNATURE_FIELD_NAMES, type TaggedRequest, interfaceOf } from '@geoaccount/api';
import { type DirectRoute, type FastPathAdapter, RATE_LIMIT, type RateLimit, refuseUnrunSteps } from '@geoaccount/http';
import { AccountSignatureGuard, CALLER_APP, type SignedCaller, type SignedRequest, callerAppOf } from '@geoaccount/signing';
import { PATH_ID_FIELDS } from './account-codes';
import { ACCOUNT_API_PREFIX } from './account-api';

/** What `admit` found: the verified caller (its nonce still to claim) and the handler's arguments but the caller. */
export interface AccountReadAdmitted {
  readonly signed: SignedCaller;
  readonly ids: readonly string[];
}

/** One argument of a read handler, in its order: the caller, a checked path id, or the (empty) query. */
type ReadArg = { kind: 'caller' } | { kind: 'id'; name: string; pipe: PipeTransform } | { kind: 'query' };

type ReadHandler = (this: unknown, ...args: unknown[]) => Promise<unknown>;

/**
 * The signed API's reads of one record as direct routes (libs/http's fast path "direct routes"):
 * every GET handler of `controllers` that takes `(@CallerApp() app, @PathId(…) id…, @Query() _:
 * NoFieldsQuery)`, e.g. `GET /users/{user_login_id}`, at its path, with the steps Nest runs
 * for it — the global `AccountApiGuard`'s signature check (`AccountSignatureGuard.verifyRequest`;
 * the nonce is claimed before the handler runs), the rate limit, the path ids' pipes, the
 * query's refusal of any field but the envelope's — then the handler itself and the adapter's
 * `reply`, as Nest calls them. A request one of these steps would refuse is left to Nest, which
 * answers the refusal (in its own order of steps). Why: Express's router and Nest's
 * per-request execution context were about a fifth of such a read's CPU
 * (docs/performance.md, "Direct routes for the account reads").
 *
 * The module middleware of the account (the form body, the audit origin) pass reads through
 * untouched, so a direct route runs only the application's (`app.use`) middleware. Handlers
 * of another shape stay with Nest; a handler or controller with steps of its own (a guard,
 * interceptor or pipe), a status, headers or a redirect makes this throw at start.
 */
export function accountReadRoutes(app: INestApplication, controllers: readonly Type[]): DirectRoute<AccountReadAdmitted>[] {
  const guard = app.get(AccountSignatureGuard);
  const limit = app.get<RateLimit | null>(RATE_LIMIT, { strict: false });
  const adapter = app.getHttpAdapter() as FastPathAdapter;
  const envelopeFields = new Set<string>([...SIGNATURE_FIELD_NAMES, ...PATH_ID_FIELDS]);
  return controllers.flatMap((controllerClass) => {
    const base = String(Reflect.getMetadata(PATH_METADATA, controllerClass));
    if (!base.startsWith(ACCOUNT_API_PREFIX))
      throw new Error(`accountReadRoutes: ${controllerClass.name} is not under ${ACCOUNT_API_PREFIX}`);
    const guards = Reflect.getMetadata(GUARDS_METADATA, controllerClass) as unknown[] | undefined;
    if (guards && guards.length > 0) throw new Error(`accountReadRoutes: ${controllerClass.name} has guards of its own`);
    refuseUnrunSteps(controllerClass, controllerClass.name);
    const controller = app.get(controllerClass);
    const prototype = controllerClass.prototype as Record<string, ReadHandler>;
    return Object.getOwnPropertyNames(prototype).flatMap((name) => {
      const handler = prototype[name];
      if (typeof handler !== 'function' || name === 'constructor') return [];
      if (Reflect.getMetadata(METHOD_METADATA, handler) !== RequestMethod.GET) return [];
      const args = readArgsOf(controllerClass, name);
      if (!args) return [];
      const where = `${controllerClass.name}.${name}`;
      refuseUnrunSteps(handler, where, { handler: true });
      for (const key of [HTTP_CODE_METADATA, HEADERS_METADATA, REDIRECT_METADATA]) {
        if (Reflect.getMetadata(key, handler) !== undefined)
          throw new Error(`accountReadRoutes: ${where} has ${key}, which its direct route does not apply`);
      }
      const interfaceNo = interfaceOf(handler);
      const sub = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const ids = args.filter((a): a is Extract<ReadArg, { kind: 'id' }> => a.kind === 'id');
      const route: DirectRoute<AccountReadAdmitted> = {
        path: `/${[base, sub].filter((p) => p !== '' && p !== '/').join('/')}`,
        admit(req) {
          // `NoFieldsQuery`: the signature's fields and the path ids only (the validation pipe's refusal).
          const query = req.query as Record<string, unknown>;
          for (const field in query) if (!envelopeFields.has(field)) return undefined;
          (req as TaggedRequest)[INTERFACE_NO] = interfaceNo;
          let signed: SignedCaller;
          try {
            signed = guard.verifyRequest(req as SignedRequest);
          } catch {
            return undefined;
          }
          (req as SignedRequest)[CALLER_APP] = signed.app;
          const values: string[] = [];
          for (const id of ids) {
            try {
              values.push(id.pipe.transform(req.params[id.name], { type: 'param', data: id.name }) as string);
            } catch {
              return undefined;
            }
          }
          const decision = limit?.take(req);
          return decision && !decision.allowed ? undefined : { signed, ids: values };
        },
        async serve(_req, res, { signed, ids: values }) {
          await guard.claimNonce(signed);
          let next = 0;
          const argsOfCall = args.map((a) => (a.kind === 'caller' ? signed.app : a.kind === 'id' ? values[next++] : {}));
          adapter.reply(res, await handler.apply(controller, argsOfCall), 200);
        },
      };
      return [route];
    });
  });
}

/**
 * The arguments of a handler if they are a direct read's: `@CallerApp()`, `@PathId(…)` (a
 * path parameter with its one pipe) and one `@Query()` of type `NoFieldsQuery`, in any order,
 * nothing else; undefined otherwise (the handler stays with Nest).
 */
function readArgsOf(controllerClass: Type, name: string): ReadArg[] | undefined {
  const metadata = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controllerClass, name) ?? {}) as Record<
    string,
    { index: number; data?: unknown; pipes?: PipeTransform[]; factory?: unknown }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controllerClass.prototype, name) ?? []) as unknown[];
  const entries = Object.entries(metadata);
  if (entries.length === 0 || entries.length !== types.length) return undefined;
  const args: ReadArg[] = [];
  let callers = 0;
  let queries = 0;
  for (const [key, arg] of entries) {
    const pipes = arg.pipes ?? [];
    if (arg.factory === callerAppOf && pipes.length === 0) {
      args[arg.index] = { kind: 'caller' };
      callers++;
    } else if (key === `${RouteParamtypes.PARAM}:${arg.index}` && typeof arg.data === 'string' && pipes.length === 1) {
      args[arg.index] = { kind: 'id', name: arg.data, pipe: pipes[0]! };
    } else if (
      key === `${RouteParamtypes.QUERY}:${arg.index}` &&
      arg.data === undefined &&
      pipes.length === 0 &&
      types[arg.index] === NoFieldsQuery
    ) {
      args[arg.index] = { kind: 'query' };
      queries++;
    } else return undefined;
  }
  return callers === 1 && queries === 1 && args.every(Boolean) ? args : undefined;
}
