/**
 * docs/contract.md §13: no request, signed or not, may hold an event loop for long. Long
 * adversarial paths, query strings, headers and bodies of several shapes (runs of name
 * characters after `=` or `:`, scheme-like runs, unclosed quotes, many pairs) are fired at a
 * real account and a real location service while `/health/live` of both is probed; every probe
 * must answer, and the worst probe latency stays far below the seconds a backtracking pattern
 * took (3.9 s for one 16,000-character path before the redaction was rewritten).
 */
import { request as httpRequest } from 'node:http';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { figure } from '../src/figures';
import { ServiceProcess, stopAllServices } from '../src/service-process';

/** Under the services' limit of a request's head (URL and headers). */
const N = 14_000;

const SHAPES: Record<string, string> = {
  'name run after =': `=${'a'.repeat(N)}`,
  'name run after :': `:${'a'.repeat(N)}`,
  'scheme run': `${'a'.repeat(N)}:/x://`,
  'unclosed quote': `"${'a.'.repeat(N / 2)}`,
  'many pairs': 'a=&'.repeat(N / 3),
  'many colons': 'a :'.repeat(N / 3),
  'url password run': `x://u:${'p'.repeat(N)}`,
};

interface Answer {
  status: number;
  ms: number;
}

function send(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
  const url = new URL(baseUrl);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, method, path, headers: body === undefined ? headers : { ...headers, 'Content-Length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
        res.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
      },
    );
    req.setTimeout(60_000, () => req.destroy());
    req.on('error', () => resolve({ status: 0, ms: performance.now() - started }));
    req.end(body);
  });
}

/** Probes `/health/live` every 25 ms until stopped; the worst latency and the failures. */
function probe(baseUrl: string): { stop(): Promise<{ worst: number; count: number; failed: number }> } {
  let running = true;
  let worst = 0;
  let count = 0;
  let failed = 0;
  const loop = (async () => {
    while (running) {
      const a = await send(baseUrl, 'GET', '/health/live');
      count += 1;
      worst = Math.max(worst, a.ms);
      if (a.status !== 200) failed += 1;
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { worst, count, failed };
    },
  };
}

/** Every adversarial request of one service: each shape in the path, the query, a header and a body. */
function attacks(base: string, prefix: string, writePath: string): Array<() => Promise<Answer>> {
  const out: Array<() => Promise<Answer>> = [];
  for (const shape of Object.values(SHAPES)) {
    const encoded = encodeURI(shape).replaceAll('?', '%3F').replaceAll('#', '%23');
    out.push(() => send(base, 'GET', `${prefix}/${encoded}`));
    out.push(() => send(base, 'GET', `${prefix}?${encoded}`));
    out.push(() => send(base, 'GET', `${prefix}?q=${encoded.slice(0, 6000)}&${encoded.slice(0, 6000)}=1`));
    out.push(() => send(base, 'GET', `${prefix}`, { 'X-Request-Id': shape.slice(0, 4000), 'X-Adversarial': shape.slice(0, 4000), 'User-Agent': shape.slice(0, 4000) }));
    out.push(() => send(base, 'POST', writePath, { 'Content-Type': 'application/x-www-form-urlencoded' }, shape));
    out.push(() => send(base, 'POST', writePath, { 'Content-Type': 'application/json' }, `{"auth_name":${JSON.stringify(shape)},${JSON.stringify(shape)}:1}`));
    out.push(() => send(base, 'PUT', `${writePath}/${encoded.slice(0, 4000)}`, { 'Content-Type': 'application/json' }, shape));
  }
  return out;
}

describe('adversarial request data', () => {
  let account: AccountFixture;
  let location: ServiceProcess;

  beforeAll(async () => {
    account = await accountOnFreshDatabase('account-adversarial', { RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' });
    location = await ServiceProcess.start('location', { name: 'location-adversarial', env: { GEOCODER: 'offline', RATE_LIMIT_PER_MINUTE: '0', LOG_LEVEL: 'info' } });
  });

  afterAll(async () => {
    await account?.close();
    await stopAllServices();
  });

  it('never stalls either service: liveness answers throughout, quickly', async () => {
    const services = [
      { name: 'account', base: account.svc.baseUrl, list: attacks(account.svc.baseUrl, '/account/v1.0.1/users', '/account/v1.0.1/auths') },
      { name: 'location', base: location.baseUrl, list: attacks(location.baseUrl, '/lbsapi/api/lbsQuery', '/lbsapi/api/addressQuery') },
    ];
    const probes = services.map((s) => ({ name: s.name, probe: probe(s.base) }));
    await new Promise((r) => setTimeout(r, 200));
    const started = performance.now();
    const statuses: Record<string, number> = {};
    let worstAttack = 0;
    // Four rounds, four requests of each service at a time.
    for (let round = 0; round < 4; round += 1) {
      for (const s of services) {
        for (let i = 0; i < s.list.length; i += 4) {
          const answers = await Promise.all(s.list.slice(i, i + 4).map((fire) => fire()));
          for (const a of answers) {
            statuses[a.status] = (statuses[a.status] ?? 0) + 1;
            worstAttack = Math.max(worstAttack, a.ms);
          }
        }
      }
    }
    const elapsed = performance.now() - started;
    await new Promise((r) => setTimeout(r, 200));
    const sent = Object.values(statuses).reduce((a, b) => a + b, 0);
    figure('adversarial', 'adversarial requests sent (both services)', sent);
    figure('adversarial', 'their statuses', JSON.stringify(statuses));
    figure('adversarial', 'slowest adversarial answer', worstAttack, 'ms');
    figure('adversarial', 'time for all of them', elapsed, 'ms');
    for (const p of probes) {
      const r = await p.probe.stop();
      figure('adversarial', `${p.name} /health/live: worst latency over ${r.count} probes`, r.worst, 'ms', '< 3000');
      expect(r.failed).toBe(0);
      expect(r.count).toBeGreaterThan(10);
      // A stall of seconds (quadratic redaction) is what this catches; not a tight bound.
      expect(r.worst).toBeLessThan(3000);
    }
    // Every request was answered, none with a 5xx.
    expect(statuses['0']).toBeUndefined();
    expect(Object.keys(statuses).filter((s) => Number(s) >= 500)).toEqual([]);
    expect(account.svc.alive && location.alive).toBe(true);
  });
});
