import { APP_A, type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';

const ORIGIN = 'https://app.example.com';

describe('CORS_ORIGINS and TRUSTED_PROXIES', () => {
  let h: AccountHarness;
  let untrusting: RunningAccountApp;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { CORS_ORIGINS: `${ORIGIN}, https://other.example.com`, TRUSTED_PROXIES: '127.0.0.1/32, 10.0.0.0/8' } });
    untrusting = await listenAccountApp(h.databaseUrl, { env: { CORS_ORIGINS: ORIGIN } });
  });
  afterAll(async () => {
    await untrusting?.app.close();
    await h?.close();
  });

  describe('CORS on /account/v1.0.1/ only, without credentials', () => {
    it('names an allowed origin on an API answer, and answers its preflight with the signing headers', async () => {
      const res = await fetch(`${h.baseUrl}/account/v1.0.1/auths`, { headers: { Origin: ORIGIN } });
      expect(res.status).toBe(401); // unsigned: the answer is readable by the page all the same
      expect(res.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('vary')).toMatch(/Origin/);

      const preflight = await fetch(`${h.baseUrl}/account/v1.0.1/auths/A1`, {
        method: 'OPTIONS',
        headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'x-signature, x-app-token, user' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT');
      expect(preflight.headers.get('access-control-allow-headers')).toMatch(/X-Signature.*user/);
      expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('says nothing to another origin, nor outside the API (console, health, docs, admin)', async () => {
      const other = await fetch(`${h.baseUrl}/account/v1.0.1/auths`, { headers: { Origin: 'https://evil.example.com' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
      for (const path of ['/console/', '/health/live', '/docs-json', '/admin/v1/apps', '/account/v1.0.2/auths']) {
        const res = await fetch(`${h.baseUrl}${path}`, { headers: { Origin: ORIGIN } });
        expect({ path, acao: res.headers.get('access-control-allow-origin') }).toEqual({ path, acao: null });
        const preflight = await fetch(`${h.baseUrl}${path}`, { method: 'OPTIONS', headers: { Origin: ORIGIN, 'Access-Control-Request-Method': 'POST' } });
        expect({ path, acao: preflight.headers.get('access-control-allow-origin') }).toEqual({ path, acao: null });
      }
    });

    it('refuses to start on CORS_ORIGINS=*, naming it', async () => {
      await expect(listenAccountApp(h.databaseUrl, { env: { CORS_ORIGINS: '*' } })).rejects.toThrow(/CORS_ORIGINS/);
    });
  });

  describe('TRUSTED_PROXIES', () => {
    const clientIpOf = async (authId: string) =>
      (await h.db.query<{ client_ip: string }>(`SELECT client_ip FROM audit_events WHERE resource_id = $1`, [authId])).rows.map((r) => r.client_ip);

    it('takes client_ip from X-Forwarded-For through trusted hops only', async () => {
      const via = (xff: string) => ({ headers: { 'X-Forwarded-For': xff } });
      expect((await h.a.createAuth('TP-1', { auth_name: 'n' }, via('198.51.100.7'))).status).toBe(201);
      // A forged left part is never reached: 10.1.2.3 is a trusted proxy, 198.51.100.8 is not.
      expect((await h.a.createAuth('TP-2', { auth_name: 'n' }, via('6.6.6.6, 198.51.100.8, 10.1.2.3'))).status).toBe(201);
      expect((await h.a.createAuth('TP-3', { auth_name: 'n' })).status).toBe(201);
      expect([...(await clientIpOf('TP-1')), ...(await clientIpOf('TP-2')), ...(await clientIpOf('TP-3'))]).toEqual([
        '198.51.100.7',
        '198.51.100.8',
        '127.0.0.1',
      ]);
    });

    it('ignores X-Forwarded-For when no proxy is trusted', async () => {
      const client = untrusting.client(APP_A);
      expect((await client.createAuth('TP-4', { auth_name: 'n' }, { headers: { 'X-Forwarded-For': '198.51.100.9' } })).status).toBe(201);
      expect(await clientIpOf('TP-4')).toEqual(['127.0.0.1']);
    });

    it('refuses to start on an entry that is no address, naming it', async () => {
      await expect(listenAccountApp(h.databaseUrl, { env: { TRUSTED_PROXIES: '10.0.0.0/8, proxy.local' } })).rejects.toThrow(
        'TRUSTED_PROXIES: "proxy.local" is not an IP address or CIDR',
      );
    });
  });
});
