/**
 * The store of the request being handled (its id for the log lines, and its trace context when
 * tracing is on), in a file of its own that imports nothing of the library's: `logging.ts`,
 * `http-observer.ts` and the tracing side all read it.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context } from '@opentelemetry/api';

/**
 * What every log line written while handling a request carries, and, when tracing is on, the
 * request's OpenTelemetry context (its active span): one store for both, so that a traced
 * request runs in one `AsyncLocalStorage` as an untraced one does (`tracing-sdk.ts`).
 */
export interface RequestContext {
  readonly requestId: string | undefined;
  readonly trace?: Context;
}

/** The request being handled, across `await`s (set by `httpObserver`). */
export const requestContext = new AsyncLocalStorage<RequestContext>();

/** The id of the request being handled, if any. */
export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
