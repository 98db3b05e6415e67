/**
 * Users pages found by position (migration `UserOrdinals1767226200000`): every user exactly
 * once across the pages of the app and of each org, in registration order, after concurrent
 * registrations, org moves (also concurrent) and deletions in SQL.
 */
import type { TestAccountClient } from '@geoaccount/client/internal';
import { type AccountHarness, startAccountHarness } from './support/account-harness';
import { NEW_USER, OK, seedUser } from './support/user-fixtures';

const PAGES_APP = { appToken: 'app-9a6e5', secret: 'secret-of-the-pages-app', aesKey: 'k', aesMode: 'gcm' } as const;
const ORGS = ['ORG-A', 'ORG-B', 'ORG-C'];

interface ListBody {
  response_code: string;
  count: string;
  list: { user_login_id: string; org_id: string | null }[];
}

describe('users pages by position (interface 203)', () => {
  let h: AccountHarness;
  let api: TestAccountClient;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' }, apps: [PAGES_APP] });
    api = h.client(PAGES_APP);
  });
  afterAll(() => h?.close());

  /** Every page of size `size` of a query, concatenated; each page's count checked against the first. */
  async function allPages(query: Record<string, string>, size: number): Promise<{ count: number; ids: string[] }> {
    const ids: string[] = [];
    let count = -1;
    for (let page = 1; ; page++) {
      const res = await api.listUsers({ ...query, page_number: String(page), page_size: String(size) });
      const body = res.body as ListBody;
      if (count < 0) count = Number(body.count);
      expect(Number(body.count)).toBe(count);
      // The page past the last one: 404 20201 with the count (docs/contract.md §13).
      expect(res.status).toBe(body.list.length === 0 && count > 0 ? 404 : 200);
      if (body.list.length === 0) break;
      expect(body.list.length).toBeLessThanOrEqual(size);
      ids.push(...body.list.map((u) => u.user_login_id));
    }
    return { count, ids };
  }

  /** What the pages must show: the stored users in registration order (app position), all or of one org. */
  async function expected(org?: string): Promise<string[]> {
    const { rows } = await h.db.query(
      `SELECT user_login_id FROM users WHERE app_token = $1 AND ($2::varchar IS NULL OR org_id = $2) ORDER BY app_ord`,
      [PAGES_APP.appToken, org ?? null],
    );
    return rows.map((r: { user_login_id: string }) => r.user_login_id);
  }

  /** The positions are dense and follow registration order, in the app and in every org; the counters match. */
  async function expectDense(): Promise<void> {
    const { rows } = await h.db.query(
      `SELECT count(*) FILTER (WHERE app_ord <> app_rank)::int AS app_wrong,
              count(*) FILTER (WHERE org_id IS NOT NULL AND org_ord IS DISTINCT FROM org_rank)::int AS org_wrong,
              count(*) FILTER (WHERE org_id IS NULL AND org_ord IS NOT NULL)::int AS org_stray
         FROM (SELECT app_ord, org_id, org_ord,
                      row_number() OVER (ORDER BY app_ord) AS app_rank,
                      row_number() OVER (PARTITION BY org_id ORDER BY app_ord) AS org_rank
                 FROM users WHERE app_token = $1) u`,
      [PAGES_APP.appToken],
    );
    expect(rows[0]).toEqual({ app_wrong: 0, org_wrong: 0, org_stray: 0 });
    const counts = await h.db.query(
      `SELECT (SELECT total::int FROM user_counts WHERE app_token = $1) AS app_total,
              (SELECT count(*)::int FROM users WHERE app_token = $1) AS app_actual,
              (SELECT coalesce(json_agg(json_build_array(org_id, total::int) ORDER BY org_id), '[]') FROM user_org_counts WHERE app_token = $1 AND total > 0) AS org_totals,
              (SELECT coalesce(json_agg(json_build_array(org_id, n) ORDER BY org_id), '[]') FROM
                 (SELECT org_id, count(*)::int AS n FROM users WHERE app_token = $1 AND org_id IS NOT NULL GROUP BY org_id) o) AS org_actual`,
      [PAGES_APP.appToken],
    );
    const c = counts.rows[0] as { app_total: number; app_actual: number; org_totals: unknown; org_actual: unknown };
    expect(c.app_total).toBe(c.app_actual);
    expect(c.org_totals).toEqual(c.org_actual);
  }

  /** Pages of the app and of every org, in several sizes, against the stored order. */
  async function expectPagesComplete(): Promise<void> {
    for (const size of [1, 7, 50]) {
      const all = await allPages({}, size);
      const want = await expected();
      expect(all).toEqual({ count: want.length, ids: want });
    }
    for (const org of ORGS) {
      const pages = await allPages({ org_id: org }, 4);
      const want = await expected(org);
      expect(pages).toEqual({ count: want.length, ids: want });
    }
  }

  it('numbers concurrent registrations densely, in the app and in each org', async () => {
    const ids = Array.from({ length: 60 }, (_, i) => `pg-${String(i).padStart(2, '0')}`);
    await Promise.all(ids.map((id, i) => seedUser(api, id, i % 4 === 3 ? {} : { org_id: ORGS[i % 3]! })));
    await expectDense();
    expect((await expected()).sort()).toEqual(ids);
    await expectPagesComplete();
  });

  it('answers the same pages as a skip-and-take over the registration order', async () => {
    const order = await expected();
    const res = await api.listUsers({ page_number: '3', page_size: '7' });
    expect(res.body).toMatchObject({ ...OK, count: String(order.length) });
    expect((res.body as ListBody).list.map((u) => u.user_login_id)).toEqual(order.slice(14, 21));
    const orgOrder = await expected('ORG-B');
    const org = await api.listUsers({ org_id: 'ORG-B', page_number: '2', page_size: '5' });
    expect((org.body as ListBody).list.map((u) => u.user_login_id)).toEqual(orgOrder.slice(5, 10));
    expect((org.body as ListBody).list.every((u) => u.org_id === 'ORG-B')).toBe(true);
  });

  it('moves a user to another org: no hole in the old one, the user in the new one at its registration place', async () => {
    const before = { a: await expected('ORG-A'), b: await expected('ORG-B') };
    const mover = before.a[2]!;
    const res = await api.modifyUser(mover, { org_id: 'ORG-B' });
    expect(res.body).toMatchObject(OK);
    await expectDense();
    expect(await expected('ORG-A')).toEqual(before.a.filter((id) => id !== mover));
    const b = await expected('ORG-B');
    expect(b).toHaveLength(before.b.length + 1);
    expect(b).toContain(mover);
    await expectPagesComplete();

    // Into an org of its own, out of every org (the empty org_id is an org like any other), and back.
    for (const org of ['ORG-NEW', '', 'ORG-A']) {
      expect((await api.modifyUser(mover, { org_id: org })).body).toMatchObject(OK);
      await expectDense();
    }
    const own = await api.listUsers({ org_id: 'ORG-A' });
    expect((own.body as ListBody).list.map((u) => u.user_login_id)).toEqual(before.a);
  });

  it('keeps the positions dense under concurrent moves between the same orgs and registrations', async () => {
    const a = await expected('ORG-A');
    const b = await expected('ORG-B');
    const moves = [...a.slice(0, 6).map((id) => [id, 'ORG-B']), ...b.slice(0, 6).map((id) => [id, 'ORG-A'])] as [string, string][];
    const results = await Promise.all([
      ...moves.map(([id, org]) => api.modifyUser(id, { org_id: org })),
      ...Array.from({ length: 8 }, (_, i) => api.registerUser(`pg-late-${i}`, { ...NEW_USER, org_id: ORGS[i % 2]! })),
    ]);
    for (const res of results) expect([res.status, res.body]).toEqual([expect.any(Number), expect.objectContaining(OK)]);
    await expectDense();
    await expectPagesComplete();
  });

  it('renumbers after users are deleted in SQL (the service never deletes one)', async () => {
    const order = await expected();
    await h.db.query(`DELETE FROM users WHERE app_token = $1 AND user_login_id = ANY($2)`, [PAGES_APP.appToken, [order[0], order[10], order.at(-1)]]);
    await expectDense();
    await expectPagesComplete();
    const res = await api.listUsers({ page_size: '1000' });
    expect((res.body as ListBody).list.map((u) => u.user_login_id)).toEqual(order.filter((_, i) => i !== 0 && i !== 10 && i !== order.length - 1));
  });
});
