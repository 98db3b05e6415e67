import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountClient } from './account-client';
import { TestAccountClient } from './account-transport';
import { ApiError, NetworkError } from './errors';
import { LbsClient } from './lbs-client';

const APP = { appToken: 'app-7f3a9c2e41d08b56', secret: 'demo-secret-0123456789abcdef', aesKey: 'demo-aes-key' };

/** A loopback server answering from a script of (status, body), recording each request. */
async function scripted(answers: [number, unknown][]): Promise<{ url: string; seen: URL[]; methods: string[]; close(): Promise<void> }> {
  const seen: URL[] = [];
  const methods: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(new URL(req.url ?? '/', 'http://x'));
    methods.push(req.method ?? '');
    const [status, body] = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    req.resume();
    req.on('end', () => res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, methods, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('signing (docs/contract.md §2 vectors)', () => {
  const account = new AccountClient({ baseUrl: 'http://unused', appToken: APP.appToken, secret: APP.secret });

  it('signs the PUT vector', async () => {
    const fields = { auth_name: 'Orders', auth_desc: '', auth_state: '1', auth_level: '2', parent_auth_id: '', sub_auth_flag: '0' };
    expect(await account.sign('PUT', '/account/v1.0.1/auths/A100', { ...fields, timestamp: '1767225600', auth_id: 'A100' })).toBe(
      '0a4c5b0907a29a12967849d76db12d559ffd473a6253fd94391afbed54674af9',
    );
  });

  it('signs the GET vector, with the path as the client sends it', async () => {
    const path = `/account/v1.0.1/users/${encodeURIComponent('张三')}/auths`;
    expect(await account.sign('GET', path, { timestamp: '1767225600', user_login_id: '张三' })).toBe(
      '3b36d71297f0071ba8395d3220b66c5836dcf67ae3b0ee4ace1c42207ec2f582',
    );
  });

  it('signs the service path, not the path of the base URL', async () => {
    const srv = await scripted([[200, { response_code: '90000', response_message: 'success' }]]);
    try {
      const behind = new TestAccountClient({ baseUrl: `${srv.url}/geo`, appToken: APP.appToken, secret: APP.secret });
      await behind.getAuth('A1', { timestamp: 1767225600 });
      const sent = srv.seen[0]!;
      expect(sent.pathname).toBe('/geo/account/v1.0.1/auths/A1');
      expect(sent.searchParams.get('signature')).toBe(
        await account.sign('GET', '/account/v1.0.1/auths/A1', { timestamp: '1767225600', auth_id: 'A1' }),
      );
    } finally {
      await srv.close();
    }
  });
});

describe('signing (docs/contract.md §3 vector)', () => {
  it('signs the addressQuery vector', async () => {
    const lbs = new LbsClient({ baseUrl: 'http://unused', appToken: APP.appToken, secret: APP.secret });
    expect(await lbs.sign('addressQuery', { city: '北京市', address: '长安街1号', merId: 'M001' })).toBe(
      'b6be88fe19429c9765ce53ca573a065a11accfdea5a5324226a2f9316da406c2',
    );
  });
});

describe('ApiResponse.ok()', () => {
  it('returns the typed body of an account success and throws ApiError with status, code and message otherwise', async () => {
    const srv = await scripted([
      [200, { response_code: '90000', response_message: 'success', auth_id: 'A1', auth_name: 'n' }],
      [404, { response_code: '10301', response_message: 'auth does not exist' }],
    ]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 0 });
      expect((await client.getAuth('A1')).ok().auth_name).toBe('n');
      const missing = await client.getAuth('A2');
      expect(() => missing.ok()).toThrow(ApiError);
      expect(() => missing.ok()).toThrow(
        expect.objectContaining({ name: 'ApiError', status: 404, code: '10301', message: 'auth does not exist' }) as unknown as Error,
      );
    } finally {
      await srv.close();
    }
  });

  it('returns the empty list of a "no data" answer (200 10201 / 10611 / 20201 / 20511 / 20701), but throws on a 404 20201', async () => {
    const srv = await scripted([
      [200, { response_code: '10201', response_message: 'query succeeded, no data', count: '0', list: [] }],
      [200, { response_code: '20201', response_message: 'query succeeded, no data', count: '0', user_list: [], list: [] }],
      [404, { response_code: '20201', response_message: 'query succeeded, no data', count: '5', user_list: [], list: [] }],
    ]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 0 });
      expect((await client.listAuths()).ok()).toEqual({ response_code: '10201', response_message: 'query succeeded, no data', count: '0', list: [] });
      expect((await client.listUsers()).ok().user_list).toEqual([]);
      const past = await client.listUsers({ page_number: '9' });
      expect(() => past.ok()).toThrow(expect.objectContaining({ status: 404, code: '20201' }) as unknown as Error);
    } finally {
      await srv.close();
    }
  });

  it('reads the location envelope: code 000 is a success, anything else an ApiError', async () => {
    const srv = await scripted([
      [200, { code: '000', resultDesc: 'success', lbsStat: '2', standardCode: '110101' }],
      [400, { code: '099', resultDesc: 'missing param.longitude', lbsStat: '0' }],
    ]);
    try {
      const lbs = new LbsClient({ baseUrl: srv.url, appToken: APP.appToken, secret: APP.secret, retries: 0 });
      expect((await lbs.lbsQuery({ longitude: '116.4', latitude: '39.9' })).ok()).toMatchObject({ lbsStat: '2', standardCode: '110101' });
      const refused = await lbs.lbsQuery({ longitude: '', latitude: '39.9' });
      expect(() => refused.ok()).toThrow(new ApiError(400, '099', 'missing param.longitude', refused.body));
      expect(() => refused.ok()).toThrow(expect.objectContaining({ status: 400, code: '099' }) as unknown as Error);
    } finally {
      await srv.close();
    }
  });
});

