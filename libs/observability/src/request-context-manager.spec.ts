import { EventEmitter } from 'node:events';
import { ROOT_CONTEXT, createContextKey } from '@opentelemetry/api';
import { currentRequestId, requestContext } from './request-context';
import { RequestContextManager } from './request-context-manager';

const KEY = createContextKey('test');
const manager = new RequestContextManager().enable();
const traceOf = () => manager.active().getValue(KEY);

describe('RequestContextManager (the trace context in the request store)', () => {
  it('is the root context outside any request and any `with`', () => {
    expect(manager.active()).toBe(ROOT_CONTEXT);
    expect(currentRequestId()).toBeUndefined();
  });

  it('makes a context active within `with`, across awaits, and keeps the request id of the store it runs in', async () => {
    const seen = await requestContext.run({ requestId: 'req-1', trace: ROOT_CONTEXT.setValue(KEY, 'server') }, async () => {
      const before = traceOf();
      const inner = await manager.with(ROOT_CONTEXT.setValue(KEY, 'client'), async (a: number) => {
        await new Promise((resolve) => setImmediate(resolve));
        return { trace: traceOf(), requestId: currentRequestId(), a };
      }, undefined, 7);
      return { before, inner, after: traceOf(), requestId: currentRequestId() };
    });
    expect(seen).toEqual({ before: 'server', inner: { trace: 'client', requestId: 'req-1', a: 7 }, after: 'server', requestId: 'req-1' });
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('calls with the given `this`', () => {
    const target = { name: 'it', read(this: { name: string }) { return this.name; } };
    expect(manager.with(ROOT_CONTEXT, target.read, target)).toBe('it');
  });

  it('runs a bound function and an event emitter listener in the bound context, in the request they are called from', () => {
    const bound = manager.bind(ROOT_CONTEXT.setValue(KEY, 'bound'), () => ({ trace: traceOf(), requestId: currentRequestId() }));
    expect(requestContext.run({ requestId: 'req-2', trace: undefined }, bound)).toEqual({ trace: 'bound', requestId: 'req-2' });

    const emitter = manager.bind(ROOT_CONTEXT.setValue(KEY, 'emitter'), new EventEmitter());
    const heard: unknown[] = [];
    emitter.on('x', () => heard.push(traceOf()));
    requestContext.run({ requestId: 'req-3', trace: ROOT_CONTEXT.setValue(KEY, 'other') }, () => emitter.emit('x'));
    expect(heard).toEqual(['emitter']);
  });

  it('attaches a context until the token is disposed (twice is once)', () => {
    requestContext.run({ requestId: 'req-4', trace: ROOT_CONTEXT.setValue(KEY, 'server') }, () => {
      const token = manager.attach(ROOT_CONTEXT.setValue(KEY, 'attached'));
      expect(traceOf()).toBe('attached');
      expect(currentRequestId()).toBe('req-4');
      token.dispose();
      expect(traceOf()).toBe('server');
      manager.attach(ROOT_CONTEXT.setValue(KEY, 'again'));
      token.dispose();
      expect(traceOf()).toBe('again');
    });
  });
});
