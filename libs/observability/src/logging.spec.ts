import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DEMO_APP } from '@geoaccount/signing';
import { type Fixture, createFixtureApp, signedFields } from '../test/fixture-app';

/** Values that must never appear in a log line. */
const SECRETS = {
  user_pwd: 'Pw-hunter2-plain',
  user_pwd_encrypt: 'QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQQ==',
  cert_id: '110101199001011234',
  cert_id_encrypt: 'Q0VSVC1FTkNSWVBURUQ=',
  user_mobile: '13800138000',
  user_mobile_encrypt: 'TU9CSUxFLUVOQ1JZUFRFRA==',
};

describe('JSON logs', () => {
  let fixture: Fixture;
  let app: INestApplication;
  beforeAll(async () => {
    fixture = await createFixtureApp();
    app = fixture.app;
  });
  afterAll(() => app.close());

  it('never write a password, signature, secret, id number or mobile of a request sequence', async () => {
    const http = request(app.getHttpServer());
    const created = signedFields('POST', '/things', { user_login_id: 'bob', ...SECRETS });
    const signatures = [created.signature];

    // success, with a handler that logs its whole DTO
    const ok = await http.post('/things').type('form').send(created);
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ response_code: '90000', response_message: 'success', user_login_id: 'bob' });

    // the same fields in a query string, with a bad signature (401 from the guard)
    const query = { ...SECRETS, app_token: DEMO_APP.appToken, timestamp: created.timestamp, signature: 'f'.repeat(64) };
    signatures.push(query.signature);
    const denied = await http
      .get('/things/t1')
      .query(query)
      .set('Authorization', `Bearer ${DEMO_APP.secret}`)
      .set('Cookie', `session=${DEMO_APP.secret}`);
    expect(denied.status).toBe(401);
    expect(denied.body).toEqual({ response_code: '90401', response_message: 'bad signature' });

    // an unexpected failure whose message quotes the secrets (500 path of the filter)
    const failing = signedFields('POST', '/things/fail', { user_login_id: 'bob', ...SECRETS });
    signatures.push(failing.signature);
    const failed = await http.post('/things/fail').type('form').send(failing);
    expect(failed.status).toBe(500);
    expect(failed.body).toEqual({ response_code: '90099', response_message: 'system exception' });

    // multipart body
    const multipart = signedFields('POST', '/things', { user_login_id: 'carol', ...SECRETS });
    signatures.push(multipart.signature);
    let req = http.post('/things');
    for (const [name, value] of Object.entries(multipart)) req = req.field(name, value);
    expect((await req).status).toBe(201);

    const text = fixture.text();
    const lines = fixture.lines();
    // the sequence was really logged: one line per request, the handler's line and the failure
    expect(lines.filter((l) => l.msg === 'creating bob')).toHaveLength(1);
    expect(lines.some((l) => typeof l.msg === 'string' && l.msg.startsWith('unexpected failure'))).toBe(true);
    expect(lines.filter((l) => (l.req as { url?: string } | undefined)?.url?.startsWith('/things'))).toHaveLength(4);
    const creating = lines.find((l) => l.msg === 'creating bob') as { dto: Record<string, string> };
    expect(creating.dto.user_login_id).toBe('bob');
    expect(creating.dto.user_pwd).toBe('[REDACTED]');

    for (const value of [...Object.values(SECRETS), ...signatures, DEMO_APP.secret, DEMO_APP.aesKey]) {
      expect(text).not.toContain(value);
    }
  });

  it('use the caller X-Request-Id, echo it, and put it on every line of the request', async () => {
    const res = await request(app.getHttpServer()).get('/open/slow').set('X-Request-Id', 'trace-abc.123');
    expect(res.status).toBe(200);
    expect(res.headers['x-request-id']).toBe('trace-abc.123');
    const line = fixture.lines().find((l) => l.requestId === 'trace-abc.123');
    expect(line).toMatchObject({ level: 30, service: 'fixture', msg: 'GET /open/slow 200 ' + String(line?.msg).split(' ')[3] });
    expect(line?.req).toMatchObject({ method: 'GET', url: '/open/slow' });
    expect(line?.res).toEqual({ statusCode: 200 });
  });

  it('replace a missing or unsafe request id with a fresh UUID', async () => {
    const none = await request(app.getHttpServer()).get('/open/slow');
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const unsafe = await request(app.getHttpServer()).get('/open/slow').set('X-Request-Id', 'a b{"x":1}');
    expect(unsafe.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    // also on answers of the exception filter
    const missing = await request(app.getHttpServer()).get('/nowhere');
    expect(missing.status).toBe(404);
    expect(missing.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(fixture.lines().find((l) => l.requestId === missing.headers['x-request-id'])).toMatchObject({ level: 40 });
  });

  it("keep Nest's start-up chatter out of info", () => {
    const contexts = fixture.lines().map((l) => l.context);
    expect(contexts).toContain('NestApplication');
    expect(contexts).not.toContain('RouterExplorer');
    expect(contexts).not.toContain('InstanceLoader');
  });

  it('keep probes and scrapes out of the request log', async () => {
    const before = fixture.lines().length;
    expect((await request(app.getHttpServer()).get('/metrics')).status).toBe(200);
    expect(fixture.lines().length).toBe(before);
  });
});

describe('LOG_LEVEL', () => {
  it('drops lines below the level', async () => {
    const fixture = await createFixtureApp({ logLevel: 'warn' });
    try {
      await request(fixture.app.getHttpServer()).get('/open/slow');
      await request(fixture.app.getHttpServer()).get('/nowhere');
      const levels = fixture.lines().map((l) => l.level);
      // pino's numeric levels: 40 warn, 30 info
      expect(levels).toContain(40);
      expect(levels).not.toContain(30);
    } finally {
      await fixture.app.close();
    }
  });
});

describe('quiet paths', () => {
  it('keep successful requests out of the access log and log their failures', async () => {
    const fixture = await createFixtureApp({ quietPaths: ['/open/'] });
    try {
      const http = request(fixture.app.getHttpServer());
      expect((await http.get('/open/slow')).status).toBe(200);
      expect((await http.get('/metrics')).status).toBe(200);
      expect((await http.get('/open/none')).status).toBe(404);
      expect((await http.get('/things/t1')).status).toBe(401);
      const access = fixture.lines().filter((l) => l.req !== undefined);
      expect(access.map((l) => [l.level, (l.req as { url: string }).url, (l.res as { statusCode: number }).statusCode])).toEqual([
        [40, '/open/none', 404],
        [40, '/things/t1', 401],
      ]);
    } finally {
      await fixture.app.close();
    }
  });
});
