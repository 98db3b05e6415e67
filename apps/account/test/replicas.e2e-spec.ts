import { DataSource } from 'typeorm';
import { BACKGROUND_JOBS_LEASE, JobLeader, claimLease } from '../src/database/job-leader';
import { type AccountHarness, type RunningAccountApp, listenAccountApp, startAccountHarness } from './support/account-harness';

/**
 * Several instances on one database (docs/operations.md "Scale out"): the background jobs run on
 * the one that holds the lease. Killing a holder process is the reliability suite's
 * `replicas` test; here the lease's rules and a graceful hand-over.
 */
describe('the background jobs lease', () => {
  let h: AccountHarness;
  let second: RunningAccountApp;
  let closed = false;

  beforeAll(async () => {
    h = await startAccountHarness();
    second = await listenAccountApp(h.databaseUrl, { env: { LOG_LEVEL: 'silent' } });
  });
  afterAll(async () => {
    if (!closed) await second?.app.close();
    await h?.close();
  });

  const holderRow = async () =>
    (await h.db.query<{ holder: string }>(`SELECT holder FROM job_leases WHERE name = $1`, [BACKGROUND_JOBS_LEASE])).rows[0]?.holder;

  it('is held by exactly one of two instances, the one the row names', async () => {
    const first = h.app.get(JobLeader);
    const other = second.app.get(JobLeader);
    expect(first.holder).not.toBe(other.holder);
    expect([first.isLeader(), other.isLeader()]).toEqual([true, false]);
    expect(await holderRow()).toBe(first.holder);
    // Renewals keep it where it is.
    await other.tick();
    await first.tick();
    await other.tick();
    expect([first.isLeader(), other.isLeader()]).toEqual([true, false]);
  });

  it('is not taken while unexpired, is taken once expired, and is renewed only by its holder', async () => {
    const ds = h.app.get(DataSource);
    expect(await claimLease(ds, 'test-lease', 'one', 60_000)).toBe(true);
    expect(await claimLease(ds, 'test-lease', 'two', 60_000)).toBe(false);
    expect(await claimLease(ds, 'test-lease', 'one', 60_000)).toBe(true);
    await h.db.query(`UPDATE job_leases SET expires_at = now() - interval '1 second' WHERE name = 'test-lease'`);
    expect(await claimLease(ds, 'test-lease', 'two', 60_000)).toBe(true);
    expect(await claimLease(ds, 'test-lease', 'one', 60_000)).toBe(false);
  });

  it('10 instances claiming at once: exactly one gets it', async () => {
    const ds = h.app.get(DataSource);
    const won = await Promise.all(Array.from({ length: 10 }, (_, i) => claimLease(ds, 'race-lease', `instance-${i}`, 60_000)));
    expect(won.filter(Boolean)).toHaveLength(1);
  });

  it('moves to another instance once expired, is given up on shutdown, and is taken at the next renewal', async () => {
    const first = h.app.get(JobLeader);
    const other = second.app.get(JobLeader);
    await h.db.query(`UPDATE job_leases SET expires_at = now() - interval '1 second' WHERE name = $1`, [BACKGROUND_JOBS_LEASE]);
    await other.tick();
    await first.tick();
    expect([first.isLeader(), other.isLeader()]).toEqual([false, true]);
    expect(await holderRow()).toBe(other.holder);
    await second.app.close(); // the holder stops: its lease row is deleted
    closed = true;
    expect(await holderRow()).toBeUndefined();
    await first.tick();
    expect(first.isLeader()).toBe(true);
    expect(await holderRow()).toBe(first.holder);
  });
});
