import { type Context, type ContextManagementToken, ROOT_CONTEXT } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { requestContext } from './request-context';

/**
 * OpenTelemetry's active context kept in the request's store (`requestContext`, request-context.ts)
 * instead of an `AsyncLocalStorage` of its own: the request observer enters one store with the
 * request id and the server span's context, and a traced request's continuations carry one
 * store as an untraced one's do (before: two stores entered per request, two in every
 * continuation's context frame; docs/performance.md). `bind` (functions, event emitters) is
 * OpenTelemetry's, on top of `with`.
 */
export class RequestContextManager extends AsyncLocalStorageContextManager {
  override active(): Context {
    return requestContext.getStore()?.trace ?? ROOT_CONTEXT;
  }

  override with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    active: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    const cb = thisArg == null ? fn : (fn.bind(thisArg) as F);
    return requestContext.run({ requestId: requestContext.getStore()?.requestId, trace: active }, cb, ...args);
  }

  override attach(active: Context): ContextManagementToken {
    const previous = requestContext.getStore();
    requestContext.enterWith({ requestId: previous?.requestId, trace: active });
    let disposed = false;
    return {
      dispose(): void {
        if (disposed) return;
        disposed = true;
        if (previous) requestContext.enterWith(previous);
        else requestContext.enterWith({ requestId: undefined, trace: undefined });
      },
    };
  }

  override disable(): this {
    return this;
  }
}
