import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { TestAccountClient } from '@geoaccount/client/internal';
import { DEMO_APP, signAccount } from '@geoaccount/signing';
import {
  APP_A,
  APP_B,
  type AccountHarness,
  type RunningAccountApp,
  listenAccountApp,
  startAccountHarness,
} from './support/account-harness';
import { seedAuth, seedGroup } from './support/fixtures';
import { seedUser } from './support/user-fixtures';

const UNAUTHORIZED = (message: string) => ({ response_code: '90401', response_message: message });
const OK_CREATED = { response_code: '90000', response_message: 'success' };
const now = () => Math.floor(Date.now() / 1000);

describe('request signature (docs/contract.md §2)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness();
    await seedAuth(h.a, 'S1');
    await seedAuth(h.a, 'S2');
    await seedGroup(h.a, 'SG1');
    await seedUser(h.a, 'alice', { user_auths: 'S1' });
  });
  afterAll(() => h?.close());

  it('accepts a correctly signed request, upper-case hex too', async () => {
    expect((await h.a.getAuth('S1')).status).toBe(200);
    const ts = now();
    const sig = signAccount(APP_A.secret, 'GET', APP_A.appToken, '/account/v1.0.1/auths/S1', { auth_id: 'S1', timestamp: String(ts) });
    const res = await h.a.getAuth('S1', { timestamp: ts, signature: sig.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ response_code: '90000', auth_id: 'S1' });
  });

  it('refuses a missing signature (401, 90401)', async () => {
    const res = await h.a.createAuth('S-NOSIG', { auth_name: 'n' }, { signature: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED('bad signature'));
    expect((await h.a.getAuth('S-NOSIG')).status).toBe(404);
  });

  it.each([
    ['all zeros', '0'.repeat(64)],
    ['too short', 'abc'],
    ['not hex', 'z'.repeat(64)],
  ])('refuses a wrong signature: %s (401, 90401)', async (_, signature) => {
    const res = await h.a.getAuth('S1', { signature });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED('bad signature'));
  });

  it('refuses a signature made with another app’s secret', async () => {
    const forger = h.client({ ...APP_A, secret: APP_B.secret });
    const res = await forger.getAuth('S1');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED('bad signature'));
  });

  it('refuses a signature made for another path id (it cannot be moved to another resource)', async () => {
    const get = await h.a.request('GET', '/account/v1.0.1/auths/S2', {}, { auth_id: 'S1' });
    expect(get.status).toBe(401);
    expect(get.body).toEqual(UNAUTHORIZED('bad signature'));
    const put = await h.a.request('PUT', '/account/v1.0.1/auths/S2', { auth_name: 'moved' }, { auth_id: 'S1' });
    expect(put.status).toBe(401);
    expect((await h.a.getAuth('S2')).body).toMatchObject({ auth_name: 'name of S2' });
    const group = await h.a.request('GET', '/account/v1.0.1/authgroups/G2', {}, { group_id: 'G1' });
    expect(group.status).toBe(401);
  });

  describe('a signature is bound to its route', () => {
    const signedFor = (path: string, params: Record<string, string>) => {
      const timestamp = now();
      return { timestamp, signature: signAccount(APP_A.secret, 'GET', APP_A.appToken, path, { ...params, timestamp: String(timestamp) }) };
    };

    it('a signature of GET /auths is refused on GET /authgroups and GET /users (401, 90401)', async () => {
      const tweaks = signedFor('/account/v1.0.1/auths', {});
      const own = await h.a.listAuths({}, tweaks);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ response_code: '90000' });
      const groups = await h.a.listGroups({}, tweaks);
      expect(groups.status).toBe(401);
      expect(groups.body).toEqual(UNAUTHORIZED('bad signature'));
      const users = await h.a.listUsers({}, tweaks);
      expect(users.status).toBe(401);
      expect(users.body).toEqual(UNAUTHORIZED('bad signature'));
    });

    it('a signature of GET /users/alice is refused on GET /users/alice/auths (401, 90401)', async () => {
      const tweaks = signedFor('/account/v1.0.1/users/alice', { user_login_id: 'alice' });
      const own = await h.a.getUser('alice', tweaks);
      expect(own.status).toBe(200);
      expect(own.body).toMatchObject({ response_code: '90000', user_login_id: 'alice' });
      const auths = await h.a.userAuths('alice', tweaks);
      expect(auths.status).toBe(401);
      expect(auths.body).toEqual(UNAUTHORIZED('bad signature'));
    });

    it('a signature of one method is refused on another route with the same fields', async () => {
      // Signed for PUT /auths/SG1 with the fields of a group, sent as PUT /authgroups/SG1.
      const ts = now();
      const signature = signAccount(APP_A.secret, 'PUT', APP_A.appToken, '/account/v1.0.1/auths/SG1', {
        group_name: 'moved',
        group_id: 'SG1',
        timestamp: String(ts),
      });
      const res = await h.a.modifyGroup('SG1', { group_name: 'moved' }, { timestamp: ts, signature });
      expect(res.status).toBe(401);
      expect(res.body).toEqual(UNAUTHORIZED('bad signature'));
      expect((await h.a.getGroup('SG1')).body).toMatchObject({ group_name: 'name of SG1' });
    });

    it('signs the path with each segment decoded and re-encoded, so any spelling of an id verifies', async () => {
      await seedUser(h.a, '张三');
      const ts = String(now());
      const params = { timestamp: ts, user_login_id: '张三' };
      const signature = signAccount(APP_A.secret, 'GET', APP_A.appToken, '/account/v1.0.1/users/%E5%BC%A0%E4%B8%89', params);
      for (const spelling of ['%E5%BC%A0%E4%B8%89', '%e5%bc%a0%e4%b8%89']) {
        const query = new URLSearchParams({ timestamp: ts, app_token: APP_A.appToken, signature });
        const res = await fetch(`${h.baseUrl}/account/v1.0.1/users/${spelling}?${query}`);
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({ response_code: '90000', user_login_id: '张三' });
      }
    });

    it('signs the service path, not the path of a gateway in front of it', async () => {
      // A client whose base URL has a path of its own (`/geo`), behind a gateway that strips it.
      const gateway = createServer((req, res) => {
        const upstream = `${h.baseUrl}${(req.url ?? '').replace(/^\/geo/, '')}`;
        void fetch(upstream).then(async (answer) =>
          res.writeHead(answer.status, { 'content-type': 'application/json' }).end(await answer.text()),
        );
      });
      await new Promise<void>((resolve) => gateway.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = gateway.address() as AddressInfo;
        const client = new TestAccountClient({ baseUrl: `http://127.0.0.1:${port}/geo`, appToken: APP_A.appToken, secret: APP_A.secret });
        const res = await client.getAuth('S1');
        expect(res.status).toBe(200);
        expect(res.body).toMatchObject({ response_code: '90000', auth_id: 'S1' });
      } finally {
        await new Promise((resolve) => gateway.close(resolve));
      }
    });
  });

  it('refuses a form field that repeats the path id with another value (400, 90100); the same value is fine', async () => {
    const other = await h.a.request('PUT', '/account/v1.0.1/auths/S2', { auth_id: 'S1', auth_name: 'x' }, { auth_id: 'S2' });
    expect(other.status).toBe(400);
    expect(other.body).toEqual({ response_code: '90100', response_message: 'conflicting auth_id' });
    const query = await h.a.request('GET', '/account/v1.0.1/authgroups/G1', { group_id: 'G2' }, { group_id: 'G1' });
    expect(query.status).toBe(400);
    expect(query.body).toEqual({ response_code: '90100', response_message: 'conflicting group_id' });
    const same = await h.a.request('PUT', '/account/v1.0.1/auths/S2', { auth_id: 'S2', auth_name: 'same id' }, { auth_id: 'S2' });
    expect(same.status).toBe(201);
    expect(same.body).toEqual(OK_CREATED);
  });

  it('refuses a changed or added field that was not signed', async () => {
    const changed = await h.a.createAuth('S-TAMPER', { auth_name: 'signed' }, { unsigned: { auth_name: 'sent' } });
    expect(changed.status).toBe(401);
    expect(changed.body).toEqual(UNAUTHORIZED('bad signature'));
    const added = await h.a.listAuths({}, { unsigned: { auth_state: '1' } });
    expect(added.status).toBe(401);
    expect((await h.a.getAuth('S-TAMPER')).status).toBe(404);
  });

  it('signs values with "&" and "=" so they cannot pass for two parameters', async () => {
    const res = await h.a.createAuth('S-AMP', { auth_name: 'a=1&b=2', auth_desc: '&auth_state=1' });
    expect(res.status).toBe(201);
    expect((await h.a.getAuth('S-AMP')).body).toMatchObject({ auth_name: 'a=1&b=2', auth_desc: '&auth_state=1', auth_state: null });
  });

  it('refuses a missing timestamp (401, 90401)', async () => {
    const res = await h.a.getAuth('S1', { timestamp: null });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED('missing timestamp'));
  });

  it.each([
    ['6 minutes old', -360],
    ['6 minutes ahead', 360],
  ])('refuses a stale timestamp: %s (401, 90401)', async (_, offset) => {
    const res = await h.a.createAuth('S-STALE', { auth_name: 'n' }, { timestamp: now() + offset });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED('stale timestamp'));
  });

  it('accepts a timestamp within SIGNATURE_MAX_SKEW_SECONDS (300)', async () => {
    expect((await h.a.getAuth('S1', { timestamp: now() - 240 })).status).toBe(200);
    expect((await h.a.getAuth('S1', { timestamp: now() + 240 })).status).toBe(200);
  });

  it('refuses an unknown or missing app_token (401, 90401)', async () => {
    const unknown = await h.a.getAuth('S1', { appToken: 'app-ffff' });
    expect(unknown.status).toBe(401);
    expect(unknown.body).toEqual(UNAUTHORIZED('unknown app_token'));
    const stranger = h.client({ appToken: 'app-5eeded', secret: 'a-secret-nobody-registered', aesKey: 'k' });
    expect((await stranger.listAuths()).body).toEqual(UNAUTHORIZED('unknown app_token'));
    const missing = await h.a.createAuth('S-NOAPP', { auth_name: 'n' }, { appToken: null });
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual(UNAUTHORIZED('missing app_token'));
    expect((await h.a.getAuth('S1', { appToken: '' })).body).toEqual(UNAUTHORIZED('missing app_token'));
  });

  describe('signing headers X-App-Token, X-Timestamp, X-Nonce, X-Signature', () => {
    it('takes them in place of the fields, for reads and for writes of every body type', async () => {
      const headers = { signingHeaders: true } as const;
      expect((await h.a.getAuth('S1', headers)).body).toMatchObject({ response_code: '90000', auth_id: 'S1' });
      expect((await h.a.listAuths({ auth_ids: 'S1' }, { ...headers, nonce: 'hdr-nonce-1' })).body).toMatchObject({ count: '1' });
      expect((await h.a.createAuth('SH-FORM', { auth_name: 'n' }, headers)).body).toEqual(OK_CREATED);
      expect((await h.a.createAuth('SH-JSON', { auth_name: 'n' }, { ...headers, json: true })).body).toEqual(OK_CREATED);
      expect((await h.a.createAuth('SH-MULTI', { auth_name: 'n' }, { ...headers, multipart: true })).body).toEqual(OK_CREATED);
      // A write whose every field is a header: an empty body.
      expect((await h.a.modifyAuth('SH-FORM', {}, headers)).body).toEqual(OK_CREATED);
    });

    it('checks them as it checks the fields', async () => {
      const bad = await h.a.getAuth('S1', { signingHeaders: true, signature: 'ab'.repeat(32) });
      expect(bad.body).toEqual(UNAUTHORIZED('bad signature'));
      const stale = await h.a.getAuth('S1', { signingHeaders: true, timestamp: now() - 3600 });
      expect(stale.body).toEqual(UNAUTHORIZED('stale timestamp'));
      const replay = { signingHeaders: true, nonce: 'hdr-replayed' } as const;
      expect((await h.a.getAuth('S1', replay)).status).toBe(200);
      expect((await h.a.getAuth('S1', replay)).body).toEqual(UNAUTHORIZED('replayed nonce'));
    });

    it.each([
      ['app_token', () => ({ app_token: APP_A.appToken })],
      ['timestamp', () => ({ timestamp: String(now()) })],
      ['signature', () => ({ signature: 'ab'.repeat(32) })],
      ['nonce', () => ({ nonce: 'hdr-both' })],
    ])('refuses %s sent both as a header and as a field (400, 90100)', async (field, value) => {
      const tweaks = { signingHeaders: true, unsigned: value(), ...(field === 'nonce' ? { nonce: 'hdr-both' } : {}) };
      for (const res of [await h.a.getAuth('S1', tweaks), await h.a.createAuth('SH-BOTH', { auth_name: 'n' }, tweaks)]) {
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ response_code: '90100', response_message: `header and field ${field}` });
      }
      expect((await h.a.getAuth('SH-BOTH')).status).toBe(404);
    });
  });

  describe('the user header', () => {
    it('is signed as the parameter user, and the audit trail records it as operator', async () => {
      const res = await h.a.createAuth('SU-OK', { auth_name: 'n' }, { user: 'ops-carol' });
      expect(res.body).toEqual(OK_CREATED);
      expect((await h.a.getAuth('SU-OK', { user: 'ops-carol', signingHeaders: true })).status).toBe(200);
      const { rows } = await h.db.query(`SELECT operator FROM audit_events WHERE resource_id = 'SU-OK'`);
      expect(rows).toEqual([{ operator: 'ops-carol' }]);
    });

    it('refuses a user header its signature does not cover (401, 90401), and records nothing', async () => {
      for (const res of [
        await h.a.createAuth('SU-FORGED', { auth_name: 'n' }, { headers: { user: 'intruder' } }),
        await h.a.getAuth('S1', { headers: { user: 'intruder' } }),
        await h.a.modifyAuth('S1', { auth_name: 'x' }, { signingHeaders: true, headers: { user: 'intruder' } }),
      ]) {
        expect(res.status).toBe(401);
        expect(res.body).toEqual(UNAUTHORIZED('user header not signed'));
      }
      // Signed for one user, sent with another.
      const other = await h.a.createAuth('SU-OTHER', { auth_name: 'n' }, { user: 'ops-carol', headers: { user: 'intruder' } });
      expect(other.body).toEqual(UNAUTHORIZED('bad signature'));
      const { rows } = await h.db.query(`SELECT count(*)::int AS n FROM audit_events WHERE operator = 'intruder'`);
      expect(rows).toEqual([{ n: 0 }]);
      expect((await h.a.getAuth('SU-FORGED')).status).toBe(404);
    });

    it('refuses a user field next to the user header (400, 90100)', async () => {
      const res = await h.a.createAuth('SU-BOTH', { auth_name: 'n', user: 'ops-carol' }, { user: 'ops-carol' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '90100', response_message: 'header and field user' });
    });
  });

  it('refuses a write with parameters in its query string (400, 90100, naming them), and changes nothing', async () => {
    for (const method of ['POST', 'PUT'] as const) {
      const res = await h.a.request(method, '/account/v1.0.1/auths/SQ-1?auth_desc=x&extra=1', { auth_name: 'n' }, { auth_id: 'SQ-1' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '90100', response_message: 'query parameter auth_desc,extra' });
    }
    const signedInQuery = await h.a.request('POST', '/account/v1.0.1/auths/SQ-2?timestamp=1', { auth_name: 'n' }, { auth_id: 'SQ-2' });
    expect(signedInQuery.body).toEqual({ response_code: '90100', response_message: 'query parameter timestamp' });
    expect((await h.a.getAuth('SQ-1')).status).toBe(404);
    expect((await h.a.getAuth('SQ-2')).status).toBe(404);
  });

  describe('nonce', () => {
    let second: RunningAccountApp;

    beforeAll(async () => {
      // A second instance of the service on the same database.
      second = await listenAccountApp(h.databaseUrl);
    });
    afterAll(() => second?.app.close());

    it('refuses a replayed nonce (401, 90401), on this instance and on another one', async () => {
      const first = await h.a.createAuth('S-N1', { auth_name: 'n' }, { nonce: 'nonce-1' });
      expect(first.status).toBe(201);
      const replay = await h.a.createAuth('S-N2', { auth_name: 'n' }, { nonce: 'nonce-1' });
      expect(replay.status).toBe(401);
      expect(replay.body).toEqual(UNAUTHORIZED('replayed nonce'));
      const elsewhere = await second.client(APP_A).createAuth('S-N3', { auth_name: 'n' }, { nonce: 'nonce-1' });
      expect(elsewhere.status).toBe(401);
      expect(elsewhere.body).toEqual(UNAUTHORIZED('replayed nonce'));
      expect((await h.a.getAuth('S-N2')).status).toBe(404);
      expect((await h.a.getAuth('S-N3')).status).toBe(404);
    });

    it('keeps nonces per app, and a fresh nonce per request passes', async () => {
      expect((await h.b.createAuth('S-N1', { auth_name: 'n' }, { nonce: 'nonce-1' })).status).toBe(201);
      for (let i = 0; i < 3; i++) expect((await h.aWithNonce.getAuth('S1')).status).toBe(200);
    });

    it('refuses a nonce of more than 64 characters (400, 90100)', async () => {
      expect((await h.a.getAuth('S1', { nonce: 'n'.repeat(64) })).status).toBe(200);
      const res = await h.a.getAuth('S1', { nonce: 'n'.repeat(65) });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '90100', response_message: 'invalid nonce' });
    });

    it('refuses a nonce with a NUL character (400, 90100), which no text column can store', async () => {
      const res = await h.a.getAuth('S1', { nonce: 'n\u0000' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '90100', response_message: 'invalid nonce' });
    });

    it('does not spend a nonce on a request with a bad signature', async () => {
      expect((await h.a.getAuth('S1', { nonce: 'nonce-bad', signature: '0'.repeat(64) })).status).toBe(401);
      expect((await h.a.getAuth('S1', { nonce: 'nonce-bad' })).status).toBe(200);
    });
  });

  it('leaves the health probe unsigned', async () => {
    const res = await fetch(`${h.baseUrl}/health/live`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ok' });
  });
});

