import { CALLER_APP, callerKeyOf } from './caller-app';

describe('callerKeyOf', () => {
  it('keys by the verified app first', () => {
    const req = { [CALLER_APP]: { appToken: 'app-verified' }, query: { userToken: 'app-claimed' } };
    expect(callerKeyOf(req as never)).toBe('app-verified');
  });

  it('keys by the claimed app when no signature was verified', () => {
    expect(callerKeyOf({ query: { userToken: 'app-1' } } as never)).toBe('app-1');
    expect(callerKeyOf({ query: {}, body: { app_token: 'app-2' } } as never)).toBe('app-2');
    expect(callerKeyOf({ query: {}, headers: { 'x-app-token': 'app-3' } } as never)).toBe('app-3');
    expect(callerKeyOf({ query: { app_token: '' }, body: {} } as never)).toBeUndefined();
    expect(callerKeyOf({ query: {} } as never)).toBeUndefined();
  });
});
