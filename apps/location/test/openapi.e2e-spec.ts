import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestLbsClient } from '@geoaccount/client/internal';
import { FakeAmap } from './support/fake-amap';
import { openApi } from './support/openapi-answers';
import { type LocationSession, startLocation } from './support/location-session';

/** The three operations with parameters that find something in the embedded defaults. */
const OPERATIONS: [string, (c: TestLbsClient, tweaks?: { signature?: string }) => ReturnType<TestLbsClient['call']>][] = [
  ['lbsQuery', (c, t) => c.call('lbsQuery', { longitude: '116.397', latitude: '39.909' }, t)],
  ['addressQuery', (c, t) => c.call('addressQuery', { city: '北京市', address: '东城区' }, t)],
  ['baseStationQuery', (c, t) => c.call('baseStationQuery', { mcc: '460', mnc: '0', lac: '4024', cellid: '10300' }, t)],
];

describe('OpenAPI document', () => {
  let s: LocationSession;
  beforeAll(async () => {
    s = await startLocation({});
  });
  afterAll(() => s.close());

  it('serves at /docs-json exactly the committed docs/openapi/location.json (run `pnpm openapi` after a change)', async () => {
    const res = await fetch(`${s.url}/docs-json`);
    expect(res.status).toBe(200);
    const committed: unknown = JSON.parse(readFileSync(join(__dirname, '../../../docs/openapi/location.json'), 'utf8'));
    expect(await res.json()).toEqual(committed);
  });

  it('every operation answers as documented: found or not, a bad signature 401, a missing parameter 400', async () => {
    for (const [name, call] of OPERATIONS) {
      expect([name, [200, 404]]).toEqual([name, expect.arrayContaining([(await call(s.client)).status])]);
      expect([name, (await call(s.client, { signature: '0'.repeat(64) })).status]).toEqual([name, 401]);
      expect([name, (await s.client.call(name as 'lbsQuery', {})).status]).toEqual([name, 400]);
    }
  });

  it('nothing found is 404, as documented', async () => {
    expect((await s.client.lbsQuery({ longitude: '-140.000000', latitude: '-40.000000' })).status).toBe(404);
    expect((await s.client.addressQuery({ city: 'Atlantis', address: 'zzzz qqqq 99999' })).status).toBe(404);
    expect((await s.client.baseStationQuery({ mcc: '262', mnc: '2', lac: '801', cellid: '86355' })).status).toBe(404);
  });

  it('the probes and the metrics answer as documented', async () => {
    for (const path of ['/health/live', '/health/ready', '/metrics']) {
      const res = await fetch(`${s.url}${path}`);
      const text = await res.text();
      const body: unknown = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text;
      expect(() => openApi.check({ method: 'GET', url: path, status: res.status, headers: res.headers, body })).not.toThrow();
      expect(res.status).toBe(200);
    }
  });

  describe('with an upstream geocoder that fails', () => {
    const amap = new FakeAmap();
    let failing: LocationSession;
    beforeAll(async () => {
      await amap.start();
      failing = await startLocation({ GEOCODER: 'amap', AMAP_KEY: amap.key, AMAP_BASE_URL: amap.url, UPSTREAM_RETRIES: '0' });
      amap.mode = { kind: 'http', status: 502 };
    });
    afterAll(async () => {
      await failing.close();
      await amap.stop();
    });

    it('every operation answers 503, as documented', async () => {
      for (const [name, call] of OPERATIONS) expect([name, (await call(failing.client)).status]).toEqual([name, 503]);
    });
  });

  describe('with a rate limit', () => {
    let limited: LocationSession;
    beforeAll(async () => {
      limited = await startLocation({ RATE_LIMIT_PER_MINUTE: '1' });
    });
    afterAll(() => limited.close());

    it('a caller over its rate gets 429, as documented for every operation', async () => {
      for (const [name, call] of OPERATIONS) {
        let status = 0;
        for (let i = 0; i < 3 && status !== 429; i++) status = (await call(limited.client)).status;
        expect([name, status]).toEqual([name, 429]);
      }
    });
  });
});