/** `scripted` with headers per answer. */
async function scriptedWith(answers: [number, unknown, Record<string, string>][]): Promise<{ url: string; seen: URL[]; methods: string[]; close(): Promise<void> }> {
  const seen: URL[] = [];
  const methods: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(new URL(req.url ?? '/', 'http://x'));
    methods.push(req.method ?? '');
    const [status, body, headers] = answers[Math.min(seen.length - 1, answers.length - 1)]!;
    req.resume();
    req.on('end', () => res.writeHead(status, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, seen, methods, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

describe('retries', () => {
  it('retries a GET after 503 and 502, signing each attempt anew', async () => {
    const srv = await scripted([
      [503, { response_code: '10299', response_message: 'system exception' }],
      [502, {}],
      [200, { response_code: '90000', response_message: 'success', count: '0', list: [] }],
    ]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 2, retryDelayMs: 1, nonce: true });
      const res = await client.listAuths();
      expect(res.status).toBe(200);
      expect(srv.seen).toHaveLength(3);
      const nonces = new Set(srv.seen.map((u) => u.searchParams.get('nonce')));
      expect(nonces.size).toBe(3);
    } finally {
      await srv.close();
    }
  });

  it('gives up after the configured retries and answers the last failure', async () => {
    const srv = await scripted([[503, { response_code: '10299', response_message: 'system exception' }]]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 1, retryDelayMs: 1 });
      expect((await client.listAuths()).status).toBe(503);
      expect(srv.seen).toHaveLength(2);
    } finally {
      await srv.close();
    }
  });

  it('never retries a POST or PUT (not idempotent), nor a GET answered 4xx or 500', async () => {
    const srv = await scripted([[503, { response_code: '10099', response_message: 'system exception' }]]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 3, retryDelayMs: 1 });
      expect((await client.createAuth('A1', { auth_name: 'n' })).status).toBe(503);
      expect((await client.modifyAuth('A1', { auth_name: 'n' })).status).toBe(503);
      expect(srv.methods).toEqual(['POST', 'PUT']);
    } finally {
      await srv.close();
    }
    for (const status of [400, 404, 500]) {
      const other = await scripted([[status, { response_code: '10299', response_message: 'x' }]]);
      try {
        const client = new AccountClient({ ...APP, baseUrl: other.url, retries: 3, retryDelayMs: 1 });
        expect((await client.listAuths()).status).toBe(status);
        expect(other.seen).toHaveLength(1);
      } finally {
        await other.close();
      }
    }
  });

  it('retries a GET whose connection broke, then answers', async () => {
    let connections = 0;
    const server = createServer((req, res) => {
      connections++;
      if (connections <= 2) {
        req.socket.destroy(); // the connection drops before any answer
        return;
      }
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end('{"response_code":"90000","response_message":"success","count":"0","list":[]}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new AccountClient({ ...APP, baseUrl: `http://127.0.0.1:${port}`, retries: 2, retryDelayMs: 1 });
      expect((await client.listAuths()).ok().count).toBe('0');
      expect(connections).toBe(3);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('throws a NetworkError naming the URL and the cause once the retries are spent', async () => {
    const srv = await scripted([[200, {}]]);
    await srv.close(); // nothing listens there now
    const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 1, retryDelayMs: 1 });
    const err = (await client.listAuths().catch((e: unknown) => e)) as NetworkError;
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.url).toMatch(new RegExp(`^${srv.url}/account/v1.0.1/auths\\?`));
    expect(err.message).toMatch(new RegExp(`^GET ${srv.url}/account/v1.0.1/auths\\?.* failed: ECONNREFUSED$`));
    expect((err.cause as Error).message).toBe('fetch failed');
  });

  it('honours Retry-After on 429 (any method) and 503 (GET)', async () => {
    const limited = { response_code: '90429', response_message: 'too many requests' };
    const srv = await scriptedWith([
      [429, limited, { 'Retry-After': '1' }],
      [201, { response_code: '90000', response_message: 'success' }, {}],
    ]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 2, retryDelayMs: 1 });
      const started = Date.now();
      expect((await client.createAuth('A1', { auth_name: 'n' })).status).toBe(201);
      const waited = Date.now() - started;
      console.log(`Retry-After: 1 -> waited ${waited} ms before the second POST`);
      expect(waited).toBeGreaterThanOrEqual(900);
      expect(srv.methods).toEqual(['POST', 'POST']);
    } finally {
      await srv.close();
    }
    // A Retry-After past maxRetryAfterMs: answered as it came, no retry.
    const far = await scriptedWith([[503, { response_code: '10299', response_message: 'system exception' }, { 'Retry-After': '120' }]]);
    try {
      const client = new AccountClient({ ...APP, baseUrl: far.url, retries: 2, retryDelayMs: 1, maxRetryAfterMs: 5000 });
      expect((await client.listAuths()).status).toBe(503);
      expect(far.seen).toHaveLength(1);
    } finally {
      await far.close();
    }
  });
});

describe('timeouts and aborts', () => {
  /** A server that accepts requests and never answers. */
  async function silent(): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  it('gives up after timeoutMs with a NetworkError (TimeoutError), per client and per call', async () => {
    const srv = await silent();
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 0, timeoutMs: 200 });
      const err = (await client.getAuth('A1').catch((e: unknown) => e)) as NetworkError;
      expect(err).toBeInstanceOf(NetworkError);
      expect(err.code).toBe('TimeoutError');
      const lbs = new LbsClient({ baseUrl: srv.url, appToken: APP.appToken, secret: APP.secret, retries: 0 });
      await expect(lbs.lbsQuery({ longitude: '1', latitude: '2' }, { timeoutMs: 100 })).rejects.toMatchObject({ name: 'NetworkError', code: 'TimeoutError' });
    } finally {
      await srv.close();
    }
  });

  it("rejects with the caller's abort reason, and does not retry", async () => {
    const srv = await silent();
    try {
      const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 3, retryDelayMs: 1 });
      const controller = new AbortController();
      const call = client.listAuths({}, { signal: controller.signal });
      setTimeout(() => controller.abort(new Error('user went away')), 50);
      await expect(call).rejects.toThrow('user went away');
    } finally {
      await srv.close();
    }
  });
});
