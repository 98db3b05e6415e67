import { ApiError, NetworkError } from './errors';

/** Which envelope an answer has: it tells success from failure and where the code is. */
export type Envelope = 'account' | 'location';

/**
 * An answer body as the workspace's tests read it: the operation's typed fields, and whatever
 * else a failure carries (a failure has the envelope and, for lists, `count` and an empty list).
 */
export type AnswerBody<T> = T & Record<string, unknown>;

/**
 * The "no data" codes of list queries (docs/contract.md §6: 200 with `count` "0" and an empty
 * array): `ok()` returns their body, the empty list, rather than throwing.
 */
export const NO_DATA_CODES: ReadonlySet<string> = new Set(['10201', '10611', '20201', '20511', '20701']);

type CodeField = 'response_code' | 'code' | 'lbsStat';
/**
 * Any answer of a call whose success is `T`, as far as its type is known without the
 * operation: the success's fields, each maybe absent (a failure has only the envelope, or
 * `count` and an empty list), and its code as any text.
 */
export type LooseAnswer<T> = Omit<Partial<T>, CodeField> & { [K in CodeField & keyof T]?: string } & Record<string, unknown>;

/**
 * An answer as received: status, parsed body and headers. `ok()` returns the body of a success
 * (or of an empty list) or throws `ApiError`. `T`: the success body; `B`: any body of the answer
 * (each client method names it exactly: the answers its operation has, with their codes;
 * `ApiResponse<T>` alone accepts the answer of any call whose success is `T`).
 */
export class ApiResponse<T, B = LooseAnswer<T>> {
  constructor(
    readonly status: number,
    readonly body: B,
    readonly headers: Headers,
    private readonly envelope?: Envelope,
  ) {}

  /** The body of a success (`90000` / `000`, or a "no data" list); otherwise throws an `ApiError` with status, code and message. */
  ok(): T {
    const body = this.body as Record<string, unknown> | string | null;
    const fields = typeof body === 'object' && body !== null ? body : {};
    const code = String((this.envelope === 'location' ? fields.code : fields.response_code) ?? '');
    const success = this.envelope === 'location' ? code === '000' : code === '90000' || (this.status === 200 && NO_DATA_CODES.has(code));
    if (success && this.status < 400) return this.body as unknown as T;
    const message = String((this.envelope === 'location' ? fields.resultDesc : fields.response_message) ?? (typeof body === 'string' ? body : ''));
    throw new ApiError(this.status, code, message, this.body);
  }
}

/** An answer whose body is typed as its success, plus whatever a failure carries (the workspace's tests). */
export type ClientResponse<T> = ApiResponse<T, AnswerBody<T>>;

