import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AccountClient } from './account-client';
import { ApiError } from './errors';
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
      const behind = new AccountClient({ baseUrl: `${srv.url}/geo`, appToken: APP.appToken, secret: APP.secret });
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
    const lbs = new LbsClient({ baseUrl: 'http://unused', userToken: APP.appToken, secret: APP.secret });
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

  it('reads the location envelope: code 000 is a success, anything else an ApiError', async () => {
    const srv = await scripted([
      [200, { code: '000', resultDesc: 'success', lbsStat: '2', standardCode: '110101' }],
      [400, { code: '099', resultDesc: 'missing param.longitude', lbsStat: '0' }],
    ]);
    try {
      const lbs = new LbsClient({ baseUrl: srv.url, userToken: APP.appToken, secret: APP.secret, retries: 0 });
      expect((await lbs.lbsQuery({ longitude: '116.4', latitude: '39.9' })).ok()).toMatchObject({ lbsStat: '2', standardCode: '110101' });
      const refused = await lbs.lbsQuery({ longitude: '', latitude: '39.9' });
      expect(() => refused.ok()).toThrow(new ApiError(400, '099', 'missing param.longitude', refused.body));
      expect(() => refused.ok()).toThrow(expect.objectContaining({ status: 400, code: '099' }) as unknown as Error);
    } finally {
      await srv.close();
    }
  });
});

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

  it('throws the network error once the retries are spent', async () => {
    const srv = await scripted([[200, {}]]);
    await srv.close(); // nothing listens there now
    const client = new AccountClient({ ...APP, baseUrl: srv.url, retries: 1, retryDelayMs: 1 });
    await expect(client.listAuths()).rejects.toThrow('fetch failed');
  });
});
