/**
 * A login flood from one app (its secret ships in a mobile app): with the default
 * `LOGIN_RATE_LIMIT_PER_MINUTE` and the bounded hashing queue, the flooding app gets 429 90429
 * with `Retry-After`, while another app's logins and reads all succeed and liveness stays quick.
 */
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { figure, median, percentile } from '../src/figures';
import { stopAllServices } from '../src/service-process';

describe('login flood from one app', () => {
  let f: AccountFixture;

  beforeAll(async () => {
    // The service's default login budget (LOGIN_RATE_LIMIT_PER_MINUTE unset).
    f = await accountOnFreshDatabase('account-login-flood', { LOGIN_RATE_LIMIT_PER_MINUTE: undefined, PASSWORD_HASH_QUEUE: undefined });
    for (const [client, id] of [
      [f.a, 'flood-a'],
      [f.b, 'flood-b'],
    ] as const) {
      const res = await client.registerUser(id, { user_name: 'Flood', user_type: 'C', user_pwd: 'Secret-pass-1' });
      expect(res.status).toBe(201);
    }
  });

  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  it('refuses the flooding app with 429 and Retry-After; the other app is served throughout', async () => {
    const FLOOD_MS = 10_000;
    const CONCURRENCY = 64;
    const until = Date.now() + FLOOD_MS;
    const flood: Record<string, number> = {};
    let withRetryAfter = 0;
    let limited = 0;
    const flooder = async () => {
      let n = 0;
      while (Date.now() < until) {
        // Unknown ids: no lockout in the way, the full password work each time.
        const r = await f.a.login(`unknown-${Math.random().toString(36).slice(2)}-${n++}`, 'wrong-password');
        flood[r.status] = (flood[r.status] ?? 0) + 1;
        if (r.status === 429) {
          limited += 1;
          if (Number(r.headers.get('retry-after')) >= 1) withRetryAfter += 1;
        }
      }
    };
    const other = { ok: 0, failed: [] as string[], ms: [] as number[] };
    const otherApp = async () => {
      while (Date.now() < until) {
        const t = performance.now();
        const login = await f.b.login('flood-b', 'Secret-pass-1');
        const read = await f.b.getUser('flood-b');
        other.ms.push(performance.now() - t);
        if (login.status === 200 && read.status === 200) other.ok += 1;
        else other.failed.push(`${login.status}/${read.status}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    };
    const live: number[] = [];
    const probe = async () => {
      while (Date.now() < until) {
        const t = performance.now();
        const r = await fetch(`${f.svc.baseUrl}/health/live`);
        live.push(r.status === 200 ? performance.now() - t : Infinity);
        await new Promise((r2) => setTimeout(r2, 100));
      }
    };
    await Promise.all([...Array.from({ length: CONCURRENCY }, flooder), otherApp(), probe()]);

    figure('login-flood', `flooding app: answers by status (${CONCURRENCY} concurrent, ${FLOOD_MS / 1000} s)`, JSON.stringify(flood));
    figure('login-flood', 'other app: login + read pairs served', `${other.ok} of ${other.ok + other.failed.length}`);
    figure('login-flood', 'other app: login + read, median / worst', `${median(other.ms).toFixed(0)} / ${Math.max(...other.ms).toFixed(0)}`, 'ms');
    figure('login-flood', '/health/live: median / p99 / worst', `${median(live).toFixed(0)} / ${percentile(live, 99).toFixed(0)} / ${Math.max(...live).toFixed(0)}`, 'ms', 'worst < 3000');

    expect(limited).toBeGreaterThan(0);
    expect(withRetryAfter).toBe(limited);
    expect(Object.keys(flood).filter((s) => s !== '401' && s !== '429')).toEqual([]);
    expect(other.failed).toEqual([]);
    expect(other.ok).toBeGreaterThan(5);
    expect(live.every(Number.isFinite)).toBe(true);
    expect(Math.max(...live)).toBeLessThan(3000);
  });
});
