import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AdminClient } from './admin-client';
import { ApiError } from './errors';
import { main } from './cli';

interface Seen {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
}

/** A loopback stand-in for the admin API: answers from a script of (status, body, headers), recording each request. */
async function adminServer(answers: [number, unknown, Record<string, string>?][]) {
  const seen: Seen[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? (JSON.parse(text) as unknown) : undefined,
      });
      const [status, body, headers = {}] = answers[Math.min(seen.length - 1, answers.length - 1)]!;
      res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const OK = { response_code: '90000', response_message: 'success' };
const TOKEN = 'admin-token-0123456789abcdef-0123456789';
const APP = 'app-0123456789abcdef0123456789abcdef';

describe('AdminClient', () => {
  it('calls every admin route with the bearer token, JSON bodies and encoded path ids', async () => {
    const server = await adminServer([[200, OK]]);
    try {
      const admin = new AdminClient({ baseUrl: `${server.url}/`, token: TOKEN, retries: 0 });
      await admin.createApp({ app_name: 'Orders', aes_mode: 'ecb' });
      await admin.listApps();
      await admin.getApp(APP);
      await admin.modifyApp(APP, { app_name: 'Orders 2' });
      await admin.disableApp(APP);
      await admin.enableApp(APP);
      await admin.issueCredential(APP, { retire_others_in: 3600 });
      await admin.issueCredential(APP);
      await admin.revokeCredential(APP, 'cred/1');
      await admin.clearLockout(APP, '张三');
      await admin.createOperator({ login: 'ops@corp', role: 'app_admin', apps: [APP], password: 'a-long-password-1' });
      await admin.listOperators();
      await admin.getOperator('ops@corp');
      await admin.modifyOperator('ops@corp', { state: 'enabled' });
      await admin.auditEvents({ app_token: '', resource_type: 'credential', page_size: '10', operator: undefined });
      expect(server.seen.map((s) => [s.method, s.path, s.body])).toEqual([
        ['POST', '/admin/v1/apps', { app_name: 'Orders', aes_mode: 'ecb' }],
        ['GET', '/admin/v1/apps', undefined],
        ['GET', `/admin/v1/apps/${APP}`, undefined],
        ['PATCH', `/admin/v1/apps/${APP}`, { app_name: 'Orders 2' }],
        ['PATCH', `/admin/v1/apps/${APP}`, { state: 'disabled' }],
        ['PATCH', `/admin/v1/apps/${APP}`, { state: 'enabled' }],
        ['POST', `/admin/v1/apps/${APP}/credentials`, { retire_others_in: 3600 }],
        ['POST', `/admin/v1/apps/${APP}/credentials`, {}],
        ['DELETE', `/admin/v1/apps/${APP}/credentials/cred%2F1`, undefined],
        ['DELETE', `/admin/v1/apps/${APP}/lockouts/%E5%BC%A0%E4%B8%89`, undefined],
        ['POST', '/admin/v1/operators', { login: 'ops@corp', role: 'app_admin', apps: [APP], password: 'a-long-password-1' }],
        ['GET', '/admin/v1/operators', undefined],
        ['GET', '/admin/v1/operators/ops%40corp', undefined],
        ['PATCH', '/admin/v1/operators/ops%40corp', { state: 'enabled' }],
        ['GET', '/admin/v1/audit-events?app_token=&resource_type=credential&page_size=10', undefined],
      ]);
      for (const s of server.seen) {
        expect(s.headers.authorization).toBe(`Bearer ${TOKEN}`);
        expect(s.headers.cookie).toBeUndefined();
        expect(s.headers['x-csrf-token']).toBeUndefined();
        if (s.body !== undefined) expect(s.headers['content-type']).toBe('application/json');
      }
    } finally {
      await server.close();
    }
  });

  it('holds an operator session: the cookie on every call, the CSRF token on changes only, forgotten on close', async () => {
    const session = { ...OK, operator: 'alice', role: 'admin', apps: [] };
    const server = await adminServer([
      [201, session, { 'Set-Cookie': 'admin_session=s3ss10n; Path=/; HttpOnly; SameSite=Strict', 'X-CSRF-Token': 'csrf-1' }],
      [200, { ...OK, count: '0', app_list: [] }],
      [200, OK],
      [200, OK],
      [200, OK],
    ]);
    try {
      const admin = new AdminClient({ baseUrl: server.url });
      const opened = await admin.openSession('alice', 'a-long-password-1');
      expect(opened.ok()).toEqual(session);
      expect(admin.sessionState).toEqual({ cookie: 'admin_session=s3ss10n', csrfToken: 'csrf-1' });
      await admin.listApps();
      await admin.disableApp(APP);
      await admin.closeSession();
      await admin.listApps();
      const [signIn, list, change, close, after] = server.seen;
      expect(signIn!.body).toEqual({ login: 'alice', password: 'a-long-password-1' });
      expect(signIn!.headers.authorization).toBeUndefined();
      expect([list!.headers.cookie, list!.headers['x-csrf-token']]).toEqual(['admin_session=s3ss10n', undefined]);
      expect([change!.headers.cookie, change!.headers['x-csrf-token']]).toEqual(['admin_session=s3ss10n', 'csrf-1']);
      expect([close!.method, close!.path, close!.headers['x-csrf-token']]).toEqual(['DELETE', '/admin/v1/sessions/current', 'csrf-1']);
      expect([after!.headers.cookie, after!.headers['x-csrf-token']]).toEqual([undefined, undefined]);
    } finally {
      await server.close();
    }
  });

  it('keeps no session after a refused sign-in', async () => {
    const server = await adminServer([[401, { response_code: '90401', response_message: 'unauthorized' }]]);
    try {
      const admin = new AdminClient({ baseUrl: server.url });
      const res = await admin.openSession('alice', 'wrong-password-123');
      expect(res.status).toBe(401);
      expect(admin.sessionState).toEqual({});
    } finally {
      await server.close();
    }
  });

  it.each([
    [409, '30120', 'two credentials active'],
    [404, '30101', 'no such app'],
    [403, '90403', 'forbidden'],
    [401, '90401', 'unauthorized'],
  ])('throws an ApiError with status %i and code %s from ok()', async (status, code, message) => {
    const server = await adminServer([[status, { response_code: code, response_message: message }]]);
    try {
      const res = await new AdminClient({ baseUrl: server.url, token: TOKEN }).issueCredential(APP);
      expect(res.status).toBe(status);
      let error: unknown;
      try {
        res.ok();
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status, code, message });
    } finally {
      await server.close();
    }
  });
});

