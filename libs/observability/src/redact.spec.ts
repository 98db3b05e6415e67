import { REDACTED, isSensitiveKey, redactDeep, redactText, redactUrl } from './redact';

describe('redaction', () => {
  it.each([
    'user_pwd',
    'user_pwd_encrypt',
    'signature',
    'secret',
    'APP_SECRET',
    'aesKey',
    'hmacKey',
    'cert_id',
    'cert_id_encrypt',
    'user_mobile',
    'user_mobile_encrypt',
    'password',
    'dbPassword',
    'authorization',
    'Cookie',
    'key',
    'sig',
  ])('treats %s as sensitive', (name) => {
    expect(isSensitiveKey(name)).toBe(true);
  });

  it.each(['user_login_id', 'user_name', 'app_token', 'userToken', 'auth_id', 'param.merId', 'code', 'cert_type'])('keeps %s', (name) => {
    expect(isSensitiveKey(name)).toBe(false);
  });

  it('drops sensitive query parameters and keeps the others', () => {
    expect(redactUrl('/account/v1.0.1/users?app_token=app-1&user_pwd=hunter2&signature=abc&user_mobile_encrypt=x%2By&page_size=20')).toBe(
      '/account/v1.0.1/users?app_token=app-1&page_size=20',
    );
    // a percent-encoded name is judged by its decoded form
    expect(redactUrl('/x?user%5Fpwd=hunter2')).toBe('/x');
    expect(redactUrl('/lbsapi/api/lbsQuery?userToken=app-1&signature=ff&param.lon=116.4')).toBe(
      '/lbsapi/api/lbsQuery?userToken=app-1&param.lon=116.4',
    );
    expect(redactUrl('/health/live')).toBe('/health/live');
  });

  it('masks pairs, JSON fields and URL passwords inside free text', () => {
    const text = redactText(
      'failed: user_pwd=hunter2&cert_id=110101199001011234 {"user_mobile":"13800138000","user_name":"bob"} postgres://app:s3cret@db:5432/x key=amapkey',
    );
    for (const secret of ['hunter2', '110101199001011234', '13800138000', 's3cret', 'amapkey']) expect(text).not.toContain(secret);
    expect(text).toContain('"user_name":"bob"');
    expect(text).toContain('postgres://app:[REDACTED]@db:5432/x');
  });

  it('masks fields at any depth, in arrays and in errors', () => {
    const err = Object.assign(new Error('login for user_pwd_encrypt=QUJD failed'), { code: 'E1', parameters: ['$argon2id$hash'] });
    const out = redactDeep({
      dto: { user_login_id: 'bob', user_pwd: 'hunter2', nested: [{ signature: 'ff00' }, { cert_id: 'X1' }] },
      app: { appToken: 'app-1', hmacKey: { secretish: true }, aesKey: Buffer.from('k') },
      err,
    }) as Record<string, Record<string, unknown>>;
    expect(out.dto).toEqual({ user_login_id: 'bob', user_pwd: REDACTED, nested: [{ signature: REDACTED }, { cert_id: REDACTED }] });
    expect(out.app).toEqual({ appToken: 'app-1', hmacKey: REDACTED, aesKey: REDACTED });
    expect(out.err).toMatchObject({ type: 'Error', code: 'E1', message: `login for user_pwd_encrypt=${REDACTED} failed` });
    expect(JSON.stringify(out)).not.toContain('argon2id');
    expect(JSON.stringify(out)).not.toContain('QUJD');
  });

  it('survives cycles and keeps empty values visible', () => {
    const a: Record<string, unknown> = { user_pwd: '' };
    a.self = a;
    expect(redactDeep(a)).toEqual({ user_pwd: '', self: '[Circular]' });
  });
});