describe('request signature with SIGNATURE_MAX_SKEW_SECONDS=0', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { SIGNATURE_MAX_SKEW_SECONDS: '0' }, apps: [DEMO_APP] });
  });
  afterAll(() => h?.close());

  it('does not require a timestamp', async () => {
    const res = await h.a.createAuth('Z1', { auth_name: 'n' }, { timestamp: null });
    expect(res.status).toBe(201);
    expect(res.body).toEqual(OK_CREATED);
  });

  it('accepts the docs/contract.md §2 test vector as sent on the wire', async () => {
    await seedAuth(h.client(DEMO_APP), 'A100');
    const body = new URLSearchParams({
      app_token: 'app-7f3a9c2e41d08b56',
      auth_name: 'Orders',
      auth_desc: '',
      auth_state: '1',
      auth_level: '2',
      parent_auth_id: '',
      sub_auth_flag: '0',
      timestamp: '1767225600',
      signature: '0a4c5b0907a29a12967849d76db12d559ffd473a6253fd94391afbed54674af9',
    });
    const res = await fetch(`${h.baseUrl}/account/v1.0.1/auths/A100`, { method: 'PUT', body });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual(OK_CREATED);
    expect((await h.client(DEMO_APP).getAuth('A100')).body).toMatchObject({
      auth_name: 'Orders',
      auth_desc: '',
      auth_level: '2',
      parent_auth_id: '',
    });
  });

  it('accepts the docs/contract.md §2 GET vector as sent on the wire', async () => {
    await seedUser(h.client(DEMO_APP), '张三', { user_auths: 'A100' });
    const query = new URLSearchParams({
      timestamp: '1767225600',
      app_token: 'app-7f3a9c2e41d08b56',
      signature: '3b36d71297f0071ba8395d3220b66c5836dcf67ae3b0ee4ace1c42207ec2f582',
    });
    const res = await fetch(`${h.baseUrl}/account/v1.0.1/users/%E5%BC%A0%E4%B8%89/auths?${query}`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ response_code: '90000', count: '1', list: [expect.objectContaining({ auth_id: 'A100' })] });
  });
});

