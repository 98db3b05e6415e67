/** Where and how location reaches the account service's internal API (docs/contract.md §14). */
export interface InternalApiOptions {
  /** The account service's base URL (`APPS_URL`). */
  baseUrl: string;
  /** `INTERNAL_TOKEN`. */
  token: string;
  /** Time allowed for one call. */
  timeoutMs: number;
}

/** A call that failed: the service down, too slow, or an HTTP error status. Names no secret. */
export class InternalApiError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'InternalApiError';
  }
}

/** Largest answer read (a few thousand apps fit many times over). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

function urlOf(options: InternalApiOptions, path: string): string {
  return withoutTrailingSlashes(options.baseUrl) + path;
}

/**
 * One call to the internal API with the bearer token, within the timeout; resolves to the
 * JSON answer of a 2xx status, rejects with an `InternalApiError` otherwise.
 */
export async function callInternalApi(options: InternalApiOptions, method: 'GET' | 'POST', path: string, body?: unknown): Promise<unknown> {
  const signal = AbortSignal.timeout(options.timeoutMs);
  let response: Response;
  try {
    response = await fetch(urlOf(options, path), {
      method,
      signal,
      headers: {
        authorization: `Bearer ${options.token}`,
        accept: 'application/json',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    const reason = signal.aborted
      ? `no answer within ${options.timeoutMs} ms`
      : (((err as Error).cause as Error | undefined)?.message ?? (err as Error).message);
    throw new InternalApiError(`${method} ${path}: ${reason}`);
  }
  let text: string;
  try {
    text = await response.text();
  } catch {
    throw new InternalApiError(`${method} ${path}: ${signal.aborted ? `no answer within ${options.timeoutMs} ms` : 'answer cut off'}`);
  }
  if (!response.ok) throw new InternalApiError(`${method} ${path}: HTTP ${response.status}`);
  if (text.length > MAX_ANSWER_BYTES) throw new InternalApiError(`${method} ${path}: answer larger than ${MAX_ANSWER_BYTES} bytes`);
  if (text === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new InternalApiError(`${method} ${path}: answer is not JSON`);
  }
}

/** `url` without its trailing slashes (a loop: no pattern to backtrack over a long run of them). */
function withoutTrailingSlashes(url: string): string {
  let end = url.length;
  while (end > 0 && url.charCodeAt(end - 1) === 0x2f) end--;
  return url.slice(0, end);
}
