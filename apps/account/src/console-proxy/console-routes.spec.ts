import { routeOf } from './console-routes';

describe('the routes the console may call through the proxy', () => {
  it.each([
    ['GET', '/account/v1.0.1/auths', {}],
    ['GET', '/account/v1.0.1/audit-events', {}],
    ['POST', '/account/v1.0.1/auths/A100', { auth_id: 'A100' }],
    ['PUT', '/account/v1.0.1/authgroups/G1', { group_id: 'G1' }],
    ['GET', '/account/v1.0.1/users/%E5%BC%A0%E4%B8%89', { user_login_id: '张三' }],
    ['POST', '/account/v1.0.1/users/login/alice', { user_login_id: 'alice' }],
    ['GET', '/account/v1.0.1/users/alice/auths', { user_login_id: 'alice' }],
    ['GET', '/account/v1.0.1/users/alice/auths/A1', { user_login_id: 'alice', auth_id: 'A1' }],
  ])('%s %s signs the path ids %j', (method, path, pathIds) => {
    expect(routeOf(method, path)).toEqual({ kind: 'account', method, path, pathIds });
  });

  it('takes the three location operations, GET only', () => {
    expect(routeOf('GET', '/lbsapi/api/lbsQuery')).toEqual({ kind: 'location', operation: 'lbsQuery' });
    expect(routeOf('POST', '/lbsapi/api/lbsQuery')).toBeUndefined();
    expect(routeOf('GET', '/lbsapi/api/toString')).toBeUndefined();
  });

  it.each([
    ['GET', '/admin/v1/apps'],
    ['GET', '/internal/v1/apps'],
    ['DELETE', '/account/v1.0.1/auths/A1'],
    ['POST', '/account/v1.0.1/auths'],
    ['GET', '/account/v1.0.1/users/login/alice'],
    ['GET', '/account/v1.0.1/users/a/b/c/d'],
    ['GET', '/account/v1.0.1/auths/%zz'],
    ['GET', '/account/v1.0.1/auths//x'],
    ['GET', '/account/v1.0.1/../../admin/v1/apps'],
    ['GET', '/account/v1.0.1/auths/..'],
    ['PUT', '/account/v1.0.1/users/%2E%2E'],
    ['GET', '/health/ready'],
  ])('refuses %s %s', (method, path) => {
    expect(routeOf(method, path)).toBeUndefined();
  });
});
