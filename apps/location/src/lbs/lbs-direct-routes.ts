import { type INestApplication, type PipeTransform } from '@nestjs/common';
import { GUARDS_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { type DirectRoute, RATE_LIMIT, type RateLimit, refuseUnrunSteps, writeJson } from '@geoaccount/http';
import { APP_LOGGER, type AppLogger } from '@geoaccount/observability';
import {
  APP_REGISTRY,
  type AppRegistry,
  CALLER_APP,
  LbsSignatureGuard,
  type RegisteredApp,
  type SignedRequest,
  lbsCallerOf,
  lbsOperationOf,
} from '@geoaccount/signing';
import { LbsAccountingMiddleware, accountingOn } from './lbs-accounting.middleware';
import { LbsController } from './lbs.controller';
import type { LbsReply } from './lbs.service';

/** What `admit` found: the checked parameters and the verified caller. */
export interface LbsAdmitted {
  readonly params: unknown;
  readonly app: RegisteredApp;
}

type LbsHandler = (this: LbsController, params: unknown, app: RegisteredApp) => Promise<LbsReply>;

const noop = (): void => undefined;

/**
 * The location operations as direct routes (libs/http's fast path "direct routes"; they are
 * the service's whole request load): each `@LbsOperation` handler of `LbsController`, at the
 * controller's path, with the controller's own steps in the order Nest runs them — the
 * accounting middleware, `LbsSignatureGuard`'s check (`lbsCallerOf`), the rate limit, the
 * handler's parameter pipe — then the handler and the JSON writer. A request one of them
 * would refuse is left to Nest, which answers the refusal. Read from the controller's
 * metadata, so the routes cannot drift from it; a guard, interceptor or pipe these routes do
 * not run makes this throw at start rather than be skipped.
 */
export function lbsDirectRoutes(app: INestApplication): DirectRoute<LbsAdmitted>[] {
  const controller = app.get(LbsController);
  const registry = app.get<AppRegistry>(APP_REGISTRY);
  const limit = app.get<RateLimit | null>(RATE_LIMIT);
  const logger = app.get<AppLogger>(APP_LOGGER);
  const accounting = accountingOn(logger) ? new LbsAccountingMiddleware(logger) : undefined;
  const guards = (Reflect.getMetadata(GUARDS_METADATA, LbsController) as unknown[] | undefined) ?? [];
  if (guards.length !== 1 || guards[0] !== LbsSignatureGuard)
    throw new Error('lbsDirectRoutes: LbsController must have LbsSignatureGuard as its only guard');
  refuseUnrunSteps(LbsController, 'LbsController');

  const base = String(Reflect.getMetadata(PATH_METADATA, LbsController));
  const prototype = LbsController.prototype as unknown as Record<string, LbsHandler>;
  return Object.getOwnPropertyNames(prototype).flatMap((name) => {
    const handler = prototype[name]!;
    const op = typeof handler === 'function' ? lbsOperationOf(handler) : undefined;
    if (!op) return [];
    refuseUnrunSteps(handler, `LbsController.${name}`, { handler: true });
    const pipe = queryPipeOf(name);
    const route: DirectRoute<LbsAdmitted> = {
      path: `/${base}/${String(Reflect.getMetadata(PATH_METADATA, handler))}`,
      admit(req) {
        const query = req.query as Record<string, unknown>;
        const caller = lbsCallerOf(registry, op, query);
        if (!caller) return undefined;
        (req as SignedRequest)[CALLER_APP] = caller;
        let params: unknown;
        try {
          params = pipe.transform(query, { type: 'query' });
        } catch {
          return undefined;
        }
        const decision = limit?.take(req);
        return decision && !decision.allowed ? undefined : { params, app: caller };
      },
      async serve(req, res, { params, app: caller }) {
        accounting?.use(req as SignedRequest, res, noop);
        writeJson(res, 200, await handler.call(controller, params, caller));
      },
    };
    return [route];
  });
}

/**
 * The pipe of a handler's first argument, `@Query(new ParamsPipe(…))`; its second must be
 * `@CallerApp()`. Anything else makes this throw: the direct route passes those two.
 */
function queryPipeOf(name: string): PipeTransform {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, LbsController, name) ?? {}) as Record<
    string,
    { index: number; data?: unknown; pipes?: PipeTransform[] }
  >;
  const entries = Object.entries(args);
  const query = entries.find(([key, arg]) => key === `${RouteParamtypes.QUERY}:0` && arg.data === undefined && arg.pipes?.length === 1);
  const caller = entries.find(([key, arg]) => key.includes('__customRouteArgs__') && arg.index === 1);
  if (entries.length !== 2 || !query || !caller) {
    throw new Error(`lbsDirectRoutes: LbsController.${name} must take (@Query(pipe) params, @CallerApp() app)`);
  }
  return query[1].pipes![0]!;
}
