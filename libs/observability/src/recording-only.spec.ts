import { ROOT_CONTEXT, TraceFlags, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { recordingOnly } from './recording-only';
import { RecordingTracerProvider, SpanSampler } from './tracing-recorder';

const contextManager = new AsyncLocalStorageContextManager();
beforeAll(() => context.setGlobalContextManager(contextManager.enable()));
afterAll(() => context.disable());

describe('recordingOnly', () => {
  /** A client's method patched through the instrumentation's `_wrap`, the patch noting each call. */
  function patchedClient() {
    const instrumentation = recordingOnly(new IORedisInstrumentation({ enabled: false }));
    const calls: string[] = [];
    const client = {
      send(this: { name: string }, command: string): string {
        calls.push(`original ${this.name} ${command}`);
        return `sent ${command}`;
      },
      name: 'client-1',
    };
    const wrap = (instrumentation as unknown as { _wrap: (o: object, n: string, p: (f: (...a: unknown[]) => unknown) => unknown) => void })
      ._wrap;
    wrap(
      client,
      'send',
      (original) =>
        function (this: unknown, ...args: unknown[]) {
          calls.push('traced');
          return original.apply(this, args);
        },
    );
    return { client, calls };
  }

  const tracer = new RecordingTracerProvider(resourceFromAttributes({}), new SpanSampler({ kind: 'always_on' }), {
    onStart: () => undefined,
    onEnd: () => undefined,
    forceFlush: () => Promise.resolve(),
    shutdown: () => Promise.resolve(),
  }).getTracer('test');

  it('runs the patch under a recording span, and with no span at all (the instrumentation decides then)', () => {
    const { client, calls } = patchedClient();
    const recording = tracer.startSpan('request');
    expect(recording.isRecording()).toBe(true);
    expect(context.with(trace.setSpan(ROOT_CONTEXT, recording), () => client.send('GET a'))).toBe('sent GET a');
    expect(client.send('GET b')).toBe('sent GET b');
    expect(calls).toEqual(['traced', 'original client-1 GET a', 'traced', 'original client-1 GET b']);
  });

  it('calls the original alone, with its receiver and arguments, under a span that does not record', () => {
    const { client, calls } = patchedClient();
    const unsampled = trace.wrapSpanContext({ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), traceFlags: TraceFlags.NONE });
    expect(context.with(trace.setSpan(ROOT_CONTEXT, unsampled), () => client.send('GET c'))).toBe('sent GET c');
    expect(calls).toEqual(['original client-1 GET c']);
  });
});
