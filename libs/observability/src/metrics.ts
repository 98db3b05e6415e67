import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** Value of `upstream_circuit_state`. */
export const CircuitState = { closed: 0, half_open: 1, open: 2 } as const;
export type CircuitStateName = keyof typeof CircuitState;

/** What a connection pool reports about itself (pg: totalCount - idleCount, idleCount, waitingCount). */
export interface PoolSample {
  inUse: number;
  idle: number;
  waiting: number;
}

const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const UPSTREAM_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10];

/**
 * The service's Prometheus registry and the metric families the services share. One
 * instance per application (tests run several in one process); every series carries the
 * `service` label.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly results: Counter<'route' | 'status_code' | 'code'>;
  private cacheMetrics?: CacheMetrics;
  private loginMetrics?: LoginMetrics;
  private readonly upstreams = new Map<string, UpstreamMetrics>();
  private upstreamFamilies?: UpstreamFamilies;

  constructor(service: string, options: { defaultMetrics?: boolean } = {}) {
    this.registry.setDefaultLabels({ service });
    if (options.defaultMetrics !== false) collectDefaultMetrics({ register: this.registry });
    this.httpDuration = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Time from request to response, by route template and HTTP status.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers: [this.registry],
    });
    this.results = new Counter({
      name: 'api_results_total',
      help: 'Answers by result code of the envelope (response_code / code), route and HTTP status.',
      labelNames: ['route', 'status_code', 'code'],
      registers: [this.registry],
    });
  }

  /** Content type of `render()`. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** The exposition text served at `/metrics`. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  observeHttp(method: string, route: string, status: number, seconds: number, code?: string): void {
    const status_code = String(status);
    this.httpDuration.observe({ method, route, status_code }, seconds);
    if (code !== undefined) this.results.inc({ route, status_code, code });
  }

  /** Cache lookups and cache backend errors. */
  cache(): CacheMetrics {
    this.cacheMetrics ??= new CacheMetrics(this.registry);
    return this.cacheMetrics;
  }

  /** Latency, errors and circuit state of one upstream (a geocoder, a cell source). */
  upstream(name: string): UpstreamMetrics {
    this.upstreamFamilies ??= new UpstreamFamilies(this.registry);
    let metrics = this.upstreams.get(name);
    if (!metrics) {
      metrics = new UpstreamMetrics(name, this.upstreamFamilies);
      this.upstreams.set(name, metrics);
    }
    return metrics;
  }

  /** Failed logins by reason and lockouts. */
  login(): LoginMetrics {
    this.loginMetrics ??= new LoginMetrics(this.registry);
    return this.loginMetrics;
  }

  /** Reports a connection pool's use on every scrape through `sample` (which may return undefined while there is no pool). */
  dbPool(sample: () => PoolSample | undefined): void {
    if (this.registry.getSingleMetric('db_pool_connections')) throw new Error('dbPool is already registered');
    new Gauge({
      name: 'db_pool_connections',
      help: 'Database pool connections by state (in_use, idle).',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        const s = sample();
        this.reset();
        if (!s) return;
        this.set({ state: 'in_use' }, s.inUse);
        this.set({ state: 'idle' }, s.idle);
      },
    });
    new Gauge({
      name: 'db_pool_waiting_requests',
      help: 'Queries waiting for a free database connection.',
      registers: [this.registry],
      collect() {
        this.set(sample()?.waiting ?? 0);
      },
    });
  }
}

export class CacheMetrics {
  private readonly lookups: Counter<'result'>;
  private readonly errors: Counter<'operation' | 'reason'>;
  private readonly rejections: Counter<'operation'>;

  constructor(registry: Registry) {
    this.rejections = new Counter({
      name: 'cache_rejected_total',
      help: 'Cached values refused as not what the service writes (treated as misses, recomputed and overwritten), by operation.',
      labelNames: ['operation'],
      registers: [registry],
    });
    this.lookups = new Counter({
      name: 'cache_lookups_total',
      help: 'Cache lookups by result (hit, miss).',
      labelNames: ['result'],
      registers: [registry],
    });
    this.errors = new Counter({
      name: 'cache_errors_total',
      help: 'Failed operations of the cache backend (e.g. Redis unreachable, a Redis Cluster that cannot serve), by operation and reason.',
      labelNames: ['operation', 'reason'],
      registers: [registry],
    });
    // Both results exist from the start, so rates work before the first miss.
    this.lookups.inc({ result: 'hit' }, 0);
    this.lookups.inc({ result: 'miss' }, 0);
  }

