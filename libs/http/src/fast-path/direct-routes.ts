import { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQueryString } from 'node:querystring';
import type { Express, NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * A GET route the application serves directly (fast path "direct routes"): its exact path,
 * the checks the framework would run before its handler, and its answer.
 */
export interface DirectRoute<A = unknown> {
  /**
   * The route's path as the application declares it (`/lbsapi/api/lbsQuery`,
   * `/account/v1.0.1/users/:user_login_id`), matched exactly, a `:name` segment matching one
   * non-empty segment (percent-decoded into `req.params.name`, as Express's router does);
   * another spelling the router would accept (case, a trailing slash) goes through the router.
   */
  readonly path: string;
  /**
   * The route's guards, rate limit and parameter pipes, as checks that answer nothing: what
   * `serve` needs, or undefined to leave the request to the framework, which runs its own
   * checks again and answers the refusal itself. So it must be safe to run twice on a request.
   */
  admit(req: Request): A | undefined;
  /** Answers an admitted request, after the application's middleware; a rejection goes to the exception filter. */
  serve(req: Request, res: Response, admitted: A): Promise<void>;
}

/** Answers what a direct route or the middleware before it threw (the application's exception filter). */
export type DirectRouteFailure = (error: unknown, req: Request, res: Response) => void;

/** `req.route` of a directly served request: what Express's router puts there, for the metrics and log readers. */
export interface DirectRouteInfo {
  readonly path: string;
  readonly methods: Readonly<Record<string, boolean>>;
}

interface Entry {
  readonly route: DirectRoute;
  readonly info: DirectRouteInfo;
}

/** A route with `:name` segments: its fixed start, then its segments (a name where a parameter is). */
interface ParamEntry extends Entry {
  readonly prefix: string;
  readonly segments: readonly { readonly text: string; readonly param: boolean }[];
}

const NO_PARAMS: Readonly<Record<string, string>> = Object.freeze({});

/**
 * Fast path "direct routes": the HTTP server's request listener serves the GET routes given
 * here itself and hands every other request to Express. Why: on the service's hottest read
 * (a cached lbsQuery, about 35 µs of its own work), Express's router (a walk over every
 * layer, `parseurl` per layer, a final handler per request) and Nest's per-request execution
 * context (guard, interceptor and pipe steps, each awaited) were a quarter of the CPU
 * (`docs/performance.md`, "Direct routes"). What is kept: the request and response get
 * Express's prototypes and fields as `app.handle` and the router give them; the application's
 * own middleware (everything added with `app.use` before `serveDirect`: query, CORS, request
 * observer, security headers) runs in its order; the route's guard, rate limit and pipes run
 * as `admit`, whose refusals are left to the framework (so a refused request gets exactly
 * the framework's answer); the route's handler and the JSON writer answer; errors go to the
 * application's exception filter.
 */
export class DirectRoutes {
  private readonly routes = new Map<string, Entry>();
  private readonly paramRoutes: ParamEntry[] = [];
  /** The application parses queries with `node:querystring` (`useQueryParsedOnce`): this can too. */
  private readonly plainQueries: boolean;

  constructor(
    private readonly express: Express,
    private readonly middleware: readonly RequestHandler[],
    routes: readonly DirectRoute[],
    private readonly failed: DirectRouteFailure,
  ) {
    this.plainQueries = express.get('query parser fn') === parseQueryString;
    for (const route of routes) {
      if (!route.path.startsWith('/') || route.path.includes('?'))
        throw new Error(`direct route ${route.path}: an absolute path without a query`);
      if (this.routes.has(route.path) || this.paramRoutes.some((e) => e.info.path === route.path))
        throw new Error(`direct route ${route.path}: given twice`);
      const info = Object.freeze({ path: route.path, methods: Object.freeze({ get: true }) });
      const colon = route.path.indexOf('/:');
      if (colon < 0) {
        this.routes.set(route.path, { route, info });
        continue;
      }
      const prefix = route.path.slice(0, colon + 1);
      const segments = route.path
        .slice(colon + 1)
        .split('/')
        .map((part) => (part.startsWith(':') ? { text: part.slice(1), param: true } : { text: part, param: false }));
      if (segments.some((seg) => seg.text === '' || (seg.param && !PARAM_NAME.test(seg.text))))
        throw new Error(`direct route ${route.path}: a parameter is ":name" and fills a whole segment`);
      this.paramRoutes.push({ route, info, prefix, segments });
    }
  }

  /** The HTTP server's `request` listener: a direct route, or Express. */
  readonly listener = (message: IncomingMessage, response: ServerResponse): void => {
    if (!this.serve(message, response)) this.express(message, response);
  };

  private serve(message: IncomingMessage, response: ServerResponse): boolean {
    if (message.method !== 'GET') return false;
    const url = message.url ?? '';
    const q = url.indexOf('?');
    const path = q < 0 ? url : url.slice(0, q);
    let entry: Entry | undefined = this.routes.get(path);
    let params = NO_PARAMS;
    if (!entry) {
      for (const candidate of this.paramRoutes) {
        const found = paramsOf(candidate, path);
        if (found) {
          entry = candidate;
          params = found;
          break;
        }
      }
      if (!entry) return false;
    }
    const req = message as Request & { route?: DirectRouteInfo };
    const res = response as Response;
    // The query as Express's getter would parse it (`parseurl` then the parser), from the `?` found
    // above; a URL that `parseurl` would hand to `url.parse` takes the getter's way.
    const query = this.plainQueries && q >= 0 && !UNUSUAL_URL.test(url) ? parseQueryString(url.slice(q + 1)) : undefined;
    expressFields(this.express, req, res, query);
    if (params !== NO_PARAMS) req.params = params;
    const admitted = entry.route.admit(req);
    if (admitted === undefined) return false;
    req.route = entry.info;
    this.run(entry.route, admitted, req, res);
    return true;
  }

  /** The application's middleware in its order, then the route's answer. */
  private run(route: DirectRoute, admitted: unknown, req: Request, res: Response): void {
    const middleware = this.middleware;
    let i = 0;
    const next: NextFunction = (error?: unknown) => {
      if (error !== undefined && error !== null && error !== 'route' && error !== 'router') {
        this.failed(error, req, res);
        return;
      }
      if (i < middleware.length) {
        try {
          middleware[i++]!(req, res, next);
        } catch (thrown) {
          this.failed(thrown, req, res);
        }
        return;
      }
      route.serve(req, res, admitted).catch((thrown: unknown) => this.failed(thrown, req, res));
    };
    next();
  }
}

/** A parameter's name, as path-to-regexp reads one. */
const PARAM_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/**
 * The parameters of `path` if it is `entry`'s route: each `:name` one non-empty segment,
 * percent-decoded; undefined when it is not, or when a segment does not decode (Express's
 * router answers that one itself, 400).
 */
function paramsOf(entry: ParamEntry, path: string): Record<string, string> | undefined {
  if (!path.startsWith(entry.prefix)) return undefined;
  const parts = path.slice(entry.prefix.length).split('/');
  const segments = entry.segments;
  if (parts.length !== segments.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const seg = segments[i]!;
    const part = parts[i]!;
    if (!seg.param) {
      if (part !== seg.text) return undefined;
      continue;
    }
    if (part === '') return undefined;
    if (!part.includes('%')) {
      params[seg.text] = part;
      continue;
    }
    try {
      params[seg.text] = decodeURIComponent(part);
    } catch {
      return undefined;
    }
  }
  return params;
}

/** The request and response classes of an application's HTTP server (`expressClasses`). */
export interface ExpressClasses {
  readonly IncomingMessage: typeof IncomingMessage;
  readonly ServerResponse: typeof ServerResponse;
}

const classesOf = new WeakMap<Express, ExpressClasses>();

/**
 * Fast path "Express's prototypes from the start": classes for the HTTP server
 * (`createServer({ IncomingMessage, ServerResponse }, app)`) whose requests and responses have
 * Express's `app.request` / `app.response` in their prototype chain when Node makes them, so a
 * direct route need not change each one's prototype (`Object.setPrototypeOf`, which V8 pays
 * with a new hidden class per object: `expressFields` was 11% of a cached lbsQuery's CPU).
 * Express's own `app.handle` still sets its prototypes on what it routes, as before.
 */
export function expressClasses(express: Express): ExpressClasses {
  let classes = classesOf.get(express);
  if (!classes) {
    class ExpressRequest extends IncomingMessage {}
    Object.setPrototypeOf(ExpressRequest.prototype, express.request);
    class ExpressResponse<R extends IncomingMessage = IncomingMessage> extends ServerResponse<R> {}
    Object.setPrototypeOf(ExpressResponse.prototype, express.response);
    classes = { IncomingMessage: ExpressRequest, ServerResponse: ExpressResponse };
    classesOf.set(express, classes);
  }
  return classes;
}

/** Characters after which `parseurl` parses a URL with `url.parse` instead of splitting it at `?`. */
const UNUSUAL_URL = /[\t\n\f\r #\u00a0\ufeff]/;

/**
 * What Express 5's `app.handle` and router give a request they route to a top-level route:
 * the two prototypes (with `req.app`; already in place when the server made them with
 * `expressClasses`), the circular references, `res.locals`, `originalUrl`,
 * `baseUrl` and `params`; and the query parsed once as a plain property (`parseQueryOnce`),
 * `query` when the caller has parsed it.
 * A request left to Express afterwards gets the same again from Express.
 */
function expressFields(express: Express, req: Request, res: Response, query: Request['query'] | undefined): void {
  req.res = res;
  res.req = req;
  // Made by the server with Express's prototypes already (`expressClasses`): nothing to change.
  const classes = classesOf.get(express);
  if (Object.getPrototypeOf(req) !== classes?.IncomingMessage.prototype) Object.setPrototypeOf(req, express.request);
  if (Object.getPrototypeOf(res) !== classes?.ServerResponse.prototype) Object.setPrototypeOf(res, express.response);
  if (!res.locals) res.locals = Object.create(null) as Response['locals'];
  req.originalUrl = req.url;
  req.baseUrl = '';
  req.params = {};
  Object.defineProperty(req, 'query', { value: query ?? req.query, writable: true, enumerable: true, configurable: true });
}
