import { ALL_APPS, asAppToken } from '../src/common/app-scope';
import { DataSource } from 'typeorm';
import { maintainAuditPartitions } from '../src/audit/audit-partitions';
import { AUDIT_ID_LOCK, AuditEventsRepository, auditEventCte, auditEventParams } from '../src/audit/audit-events.repository';
import { APP_A, type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedAuth } from './support/fixtures';
import type { AuditEventView } from '../src/audit/audit-events.service';

/** An app of its own for the cursor and filter tests, so that its trail holds only their events. */
const PAGED_APP = { appToken: 'app-a0d17', secret: 'secret-of-the-audit-app', aesKey: 'k', aesMode: 'gcm' } as const;

type EventView = AuditEventView;
interface EventPage {
  response_code: string;
  count: string;
  event_list: EventView[];
  next_event_id: string;
}

const EVENT_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d{3}$/;

describe('audit trail (interface 207)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({
      env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', LOGIN_MAX_FAILURES: '2' },
      apps: [PAGED_APP],
    });
  });
  afterAll(() => h?.close());

  /** Writes an event as the service's writers do, in the caller's open transaction. */
  async function slowWrite(client: { query: (sql: string, params: unknown[]) => Promise<unknown> }, appToken: string, resourceId: string) {
    await client.query(
      `WITH ${auditEventCte(1)} SELECT 1 FROM "audit_event"`,
      auditEventParams({
        appToken: asAppToken(appToken),
        action: 'create',
        resourceType: 'auth',
        resourceId,
        operator: '',
        requestId: '',
        clientIp: '',
        resultCode: '90000',
        changes: '',
      }),
    );
  }

  async function eventsOf(appToken: string, resourceId: string): Promise<Record<string, string>[]> {
    const { rows } = await h.db.query(
      `SELECT event_id::text, action, resource_type, resource_id, operator, request_id, client_ip, result_code, changes
         FROM audit_events WHERE app_token = $1 AND resource_id = $2 ORDER BY audit_events.event_id`,
      [appToken, resourceId],
    );
    return rows as Record<string, string>[];
  }

  const as = (operator: string, requestId: string) => ({ user: operator, headers: { 'X-Request-Id': requestId } });

  describe('one event per change, in the change’s transaction', () => {
    it('records an auth create and modify with operator, request id, client ip, code and the changed fields', async () => {
      expect((await h.a.createAuth('AU-1', { auth_name: 'Read', auth_state: '1' }, as('ops-alice', 'req-create-1'))).status).toBe(201);
      expect((await h.a.modifyAuth('AU-1', { auth_name: 'Read all', auth_state: '1' }, as('ops-bob', 'req-modify-1'))).status).toBe(201);
      const events = await eventsOf(APP_A.appToken, 'AU-1');
      expect(events).toEqual([
        expect.objectContaining({
          action: 'create',
          resource_type: 'auth',
          operator: 'ops-alice',
          request_id: 'req-create-1',
          client_ip: '127.0.0.1',
          result_code: '90000',
        }),
        expect.objectContaining({
          action: 'modify',
          resource_type: 'auth',
          operator: 'ops-bob',
          request_id: 'req-modify-1',
          result_code: '90000',
        }),
      ]);
      expect(JSON.parse(events[0]!.changes!)).toEqual({ auth_name: { to: 'Read' }, auth_state: { to: '1' } });
      // Only what changed: auth_state was sent again with the same value.
      expect(JSON.parse(events[1]!.changes!)).toEqual({ auth_name: { from: 'Read', to: 'Read all' } });
    });

    it('records a group create and modify', async () => {
      await seedAuth(h.a, 'AU-G1');
      expect((await h.a.createGroup('GR-1', { group_name: 'Team', group_auths: 'AU-G1' })).status).toBe(201);
      expect((await h.a.modifyGroup('GR-1', { group_desc: 'the team' })).status).toBe(201);
      const events = await eventsOf(APP_A.appToken, 'GR-1');
      expect(events.map((e) => [e.action, e.resource_type, e.operator])).toEqual([
        ['create', 'auth_group', ''],
        ['modify', 'auth_group', ''],
      ]);
      expect(JSON.parse(events[0]!.changes!)).toEqual({ group_name: { to: 'Team' }, group_auths: { to: 'AU-G1' } });
      expect(JSON.parse(events[1]!.changes!)).toEqual({ group_desc: { from: null, to: 'the team' } });
    });

    it('keeps changes and events one to one under concurrent writers', async () => {
      const ids = Array.from({ length: 40 }, (_, i) => `CC-${i % 20}`);
      const results = await Promise.all(
        ids.map((id, i) => (i < 20 ? h.a.createAuth(id, { auth_name: 'c' }) : h.a.modifyAuth(id, { auth_name: `m${i}` }))),
      );
      const created = results.filter((r, i) => i < 20 && r.status === 201).length;
      const modified = results.filter((r, i) => i >= 20 && r.status === 201).length;
      expect(created).toBe(20);
      const { rows } = await h.db.query(
        `SELECT action, count(*)::int AS n FROM audit_events WHERE app_token = $1 AND resource_id LIKE 'CC-%' GROUP BY action ORDER BY action`,
        [APP_A.appToken],
      );
      expect(rows).toEqual([{ action: 'create', n: 20 }, ...(modified > 0 ? [{ action: 'modify', n: modified }] : [])]);
    });
  });

  describe('append-only', () => {
    it('refuses UPDATE and DELETE on the events table', async () => {
      await expect(h.db.query(`UPDATE audit_events SET operator = 'forged'`)).rejects.toThrow(/append-only/);
      await expect(h.db.query(`DELETE FROM audit_events`)).rejects.toThrow(/append-only/);
      const { rows } = await h.db.query(`SELECT count(*)::int AS n FROM audit_events WHERE operator = 'forged'`);
      expect(rows[0].n).toBe(0);
    });

    it('retention drops whole partitions that ended before the horizon, and only those', async () => {
      const ds = h.app.get(DataSource);
      await h.db.query(
        `CREATE TABLE audit_events_y2020m01 PARTITION OF audit_events FOR VALUES FROM ('2020-01-01 00:00Z') TO ('2020-02-01 00:00Z')`,
      );
      await h.db.query(
        `CREATE TABLE audit_events_y2020m02 PARTITION OF audit_events FOR VALUES FROM ('2020-02-01 00:00Z') TO ('2020-03-01 00:00Z')`,
      );
      await h.db.query(
        `INSERT INTO audit_events (event_time, app_token, action, resource_type, resource_id, result_code)
         VALUES ('2020-01-15Z', 'app-old', 'create', 'auth', 'OLD-1', '90000'), ('2020-02-15Z', 'app-old', 'create', 'auth', 'OLD-2', '90000')`,
      );
      const current = await h.db.query(`SELECT count(*)::int AS n FROM audit_events WHERE event_time > now() - interval '1 day'`);
      // On 2020-03-20 with 30 days kept, January (ended 2020-02-01) is past; February (ended 2020-03-01) is not.
      const { dropped } = await maintainAuditPartitions(ds, 30, new Date('2020-03-20T00:00:00Z'));
      expect(dropped).toEqual(['audit_events_y2020m01']);
      const { rows } = await h.db.query(`SELECT resource_id FROM audit_events WHERE app_token = 'app-old' ORDER BY resource_id`);
      expect(rows).toEqual([{ resource_id: 'OLD-2' }]);
      expect((await h.db.query(`SELECT count(*)::int AS n FROM audit_events WHERE event_time > now() - interval '1 day'`)).rows).toEqual(
        current.rows,
      );
      // The default retention, now: the 2020 partition goes, this month's stays.
      expect((await maintainAuditPartitions(ds, 400)).dropped).toEqual(['audit_events_y2020m02']);
      expect((await h.db.query(`SELECT count(*)::int AS n FROM audit_events WHERE event_time > now() - interval '1 day'`)).rows).toEqual(
        current.rows,
      );
    });

    it('has the coming months’ partitions ready', async () => {
      const { rows } = await h.db.query(
        `SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'audit_events'::regclass
           AND inhrelid::regclass::text IN (SELECT 'audit_events_y' || to_char(d, 'YYYY') || 'm' || to_char(d, 'MM')
             FROM generate_series(date_trunc('month', now() AT TIME ZONE 'UTC'), date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months', interval '1 month') d)`,
      );
      expect(rows[0].n).toBe(3);
    });
  });

  describe('GET /audit-events', () => {
    const paged = () => h.client(PAGED_APP);

    it('answers the app’s own events, oldest first, every field a string', async () => {
      await paged().createAuth('P-1', { auth_name: 'one' }, as('op-1', 'req-p-1'));
      const res = await paged().auditEvents();
      expect(res.status).toBe(200);
      const body = res.body as unknown as EventPage;
      expect(body).toMatchObject({ response_code: '90000', count: '1', next_event_id: '' });
      expect(body.event_list).toEqual([
        {
          event_id: expect.stringMatching(/^\d+$/),
          event_time: expect.stringMatching(EVENT_TIME),
          app_token: PAGED_APP.appToken,
          action: 'create',
          resource_type: 'auth',
          resource_id: 'P-1',
          operator: 'op-1',
          request_id: 'req-p-1',
          client_ip: '127.0.0.1',
          result_code: '90000',
          changes: JSON.stringify({ auth_name: { to: 'one' } }),
        },
      ]);
    });

    it('shows an app none of another app’s events (tenancy)', async () => {
      const a = (await h.a.auditEvents({ page_size: '1000' })).body as unknown as EventPage;
      expect(a.event_list.length).toBeGreaterThan(0);
      expect(new Set(a.event_list.map((e) => e.app_token))).toEqual(new Set([APP_A.appToken]));
      const b = await h.b.auditEvents();
      expect(b.status).toBe(200);
      expect(b.body).toMatchObject({ response_code: '20701', count: '0', event_list: [], next_event_id: '' });
      // A resource id of app A asked by app B: nothing.
      expect((await h.b.auditEvents({ resource_id: 'AU-1' })).body).toMatchObject({ response_code: '20701', count: '0' });
    });

    it('filters by resource, action, operator and time', async () => {
      await paged().modifyAuth('P-1', { auth_name: 'uno' }, as('op-2', 'req-p-2'));
      await paged().createAuth('P-2', { auth_name: 'two' }, as('op-2', 'req-p-3'));
      const ids = async (q: Record<string, string>) =>
        ((await paged().auditEvents(q)).body as unknown as EventPage).event_list.map((e) => e.request_id);
      expect(await ids({ resource_type: 'auth', resource_id: 'P-1' })).toEqual(['req-p-1', 'req-p-2']);
      expect(await ids({ action: 'create' })).toEqual(['req-p-1', 'req-p-3']);
      expect(await ids({ operator: 'op-2' })).toEqual(['req-p-2', 'req-p-3']);
      expect(await ids({ from_time: '2000-01-01 00:00:00', to_time: '2099-01-01 00:00:00' })).toEqual(['req-p-1', 'req-p-2', 'req-p-3']);
      expect(await ids({ to_time: '2000-01-01 00:00:00' })).toEqual([]);
      expect((await paged().auditEvents({ resource_type: 'user' })).body).toMatchObject({ response_code: '20701' });
    });

    it.each([
      ['resource_type', 'role'],
      ['action', 'delete'],
      ['from_time', '2026-13-01 00:00:00'],
      ['to_time', '2026-01-01'],
      ['after_event_id', '-1'],
      ['page_size', '1001'],
      ['page_size', '0'],
      // docs/contract.md §13: dates that do not exist are refused, naming the field, never a 500.
      ['from_time', '2025-02-30 00:00:00'],
      ['to_time', '2025-02-29 12:00:00'],
      ['from_time', '0000-01-01 00:00:00'],
      ['to_time', '2026-04-31 23:59:59'],
    ])('answers 400 90100 for %s=%s', async (name, value) => {
      const res = await paged().auditEvents({ [name]: value });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ response_code: '90100', response_message: expect.stringContaining(name) });
    });

    it('accepts 29 February of a leap year', async () => {
      expect((await paged().auditEvents({ from_time: '2024-02-29 00:00:00', to_time: '2000-02-29 00:00:00' })).status).toBe(200);
    });

    it('pages by cursor: next_event_id "" after an exactly full last page', async () => {
      const first = (await paged().auditEvents({ page_size: '2' })).body as unknown as EventPage;
      expect(first).toMatchObject({ count: '2', next_event_id: first.event_list[1]!.event_id });
      const second = (await paged().auditEvents({ page_size: '1', after_event_id: first.next_event_id })).body as unknown as EventPage;
      expect(second).toMatchObject({ count: '1', next_event_id: '' });
      expect(second.event_list[0]!.request_id).toBe('req-p-3');
    });

    it('does not let the cursor pass an event drawn earlier but committed later', async () => {
      const last = ((await paged().auditEvents({ page_size: '1000' })).body as unknown as EventPage).event_list.at(-1)?.event_id;
      const after = (id: string | undefined) => (id === undefined ? {} : { after_event_id: id });
      // A writer that has drawn its event id and not committed yet (as AuditTrail writes).
      const slow = await h.db.connect();
      try {
        await slow.query('BEGIN');
        await slowWrite(slow, PAGED_APP.appToken, 'SLOW');
        // A later id, committed first.
        expect((await paged().createAuth('FAST', { auth_name: 'fast' })).status).toBe(201);
        const reading = paged().auditEvents(after(last));
        await new Promise((r) => setTimeout(r, 300));
        await slow.query('COMMIT');
        const page = (await reading).body as unknown as EventPage;
        const next = page.event_list.at(-1)?.event_id ?? last;
        const rest = ((await paged().auditEvents(after(next))).body as unknown as EventPage).event_list;
        expect([...page.event_list, ...rest].map((e) => e.resource_id)).toEqual(['SLOW', 'FAST']);
      } finally {
        await slow.query('ROLLBACK').catch(() => undefined);
        slow.release();
      }
    });

    it("never waits for another app's uncommitted write; that app's page and a page across apps do", async () => {
      const slow = await h.db.connect();
      const repository = h.app.get(AuditEventsRepository);
      const settled = <T>(p: Promise<T>) =>
        Promise.race([p.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 1500))]);
      try {
        await slow.query('BEGIN');
        await slowWrite(slow, APP_A.appToken, 'OTHER-APP-SLOW');
        // This app's page answers while app A's writer holds its lock...
        const started = Date.now();
        const own = await paged().auditEvents({ page_size: '1' });
        process.stdout.write(`audit: a page of one app answered in ${Date.now() - started} ms while another app's write was uncommitted\n`);
        expect(own).toMatchObject({ status: 200, body: { response_code: '90000' } });
        // ...app A's own page and a page across apps wait for it (they could skip its event).
        const ofA = h.a.auditEvents({ resource_id: 'OTHER-APP-SLOW' });
        const across = repository.page(ALL_APPS, { resourceId: 'OTHER-APP-SLOW' }, 'UTC', 10);
        expect(await settled(ofA)).toBe('waiting');
        expect(await settled(across)).toBe('waiting');
        await slow.query('COMMIT');
        expect((await ofA).body).toMatchObject({ response_code: '90000', count: '1' });
        expect((await across).map((e) => [e.app_token, e.resource_id])).toEqual([[APP_A.appToken, 'OTHER-APP-SLOW']]);
      } finally {
        await slow.query('ROLLBACK').catch(() => undefined);
        slow.release();
      }
    });

    it('waits for a writer of the previous release (only the old trail lock) during a rolling upgrade', async () => {
      const slow = await h.db.connect();
      const settled = <T>(p: Promise<T>) =>
        Promise.race([p.then(() => 'answered'), new Promise((r) => setTimeout(() => r('waiting'), 1500))]);
      try {
        await slow.query('BEGIN');
        await slow.query(
          `WITH "lock" AS (SELECT pg_advisory_xact_lock_shared(${AUDIT_ID_LOCK}))
           INSERT INTO audit_events (app_token, action, resource_type, resource_id, result_code) SELECT $1, 'create', 'auth', 'OLD-SLOW', '90000' FROM "lock"`,
          [PAGED_APP.appToken],
        );
        const reading = paged().auditEvents({ resource_id: 'OLD-SLOW' });
        expect(await settled(reading)).toBe('waiting');
        await slow.query('COMMIT');
        expect((await reading).body).toMatchObject({ response_code: '90000', count: '1' });
      } finally {
        await slow.query('ROLLBACK').catch(() => undefined);
        slow.release();
      }
    });

    it('returns every event exactly once while new events arrive', async () => {
      let writing = true;
      let written = 0;
      const writers = Array.from({ length: 4 }, async (_, w) => {
        for (let i = 0; writing; i++) {
          const res = await paged().createAuth(`W${w}-${i}`, { auth_name: 'w' });
          if (res.status === 201) written++;
        }
      });
      const seen: string[] = [];
      let after = '';
      for (let pages = 0; pages < 400; pages++) {
        const res = await paged().auditEvents({ page_size: '3', ...(after ? { after_event_id: after } : {}) });
        const body = res.body as unknown as EventPage;
        seen.push(...body.event_list.map((e) => e.event_id));
        if (body.event_list.length > 0) after = body.event_list[body.event_list.length - 1]!.event_id;
        if (pages === 60) writing = false;
        if (!writing && body.next_event_id === '' && pages > 60) {
          await Promise.all(writers);
          const tail = (await paged().auditEvents({ page_size: '1000', after_event_id: after })).body as unknown as EventPage;
          seen.push(...tail.event_list.map((e) => e.event_id));
          break;
        }
      }
      await Promise.all(writers);
      expect(written).toBeGreaterThan(10);
      const { rows } = await h.db.query(
        `SELECT event_id::text AS id FROM audit_events WHERE app_token = $1 ORDER BY audit_events.event_id`,
        [PAGED_APP.appToken],
      );
      expect(new Set(seen).size).toBe(seen.length);
      expect(seen).toEqual(rows.map((r: { id: string }) => r.id));
    });
  });
});