describe('request signature with SIGNATURE_REQUIRE_NONCE=true', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { SIGNATURE_REQUIRE_NONCE: 'true' } });
  });
  afterAll(() => h?.close());

  it('refuses a signed request without a nonce (401, 90401)', async () => {
    const res = await h.a.createAuth('RN1', { auth_name: 'n' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED('missing nonce'));
    expect((await h.aWithNonce.getAuth('RN1')).status).toBe(404);
  });

  it('accepts each nonce once', async () => {
    const first = await h.a.createAuth('RN2', { auth_name: 'n' }, { nonce: 'only-once' });
    expect(first.status).toBe(201);
    expect(first.body).toEqual(OK_CREATED);
    const again = await h.a.getAuth('RN2', { nonce: 'only-once' });
    expect(again.status).toBe(401);
    expect(again.body).toEqual(UNAUTHORIZED('replayed nonce'));
    expect((await h.aWithNonce.getAuth('RN2')).body).toMatchObject({ response_code: '90000', auth_id: 'RN2' });
  });
});

describe('a replayed PUT with SIGNATURE_REQUIRE_NONCE=true and a 5 s skew (docs/contract.md §2)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { SIGNATURE_REQUIRE_NONCE: 'true', SIGNATURE_MAX_SKEW_SECONDS: '5' } });
  });
  afterAll(() => h?.close());

  /** The same signed PUT, byte for byte, each time it is sent. */
  function signedPut(authName: string, timestamp: number, nonce: string): () => Promise<{ status: number; body: unknown }> {
    const path = '/account/v1.0.1/auths/RP1';
    const fields = { auth_name: authName, auth_desc: '', auth_state: '1', auth_level: '1', parent_auth_id: '', sub_auth_flag: '0', timestamp: String(timestamp), nonce };
    const signature = signAccount(APP_A.secret, 'PUT', APP_A.appToken, path, { ...fields, auth_id: 'RP1' });
    const body = new URLSearchParams({ ...fields, app_token: APP_A.appToken, signature }).toString();
    return async () => {
      const res = await fetch(`${h.baseUrl}${path}`, { method: 'PUT', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body });
      return { status: res.status, body: await res.json() };
    };
  }

  it('is refused past the former 2 s window and up to the end of the acceptance window, and the value is not rolled back', async () => {
    expect((await h.aWithNonce.createAuth('RP1', { auth_name: 'created', auth_level: '1' })).status).toBe(201);
    const t = Math.floor(Date.now() / 1000);
    const first = signedPut('first', t, 'replay-window-1');
    expect((await first()).status).toBe(201);
    // The value changes after the first request…
    const second = signedPut('second', Math.floor(Date.now() / 1000), 'replay-window-2');
    expect((await second()).status).toBe(201);
    // …and the first one is sent again after 2.6 s, then near the end of its window (t + 5 s).
    await new Promise((r) => setTimeout(r, 2600));
    expect(await first()).toEqual({ status: 401, body: UNAUTHORIZED('replayed nonce') });
    const nearEnd = (t + 4.6) * 1000 - Date.now();
    if (nearEnd > 0) await new Promise((r) => setTimeout(r, nearEnd));
    expect(await first()).toEqual({ status: 401, body: UNAUTHORIZED('replayed nonce') });
    expect((await h.aWithNonce.getAuth('RP1')).body).toMatchObject({ response_code: '90000', auth_name: 'second' });
    // Past the window the request itself is refused as stale.
    await new Promise((r) => setTimeout(r, (t + 6.2) * 1000 - Date.now()));
    expect(await first()).toEqual({ status: 401, body: UNAUTHORIZED('stale timestamp') });
  }, 20_000);
});