/** Transport settings shared by both clients. */
export interface TransportOptions {
  /**
   * Extra attempts of a request that failed on the network or with 502 / 503 / 504 (GET only,
   * re-signed each time), or with 429 (any method: a rate-limited request was not served).
   * Default 2.
   */
  retries?: number;
  /** Wait before the first retry, doubled for each next one; a `Retry-After` of a 429 / 503 answer takes its place. Default 200 ms. */
  retryDelayMs?: number;
  /** The longest `Retry-After` honoured; a longer one is answered as it came. Default 30 000 ms. */
  maxRetryAfterMs?: number;
  /** Time allowed for one attempt, from sending to the whole answer; past it a `NetworkError` (cause `TimeoutError`). Default: none. */
  timeoutMs?: number;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Options of one call. */
export interface CallOptions {
  /** Aborts the call (and its retries); the call rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Time allowed for each attempt of this call (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

export interface SendOptions {
  multipart?: boolean;
  /** Send the fields as a JSON object of strings (docs/contract.md §13) instead of a form. */
  json?: boolean;
  /** Send this value as the JSON body instead of the fields (the admin API's typed bodies). */
  jsonBody?: unknown;
  headers?: Record<string, string>;
  envelope?: Envelope;
  fetch?: typeof fetch;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** One answer as the transport received it, for `observeResponses`. */
export interface ObservedResponse {
  method: string;
  url: string;
  status: number;
  headers: Headers;
  body: unknown;
}

const observers = new Set<(response: ObservedResponse) => void>();

/**
 * Calls `observer` with every answer `send` receives, before the caller sees it; an observer
 * that throws makes the request fail with its error (e.g. an answer that does not match the
 * API's schema in a test). Returns a function that removes the observer.
 */
export function observeResponses(observer: (response: ObservedResponse) => void): () => void {
  observers.add(observer);
  return () => observers.delete(observer);
}

/** The signal of one attempt: the caller's, and the attempt's timeout. */
function attemptSignal(options: SendOptions): AbortSignal | undefined {
  const signals = [options.signal, options.timeoutMs !== undefined ? AbortSignal.timeout(options.timeoutMs) : undefined].filter(
    (s): s is AbortSignal => s !== undefined,
  );
  return signals.length > 1 ? AbortSignal.any(signals) : signals[0];
}

/** Sends fields as a query string (GET) or as a urlencoded / multipart form (other methods). */
export async function send<T, B = AnswerBody<T>>(
  method: string,
  url: string,
  fields: Record<string, string>,
  options: SendOptions = {},
): Promise<ApiResponse<T, B>> {
  let body: URLSearchParams | FormData | string | undefined;
  let headers = options.headers;
  let target = url;
  if (options.jsonBody !== undefined) {
    body = JSON.stringify(options.jsonBody);
    headers = { 'Content-Type': 'application/json', ...headers };
  } else if (method === 'GET' || method === 'HEAD') {
    const qs = new URLSearchParams(fields).toString();
    if (qs) target += `?${qs}`;
  } else if (options.json) {
    body = JSON.stringify(fields);
    headers = { 'Content-Type': 'application/json', ...headers };
  } else if (options.multipart) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    body = form;
  } else {
    body = new URLSearchParams(fields);
  }
  const signal = attemptSignal(options);
  let res: Response;
  let text: string;
  try {
    res = await (options.fetch ?? fetch)(target, { method, body, headers, ...(signal ? { signal } : {}) });
    text = await res.text();
  } catch (err) {
    // The caller's own abort is the caller's: rethrown as it came.
    if (options.signal?.aborted) throw options.signal.reason;
    throw new NetworkError(method, target, err);
  }
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text, the caller asserts on it
  }
  for (const observer of observers) observer({ method, url: target, status: res.status, headers: res.headers, body: parsed });
  return new ApiResponse<T, B>(res.status, parsed as B, res.headers, options.envelope);
}

const RETRIED_STATUS = new Set([502, 503, 504]);

/** `Retry-After` in milliseconds (seconds or an HTTP date), or undefined. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs `attempt` (which signs and sends one request) again after a failure worth retrying: for
 * an idempotent GET a `NetworkError` or a 502 / 503 / 504; for any method a 429 (the request
 * was refused before it was served). The wait is `Retry-After` when a 429 / 503 carries one (up
 * to `maxRetryAfterMs`), else `retryDelayMs`, then twice that, ….
 */
export async function withRetries<T, B>(
  method: string,
  options: TransportOptions,
  attempt: () => Promise<ApiResponse<T, B>>,
  signal?: AbortSignal,
): Promise<ApiResponse<T, B>> {
  const retries = options.retries ?? 2;
  const idempotent = method === 'GET' || method === 'HEAD';
  let delay = options.retryDelayMs ?? 200;
  for (let n = 0; ; n++) {
    let wait = delay;
    try {
      const res = await attempt();
      const retried = res.status === 429 || (idempotent && RETRIED_STATUS.has(res.status));
      if (n >= retries || !retried) return res;
      const after = res.status === 429 || res.status === 503 ? retryAfterMs(res.headers) : undefined;
      if (after !== undefined) {
        if (after > (options.maxRetryAfterMs ?? 30_000)) return res;
        wait = after;
      }
    } catch (err) {
      if (n >= retries || !idempotent || !(err instanceof NetworkError)) throw err;
    }
    await sleep(wait, signal);
    delay *= 2;
  }
}
