import fc from 'fast-check';
import type { AppCredential } from '@geoaccount/signing';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { APPS } from '../src/apps';
import { accountDigest } from '../src/database';
import { accountEnvelopeProblem } from '../src/envelope';
import { figure } from '../src/figures';
import { type AccountFuzzRequest, accountRequest, sendAccountRequest } from '../src/fuzz/account-requests';
import { stopAllServices } from '../src/service-process';

/** Requests in all; they run in one lane per app, each lane sequential. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 10_000);
const LANES = APPS.length;

describe('account fuzzing', () => {
  let f: AccountFixture;

  beforeAll(async () => {
    f = await accountOnFreshDatabase('account-fuzz');
  });
  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  it('answers 400/90100 to what fuzzing once turned into a 500: NUL in an id list or in the nonce', async () => {
    const invalid = (field: string) => ({ status: 400, body: { response_code: '90100', response_message: `invalid ${field}` } });
    expect(await f.a.listGroups({ group_ids: 'G1,\u0000' })).toMatchObject(invalid('group_ids'));
    expect(await f.a.listAuths({ auth_ids: 'A\u00001' })).toMatchObject(invalid('auth_ids'));
    expect(await f.a.getAuth('A1', { nonce: 'n\u0000' })).toMatchObject(invalid('nonce'));
  });

  it(`${RUNS} generated requests: no 5xx, a valid envelope with a known code each, no change by a refused one`, async () => {
    const byStatus: Record<string, number> = {};
    const byEndpoint: Record<string, number> = {};
    let sent = 0;
    let refused = 0;
    const started = Date.now();

    // Lane k sends as app k only, so every change to app k's rows must come from one of lane
    // k's accepted requests: a refused request of the lane that changes them fails (and so
    // would a write across tenants by another lane).
    const lane = async (app: AppCredential, other: AppCredential, seed: number) => {
      let digest = await accountDigest(f.db.pool, app.appToken);
      await fc.assert(
        fc.asyncProperty(accountRequest, async (r: AccountFuzzRequest) => {
          const res = await sendAccountRequest(f.svc.baseUrl, r, app, other);
          sent++;
          const code = (res.body as Record<string, unknown> | null)?.response_code;
          const key = `${res.status}/${String(code)}`;
          byStatus[key] = (byStatus[key] ?? 0) + 1;
          byEndpoint[r.endpoint] = (byEndpoint[r.endpoint] ?? 0) + 1;
          if (res.status >= 500) throw new Error(`HTTP ${res.status}: ${res.text.slice(0, 300)}`);
          const problem = accountEnvelopeProblem(res.status, res.body);
          if (problem) throw new Error(`invalid envelope (HTTP ${res.status}): ${problem}`);
          const after = await accountDigest(f.db.pool, app.appToken);
          if (res.status >= 300) {
            refused++;
            if (after !== digest) throw new Error(`refused request (HTTP ${key}) changed the database`);
          }
          digest = after;
        }),
        { numRuns: Math.ceil(RUNS / LANES), seed, endOnFailure: true },
      );
    };
    const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
    figure('fuzz-account', 'fast-check seed (FUZZ_SEED to replay)', seed);
    await Promise.all(APPS.map((app, k) => lane(app, APPS[(k + 1) % LANES]!, seed + k)));

    const seconds = (Date.now() - started) / 1000;
    expect(f.svc.alive).toBe(true);
    const accepted = sent - refused;
    figure(
      'fuzz-account',
      'generated requests / refused / accepted',
      `${sent} / ${refused} / ${accepted}`,
      '',
      '≥ 10000 requests, 0 × 5xx',
    );
    figure(
      'fuzz-account',
      'answers by status/code',
      JSON.stringify(Object.fromEntries(Object.entries(byStatus).sort((a, b) => b[1] - a[1]))),
    );
    figure('fuzz-account', 'throughput (with a digest after each request)', sent / seconds, 'requests/s');
    expect(sent).toBeGreaterThanOrEqual(RUNS);
    expect(Object.keys(byStatus).filter((k) => k.startsWith('5'))).toEqual([]);
    // The generator reaches every endpoint and gets past validation often enough to matter.
    expect(Object.keys(byEndpoint).length).toBe(16);
    expect(accepted).toBeGreaterThan(sent / 20);
  });
});
