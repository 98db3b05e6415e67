import { type Context, context, trace } from '@opentelemetry/api';
import type { Instrumentation } from '@opentelemetry/instrumentation';

type Patch = (original: (...args: unknown[]) => unknown) => (...args: unknown[]) => unknown;
type Wrap = (nodule: object, name: string, wrapper: Patch) => unknown;

/**
 * An instrumentation whose patched functions run their tracing only when the active span records:
 * under a request left out by the sampler (its span the API's non-recording one), the original
 * function is called and nothing else. For clients that pass nothing downstream (Redis, not
 * `http`, whose headers carry the trace even when it is not sampled): there, the child of a span
 * that does not record is not recorded either under every sampler the services accept (the
 * parent-based ones follow the parent; a ratio decides on the trace id, the parent's), so the
 * spans skipped are spans that would have been dropped.
 *
 * Why (docs/performance.md, "The fifth round"): ioredis's instrumentation, before it asks the
 * sampler, builds each command's attributes and statement text, starts a span and wraps the
 * command's `resolve` and `reject` in closures; on the cached lbsQuery that is every request of a
 * 10%-sampled process. With no active span the instrumentation's own `requireParentSpan` decides,
 * as before.
 *
 * Works through `_wrap`, the instrumentation base's wrapping step (a protected property), replaced
 * before the instrumentation patches anything: call it on a new instrumentation, before the
 * module it patches is loaded. `active` reads the active context (the services pass their context
 * manager's own `active`, which skips the API's lookup of its global).
 */
export function recordingOnly<T extends Instrumentation>(instrumentation: T, active: () => Context = () => context.active()): T {
  const self = instrumentation as unknown as { _wrap: Wrap };
  const wrap = self._wrap;
  self._wrap = (nodule, name, patch) =>
    wrap(nodule, name, (original) => {
      const traced = patch(original);
      // `arguments` passed on as they are: no array made per call (a Redis command each).
      return function (this: unknown): unknown {
        const span = trace.getSpan(active());
        const run = span !== undefined && !span.isRecording() ? original : traced;
        // eslint-disable-next-line prefer-rest-params
        return run.apply(this, arguments as unknown as unknown[]);
      };
    });
  return instrumentation;
}
