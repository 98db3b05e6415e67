import { ApiException, InvalidParameterException } from '@geoaccount/api';
import { refuseQueryOfWrite, requestFields, signedParams, withSigningHeaders } from './account-signature.guard';
import type { SignedRequest } from './caller-app';

/** A request as the guard sees it. */
function request(parts: { method?: string; query?: object; body?: object; params?: object; headers?: object }): SignedRequest {
  return { method: 'GET', query: {}, params: {}, headers: {}, ...parts } as unknown as SignedRequest;
}

describe('the signed parameters of a request (docs/contract.md §2)', () => {
  it('takes the query of a read and the body of a write', () => {
    expect(requestFields(request({ query: { a: '1' }, body: { b: '2' } }))).toEqual({ a: '1' });
    expect(requestFields(request({ method: 'POST', query: {}, body: { b: '2' } }))).toEqual({ b: '2' });
    expect(requestFields(request({ method: 'PUT', body: undefined }))).toEqual({});
  });

  it('puts the signing headers in the places of their fields', () => {
    const req = request({ headers: { 'x-app-token': 'app-1', 'x-timestamp': '10', 'x-nonce': 'n', 'x-signature': 'ab' } });
    const fields = withSigningHeaders(req, { auth_ids: 'A' });
    expect(fields).toEqual({ auth_ids: 'A', app_token: 'app-1', timestamp: '10', nonce: 'n', signature: 'ab' });
    // The plaintext is the same as with the fields: app_token and signature are not parameters.
    expect(signedParams(req, fields)).toEqual({ auth_ids: 'A', timestamp: '10', nonce: 'n' });
  });

  it.each(['app_token', 'timestamp', 'nonce', 'signature'])('refuses %s both as a header and as a field', (field) => {
    const header = `x-${field.replace('_', '-')}`;
    const req = request({ headers: { [header]: 'v' } });
    expect(() => withSigningHeaders(req, { [field]: 'v' })).toThrow(new InvalidParameterException(field, 'header and field'));
  });

  it('signs the user header as the parameter user, and refuses it twice', () => {
    const req = request({ params: { auth_id: 'A' }, headers: { user: 'ops-1' } });
    expect(signedParams(req, { timestamp: '1' })).toEqual({ auth_id: 'A', timestamp: '1', user: 'ops-1' });
    expect(() => signedParams(req, { user: 'ops-1' })).toThrow(new InvalidParameterException('user', 'header and field'));
    expect(signedParams(request({}), { timestamp: '1' })).toEqual({ timestamp: '1' });
  });

  it('refuses a path id repeated with another value, and a repeated field', () => {
    const req = request({ params: { auth_id: 'A' } });
    expect(() => signedParams(req, { auth_id: 'B' })).toThrow(new InvalidParameterException('auth_id', 'conflicting'));
    expect(() => signedParams(req, { x: ['1', '2'] })).toThrow(new InvalidParameterException('x', 'repeated'));
  });

  it('refuses a write with parameters in its query string, naming them', () => {
    expect(() => refuseQueryOfWrite(request({ method: 'POST', query: { a: '1', b: '2' } }))).toThrow(ApiException);
    expect(() => refuseQueryOfWrite(request({ method: 'PUT', query: { a: '1' } }))).toThrow('query parameter a');
    expect(() => refuseQueryOfWrite(request({ method: 'POST', query: {} }))).not.toThrow();
    expect(() => refuseQueryOfWrite(request({ method: 'GET', query: { a: '1' } }))).not.toThrow();
  });
});
