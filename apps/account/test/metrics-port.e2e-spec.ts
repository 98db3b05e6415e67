/** docs/contract.md §1 `METRICS_PORT`: `/metrics` on a port of its own, never on `PORT` then. */
import { MetricsServer } from '@geoaccount/observability';
import { type AccountHarness, startAccountHarness } from './support/account-harness';

describe('METRICS_PORT', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { METRICS_PORT: '0', HOST: '127.0.0.1' } });
  });
  afterAll(() => h?.close());

  it('serves /metrics on its own port only, not on PORT', async () => {
    expect((await fetch(`${h.baseUrl}/metrics`)).status).toBe(404);
    expect((await fetch(`${h.baseUrl}/health/live`)).status).toBe(200);
    const port = h.app.get(MetricsServer).port();
    expect(port).toBeGreaterThan(0);
    const scrape = await fetch(`http://127.0.0.1:${port}/metrics`);
    expect(scrape.status).toBe(200);
    expect(scrape.headers.get('content-type')).toContain('text/plain');
    expect(await scrape.text()).toContain('http_request_duration_seconds');
    expect((await fetch(`http://127.0.0.1:${port}/account/v1.0.1/auths`)).status).toBe(404);
  });

  it('is closed with the application', async () => {
    const port = h.app.get(MetricsServer).port();
    await h.app.close();
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
