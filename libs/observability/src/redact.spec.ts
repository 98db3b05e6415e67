import { MAX_LOGGED_TEXT, MAX_LOGGED_URL, REDACTED, isSensitiveKey, redactDeep, redactText, redactUrl, redactWholeText } from './redact';

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

  it('masks the same pairs as before with the scanner', () => {
    expect(redactText('a=1&user_pwd=x=y;sig=zz other')).toBe(`a=1&user_pwd=${REDACTED};sig=${REDACTED} other`);
    expect(redactText("{'secret': 'a b', \"user_name\": \"bo\\\"b\", key: k1, nested: {\"pwd\":\"p\"}}")).toBe(
      `{'secret': "${REDACTED}", "user_name": "bo\\"b", key: "${REDACTED}", nested: {"pwd":"${REDACTED}"}}`,
    );
    expect(redactText('"signature" :  "unterminated')).toBe(`"signature" :  "${REDACTED}"`);
    expect(redactText('redis://:pa:ss@h:6379 and https://u:p@x/y?z, x://u@h')).toBe(
      `redis://:${REDACTED}@h:6379 and https://u:${REDACTED}@x/y?z, x://u@h`,
    );
    expect(redactText('no pairs: a= b :c ://x')).toBe('no pairs: a= b :c ://x');
  });

  // Shapes that made the former patterns retry a long run of name characters from each of its
  // starts (quadratic work): a run after `=` or `:` with no separator after it, a scheme-like
  // run before `:/`, an unclosed quote.
  const shapes: Record<string, (n: number) => string> = {
    'after =': (n) => `/x/=${'a'.repeat(n)}`,
    'after :': (n) => `/x/:${'a'.repeat(n)}`,
    'scheme run': (n) => `/${'a'.repeat(n)}:/x://`,
    'quote run': (n) => `/"${'a.'.repeat(n / 2)}"`,
    'pairs': (n) => `/${'a=&'.repeat(n / 3)}`,
    'colons': (n) => `/${'a :'.repeat(n / 3)}`,
    'spaces': (n) => `/a${' '.repeat(n)}`,
  };

  function millis(fn: () => void): number {
    let best = Infinity;
    for (let i = 0; i < 3; i += 1) {
      const start = performance.now();
      fn();
      best = Math.min(best, performance.now() - start);
    }
    return best;
  }

  it.each(Object.keys(shapes))('redacts a long adversarial URL (%s) with work that does not grow with its length', (shape) => {
    const make = shapes[shape];
    const small = make(8_000);
    const large = make(32_000);
    const tSmall = millis(() => redactUrl(small) + redactText(small));
    const tLarge = millis(() => redactUrl(large) + redactText(large));
    console.log(`${shape}: ${small.length} chars ${tSmall.toFixed(2)} ms, ${large.length} chars ${tLarge.toFixed(2)} ms`);
    // Quadratic work would take 16 times as long; the bound makes it about the same.
    expect(tLarge).toBeLessThan(8 * tSmall + 50);
  });

  it.each(Object.keys(shapes))('bounds what is logged of a 200,000-character URL (%s)', (shape) => {
    const url = shapes[shape](200_000);
    const logged = redactUrl(url);
    expect(logged.length).toBeLessThanOrEqual(MAX_LOGGED_URL + 40);
    expect(logged).toContain('more characters]');
    expect(redactText(url).length).toBeLessThanOrEqual(MAX_LOGGED_TEXT + 40);
    expect(redactUrl(`/lbs?${url}`).length).toBeLessThanOrEqual(MAX_LOGGED_URL + 40);
  });

  it.each(Object.keys(shapes))('scans without a bound in linear time (%s)', (shape) => {
    const make = shapes[shape];
    const small = make(250_000);
    const large = make(1_000_000);
    const tSmall = millis(() => redactWholeText(small));
    const tLarge = millis(() => redactWholeText(large));
    console.log(`${shape} unbounded: ${small.length} chars ${tSmall.toFixed(2)} ms, ${large.length} chars ${tLarge.toFixed(2)} ms`);
    // Linear: about 4 times; quadratic: 16 times.
    expect(tLarge).toBeLessThan(10 * tSmall + 50);
  });

  it('masks every query value when asked (location: coordinates and addresses)', () => {
    expect(redactUrl('/lbsapi/api/lbsQuery?userToken=app-1&param.lon=116.4&param.lat=39.9&signature=ff', { maskQueryValues: true })).toBe(
      `/lbsapi/api/lbsQuery?userToken=${REDACTED}&param.lon=${REDACTED}&param.lat=${REDACTED}`,
    );
  });
});