  hit(): void {
    this.lookups.inc({ result: 'hit' });
  }

  miss(): void {
    this.lookups.inc({ result: 'miss' });
  }

  /** One failed operation; `reason` e.g. `clusterdown`, `redirections`, `timeout`, `connection`, `other`. */
  error(operation: string, reason = 'other'): void {
    this.errors.inc({ operation, reason });
  }

  /** A cached value that failed its check (docs/contract.md §13). */
  rejected(operation: string): void {
    this.rejections.inc({ operation });
  }
}

class UpstreamFamilies {
  readonly duration: Histogram<'upstream' | 'operation' | 'outcome'>;
  readonly errors: Counter<'upstream' | 'operation' | 'reason'>;
  readonly circuit: Gauge<'upstream'>;

  constructor(registry: Registry) {
    this.duration = new Histogram({
      name: 'upstream_request_duration_seconds',
      help: 'Upstream calls by upstream, operation and outcome (ok, error).',
      labelNames: ['upstream', 'operation', 'outcome'],
      buckets: UPSTREAM_BUCKETS,
      registers: [registry],
    });
    this.errors = new Counter({
      name: 'upstream_errors_total',
      help: 'Failed upstream calls by reason (timeout, http status, network error, circuit open).',
      labelNames: ['upstream', 'operation', 'reason'],
      registers: [registry],
    });
    this.circuit = new Gauge({
      name: 'upstream_circuit_state',
      help: 'Circuit breaker state per upstream: 0 closed, 1 half-open, 2 open.',
      labelNames: ['upstream'],
      registers: [registry],
    });
  }
}

export class UpstreamMetrics {
  constructor(
    readonly name: string,
    private readonly families: UpstreamFamilies,
  ) {
    families.circuit.set({ upstream: name }, CircuitState.closed);
  }

  /** Records one finished call. */
  observe(operation: string, seconds: number, outcome: 'ok' | 'error'): void {
    this.families.duration.observe({ upstream: this.name, operation, outcome }, seconds);
  }

  error(operation: string, reason: string): void {
    this.families.errors.inc({ upstream: this.name, operation, reason });
  }

  /** Runs `call`, recording its duration, and its failure reason (`reasonOf(err)`, default the error's name). */
  async time<T>(operation: string, call: () => Promise<T>, reasonOf: (err: unknown) => string = defaultReason): Promise<T> {
    const start = process.hrtime.bigint();
    try {
      const result = await call();
      this.observe(operation, elapsedSeconds(start), 'ok');
      return result;
    } catch (err) {
      this.observe(operation, elapsedSeconds(start), 'error');
      this.error(operation, reasonOf(err));
      throw err;
    }
  }

  circuit(state: CircuitStateName): void {
    this.families.circuit.set({ upstream: this.name }, CircuitState[state]);
  }
}

export class LoginMetrics {
  private readonly failures: Counter<'reason'>;
  private readonly lockouts: Counter;

  constructor(registry: Registry) {
    this.failures = new Counter({
      name: 'login_failures_total',
      help: 'Refused logins by reason (bad_credentials, user_type, locked, undecryptable).',
      labelNames: ['reason'],
      registers: [registry],
    });
    this.lockouts = new Counter({
      name: 'login_lockouts_total',
      help: 'Login ids locked after too many failures.',
      registers: [registry],
    });
  }

  failure(reason: string): void {
    this.failures.inc({ reason });
  }

  lockout(): void {
    this.lockouts.inc();
  }
}

export function elapsedSeconds(start: bigint): number {
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function defaultReason(err: unknown): string {
  if (err instanceof Error) {
    const code = (err as { code?: unknown }).code;
    return typeof code === 'string' ? code : err.name;
  }
  return 'unknown';
}
