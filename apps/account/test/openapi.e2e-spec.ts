import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ClientResponse } from '@geoaccount/client';
import type { TestAccountClient } from '@geoaccount/client/internal';
import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';
import { openApi } from './support/openapi-answers';

/** Every operation of the API, called with valid fields (the answers are checked by the suites' observer). */
const OPERATIONS: [string, (c: TestAccountClient) => Promise<ClientResponse<unknown>>][] = [
  ['createAuth', (c) => c.createAuth('OA1', { auth_name: 'Open' })],
  ['modifyAuth', (c) => c.modifyAuth('OA1', { auth_desc: 'd' })],
  ['listAuths', (c) => c.listAuths()],
  ['getAuth', (c) => c.getAuth('OA1')],
  ['createGroup', (c) => c.createGroup('OG1', { group_name: 'Open', group_auths: 'OA1' })],
  ['modifyGroup', (c) => c.modifyGroup('OG1', { group_desc: 'd' })],
  ['listGroups', (c) => c.listGroups()],
  ['getGroup', (c) => c.getGroup('OG1')],
  ['registerUser', (c) => c.registerUser('open-user', { user_name: 'Open', user_type: 'C', user_pwd: 'P@ssw0rd!', user_auths: 'OA1' })],
  ['modifyUser', (c) => c.modifyUser('open-user', { user_short_name: 'o' })],
  ['listUsers', (c) => c.listUsers()],
  ['getUser', (c) => c.getUser('open-user')],
  ['login', (c) => c.login('open-user', 'P@ssw0rd!')],
  ['userAuths', (c) => c.userAuths('open-user')],
  ['userHasAuth', (c) => c.userHasAuth('open-user', 'OA1')],
];

/** Every operation, called with a field or path id its rules refuse. */
const INVALID: [string, (c: TestAccountClient) => Promise<ClientResponse<unknown>>][] = [
  ['createAuth', (c) => c.createAuth('OA9', { auth_name: 'x', auth_state: '9' })],
  ['modifyAuth', (c) => c.modifyAuth('OA1', { auth_state: '9' })],
  ['listAuths', (c) => c.listAuths({ auth_state: '9' })],
  ['getAuth', (c) => c.getAuth('a,b')],
  ['createGroup', (c) => c.createGroup('OG9', { group_name: 'x', group_state: '9' })],
  ['modifyGroup', (c) => c.modifyGroup('OG1', { group_state: '9' })],
  ['listGroups', (c) => c.listGroups({}, { nonce: 'n'.repeat(65) })],
  ['getGroup', (c) => c.getGroup('a,b')],
  ['registerUser', (c) => c.registerUser('open-9', { user_name: 'x', user_type: 'Z', user_pwd: 'p' })],
  ['modifyUser', (c) => c.modifyUser('open-user', { user_type: 'Z' })],
  ['listUsers', (c) => c.listUsers({ page_size: '0' })],
  ['getUser', (c) => c.getUser('a,b')],
  ['login', (c) => c.login('a,b', 'p')],
  ['userAuths', (c) => c.userAuths('a,b')],
  ['userHasAuth', (c) => c.userHasAuth('open-user', 'a,b')],
];

describe('OpenAPI document', () => {
  let h: AccountHarness;
  beforeAll(async () => {
    h = await startAccountHarness();
  });
  afterAll(() => h.close());

  it('serves at /docs-json exactly the committed docs/openapi/account.json (run `pnpm openapi` after a change)', async () => {
    const res = await fetch(`${h.baseUrl}/docs-json`);
    expect(res.status).toBe(200);
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/account.json'), 'utf8'));
    expect(await res.json()).toEqual(committed);
  });

  it('every operation answers its documented success, 401 to a bad signature and 400 to a value its rules refuse', async () => {
    for (const [name, call] of OPERATIONS) {
      const ok = await call(h.a);
      expect([name, ok.status]).toEqual([
        name,
        name.startsWith('create') || name.startsWith('modify') || name === 'registerUser' ? 201 : 200,
      ]);
    }
    const bad = h.client({ ...APP_A, secret: 'not-the-secret' });
    for (const [name, call] of OPERATIONS) expect([name, (await call(bad)).status]).toEqual([name, 401]);
    for (const [name, call] of INVALID) expect([name, (await call(h.a)).status]).toEqual([name, 400]);
  });

  it('the probes and the metrics answer as documented', async () => {
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      const res = await fetch(`${h.baseUrl}${path}`);
      const text = await res.text();
      const body: unknown = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
      expect(() => openApi.check({ method: 'GET', url: path, status: res.status, headers: res.headers, body })).not.toThrow();
      expect(res.status).toBe(200);
    }
  });

  describe('with a small body limit', () => {
    let limited: RunningAccountApp;
    beforeAll(async () => {
      limited = await listenAccountApp(h.databaseUrl, { env: { BODY_LIMIT: '1kb' } });
    });
    afterAll(() => limited.app.close());

    it('a body over the limit is 413, as documented for every POST and PUT', async () => {
      const a = limited.client(APP_A);
      const big = 'x'.repeat(2048);
      const bodies: [string, () => Promise<ClientResponse<unknown>>][] = [
        ['createAuth', () => a.createAuth('OA2', { auth_name: 'Big', auth_desc: big })],
        ['modifyAuth', () => a.modifyAuth('OA1', { auth_desc: big })],
        ['createGroup', () => a.createGroup('OG2', { group_name: 'Big', group_desc: big })],
        ['modifyGroup', () => a.modifyGroup('OG1', { group_desc: big })],
        ['registerUser', () => a.registerUser('big-user', { user_name: 'Big', user_type: 'C', user_pwd: 'p', user_extends: big })],
        ['modifyUser', () => a.modifyUser('open-user', { user_extends: big })],
        ['login', () => a.login('open-user', big)],
      ];
      for (const [name, call] of bodies) expect([name, (await call()).status]).toEqual([name, 413]);
    });
  });

  describe('with a rate limit', () => {
    let limited: RunningAccountApp;
    beforeAll(async () => {
      limited = await listenAccountApp(h.databaseUrl, { env: { RATE_LIMIT_PER_MINUTE: '1' } });
    });
    afterAll(() => limited.app.close());

    it('a caller over its rate gets 429, as documented for every operation', async () => {
      const a = limited.client(APP_A);
      for (const [name, call] of OPERATIONS) {
        let status = 0;
        for (let i = 0; i < 3 && status !== 429; i++) status = (await call(a)).status;
        expect([name, status]).toEqual([name, 429]);
      }
    });
  });
});