describe('cli admin', () => {
  async function run(argv: string[], env: Record<string, string>) {
    const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      const code = await main(argv, env);
      return { code, out: out.mock.calls.map((c) => String(c[0])).join(''), err: err.mock.calls.map((c) => String(c[0])).join('') };
    } finally {
      out.mockRestore();
      err.mockRestore();
    }
  }

  it('runs each command against ADMIN_URL with ADMIN_TOKEN', async () => {
    const server = await adminServer([[200, OK]]);
    try {
      const env = { ADMIN_URL: server.url, ADMIN_TOKEN: TOKEN };
      const commands: [string[], string, string, unknown][] = [
        [['create-app', 'Orders', 'aes_mode=ecb'], 'POST', '/admin/v1/apps', { app_name: 'Orders', aes_mode: 'ecb' }],
        [['create-app', 'Orders'], 'POST', '/admin/v1/apps', { app_name: 'Orders' }],
        [['list-apps'], 'GET', '/admin/v1/apps', undefined],
        [['get-app', APP], 'GET', `/admin/v1/apps/${APP}`, undefined],
        [['disable-app', APP], 'PATCH', `/admin/v1/apps/${APP}`, { state: 'disabled' }],
        [['enable-app', APP], 'PATCH', `/admin/v1/apps/${APP}`, { state: 'enabled' }],
        [['issue-credential', APP], 'POST', `/admin/v1/apps/${APP}/credentials`, {}],
        [['issue-credential', APP, 'retire_others_in=86400'], 'POST', `/admin/v1/apps/${APP}/credentials`, { retire_others_in: 86400 }],
        [['revoke-credential', APP, 'c-1'], 'DELETE', `/admin/v1/apps/${APP}/credentials/c-1`, undefined],
        [
          ['create-operator', 'ops', 'role=app_admin', `apps=${APP},app-01`, 'password=a-long-password-1'],
          'POST',
          '/admin/v1/operators',
          { login: 'ops', role: 'app_admin', apps: [APP, 'app-01'], password: 'a-long-password-1' },
        ],
        [
          ['create-operator', 'dir', 'role=auditor', 'directory=true'],
          'POST',
          '/admin/v1/operators',
          { login: 'dir', role: 'auditor', directory: true },
        ],
        [['list-operators'], 'GET', '/admin/v1/operators', undefined],
        [['modify-operator', 'ops', 'role=auditor'], 'PATCH', '/admin/v1/operators/ops', { role: 'auditor' }],
      ];
      for (const [argv, method, path, body] of commands) {
        const { code, out } = await run(['admin', ...argv], env);
        expect(code).toBe(0);
        expect(out).toContain('HTTP 200');
        const last = server.seen.at(-1)!;
        expect([last.method, last.path, last.body, last.headers.authorization]).toEqual([method, path, body, `Bearer ${TOKEN}`]);
      }
    } finally {
      await server.close();
    }
  });

  it('exits 1 on a refusal, printing the code', async () => {
    const server = await adminServer([[409, { response_code: '30120', response_message: 'two credentials active' }]]);
    try {
      const { code, out } = await run(['admin', 'issue-credential', APP], { ADMIN_URL: server.url, ADMIN_TOKEN: TOKEN });
      expect(code).toBe(1);
      expect(out).toContain('HTTP 409');
      expect(out).toContain('30120');
    } finally {
      await server.close();
    }
  });

  it('needs ADMIN_TOKEN, lists the admin commands, and refuses fields a command does not take', async () => {
    expect(await run(['admin', 'list-apps'], {})).toMatchObject({ code: 2, err: expect.stringContaining('ADMIN_TOKEN') });
    expect(await run(['admin', 'nope'], { ADMIN_TOKEN: TOKEN })).toMatchObject({
      code: 2,
      err: expect.stringContaining('admin create-operator LOGIN'),
    });
    // Usage errors (exit code 2, nothing sent): a field the command does not take, a missing role, a bad number.
    const env = { ADMIN_TOKEN: TOKEN, ADMIN_URL: 'http://127.0.0.1:9' };
    expect(await run(['admin', 'create-app', 'X', 'mode=ecb'], env)).toMatchObject({ code: 2, err: expect.stringContaining('unknown field mode') });
    expect(await run(['admin', 'create-operator', 'x'], env)).toMatchObject({ code: 2, err: expect.stringContaining('role=') });
    expect(await run(['admin', 'issue-credential', APP, 'retire_others_in=soon'], env)).toMatchObject({
      code: 2,
      err: expect.stringContaining('expected a number of seconds'),
    });
  });
});
