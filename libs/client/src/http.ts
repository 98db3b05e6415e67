import { ApiError } from './errors';

/** Which envelope an answer has: it tells success from failure and where the code is. */
export type Envelope = 'account' | 'location';

/**
 * An answer body as received: the operation's typed fields, and whatever else a failure carries
 * (a failure has the envelope and, for lists, `count` and an empty list).
 */
export type AnswerBody<T> = T & Record<string, unknown>;

/** An answer as received: status, parsed body and headers. `ok()` returns the body of a success or throws `ApiError`. */
export class ApiResponse<T> {
  constructor(
    readonly status: number,
    readonly body: AnswerBody<T>,
    readonly headers: Headers,
    private readonly envelope?: Envelope,
  ) {}

  /** The body of a success (`90000` / `000`); otherwise throws an `ApiError` with status, code and message. */
  ok(): T {
    const body = this.body as Record<string, unknown> | string | null;
    const fields = typeof body === 'object' && body !== null ? body : {};
    const code = String((this.envelope === 'location' ? fields.code : fields.response_code) ?? '');
    const success = this.envelope === 'location' ? code === '000' : code === '90000';
    if (success && this.status < 400) return this.body;
    const message = String((this.envelope === 'location' ? fields.resultDesc : fields.response_message) ?? (typeof body === 'string' ? body : ''));
    throw new ApiError(this.status, code, message, this.body);
  }
}

/** The same as `ApiResponse` (the name the workspace's tests use). */
export type ClientResponse<T> = ApiResponse<T>;

/** Transport settings shared by both clients. */
export interface TransportOptions {
  /** Extra attempts of a GET that failed on the network or with 502 / 503 / 504 (re-signed each time). Default 2. */
  retries?: number;
  /** Wait before the first retry, doubled for each next one. Default 200 ms. */
  retryDelayMs?: number;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface SendOptions {
  multipart?: boolean;
  /** Send the fields as a JSON object of strings (CONTRACT §13) instead of a form. */
  json?: boolean;
  headers?: Record<string, string>;
  envelope?: Envelope;
  fetch?: typeof fetch;
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

/** Sends fields as a query string (GET) or as a urlencoded / multipart form (other methods). */
export async function send<T>(method: string, url: string, fields: Record<string, string>, options: SendOptions = {}): Promise<ApiResponse<T>> {
  let body: URLSearchParams | FormData | string | undefined;
  let headers = options.headers;
  let target = url;
  if (method === 'GET' || method === 'HEAD') {
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
  const res = await (options.fetch ?? fetch)(target, { method, body, headers });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: keep the text, the caller asserts on it
  }
  for (const observer of observers) observer({ method, url: target, status: res.status, headers: res.headers, body: parsed });
  return new ApiResponse<T>(res.status, parsed as AnswerBody<T>, res.headers, options.envelope);
}

const RETRIED_STATUS = new Set([502, 503, 504]);

/**
 * Runs `attempt` (which signs and sends one request) and, for an idempotent GET only, runs it
 * again after a network error or a 502 / 503 / 504, waiting `retryDelayMs`, then twice that, ….
 */
export async function withRetries<T>(method: string, options: TransportOptions, attempt: () => Promise<ApiResponse<T>>): Promise<ApiResponse<T>> {
  const retries = method === 'GET' ? (options.retries ?? 2) : 0;
  let delay = options.retryDelayMs ?? 200;
  for (let n = 0; ; n++) {
    try {
      const res = await attempt();
      if (n >= retries || !RETRIED_STATUS.has(res.status)) return res;
    } catch (err) {
      // fetch's network failures are TypeErrors (by name: they may come from another realm)
      if (n >= retries || (err as { name?: unknown } | null)?.name !== 'TypeError') throw err;
    }
    await new Promise((resolve) => setTimeout(resolve, delay));
    delay *= 2;
  }
}
