/**
 * Requests crafted against the location service's own checks: parameter names that are
 * members of every object, and personal data (coordinates, addresses) that a failed request
 * would carry into the logs (docs/contract.md §13).
 */
import { MetricsServer } from '@geoaccount/observability';
import { DEMO_APP, lbsSignedNames, signLbs } from '@geoaccount/signing';
import { type LocationSession, startLocation } from './support/location-session';

describe('location request checks', () => {
  let s: LocationSession;

  beforeAll(async () => {
    s = await startLocation({ RATE_LIMIT_PER_MINUTE: '0' });
  });

  afterAll(async () => {
    await s?.close();
  });

  /** A signed lbsQuery with the raw query text `extra` appended (names no client would build). */
  async function lbsQueryWith(extra: string, lon = '116.391275', lat = '39.907501'): Promise<{ status: number; body: unknown }> {
    const signature = signLbs(DEMO_APP.secret, 'lbsQuery', lbsSignedNames(['longitude', 'latitude']), { longitude: lon, latitude: lat });
    const query = `userToken=${DEMO_APP.appToken}&param.longitude=${lon}&param.latitude=${lat}&signature=${signature}`;
    const res = await fetch(`${s.url}/lbsapi/api/lbsQuery?${query}${extra}`);
    return { status: res.status, body: await res.json() };
  }

  it('answers the signed query itself', async () => {
    expect((await lbsQueryWith('')).status).toBe(200);
  });

  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'refuses a parameter named %s as unknown: 400/099',
    async (name) => {
      const res = await lbsQueryWith(`&${name}=x`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: '099', resultDesc: `unknown parameter ${name}`, lbsStat: '0' });
    },
  );

  describe('the logs', () => {
    const lon = '116.987654';
    const lat = '39.123457';
    const address = '长安街98765号';

    it('never carry the coordinates or the address of a request, failed ones included', async () => {
      const before = s.logs.lines.length;
      // Refused after the signature (an unknown parameter), refused by the signature, and answered.
      expect((await lbsQueryWith('&extra=1', lon, lat)).status).toBe(400);
      const forged = await fetch(
        `${s.url}/lbsapi/api/lbsQuery?userToken=${DEMO_APP.appToken}&param.longitude=${lon}&param.latitude=${lat}&signature=${'0'.repeat(64)}`,
      );
      expect(forged.status).toBe(401);
      const unsigned = await fetch(
        `${s.url}/lbsapi/api/addressQuery?userToken=${DEMO_APP.appToken}&param.city=${encodeURIComponent('北京市')}&param.address=${encodeURIComponent(address)}`,
      );
      expect(unsigned.status).toBeGreaterThanOrEqual(400);
      expect((await s.client.addressQuery({ city: '北京市', address })).status).toBe(200);
      expect((await lbsQueryWith('', lon, lat)).status).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
      const written = JSON.stringify(s.logs.lines.slice(before));
      // The failures were logged, without the values.
      expect(written).toContain('/lbsapi/api/lbsQuery');
      expect(written).toContain('param.longitude=[REDACTED]');
      for (const value of [lon, lat, '116.98', '39.12', address, encodeURIComponent(address), '98765']) expect(written).not.toContain(value);
    });
  });

  describe('METRICS_PORT (docs/contract.md §1)', () => {
    it('serves /metrics on its own port only, not on PORT', async () => {
      const m = await startLocation({ METRICS_PORT: '0', HOST: '127.0.0.1' });
      try {
        expect((await fetch(`${m.url}/metrics`)).status).toBe(404);
        const port = m.app.get(MetricsServer).port();
        expect(port).toBeGreaterThan(0);
        expect(port).not.toBe(Number(new URL(m.url).port));
        const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
        expect(scrape.status).toBe(200);
        expect(await scrape.text()).toContain('http_request_duration_seconds');
        expect((await fetch(`http://127.0.0.1:${port}/health/live`)).status).toBe(404);
        // Without it, /metrics stays on PORT.
        expect((await fetch(`${s.url}/metrics`)).status).toBe(200);
      } finally {
        await m.close();
      }
    });
  });
});
