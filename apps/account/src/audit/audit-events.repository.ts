import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GenerateSql, MANAGER, SAMPLE_AUDIT_ROW } from '../database/generate-sql';
import { ALL_APPS, type AppScope, type AppToken, asAppToken } from '../common/app-scope';

/**
 * Writers hold two advisory locks shared from the moment an event id is drawn until their
 * transaction ends: their app's, `(AUDIT_APP_LOCK, hashtext(app_token))`, and the trail's,
 * `AUDIT_TRAIL_LOCK`. A page of one app takes its app's lock exclusively, so it sees every event
 * of that app whose id it could skip past already committed (or rolled back) — the cursor returns
 * each event exactly once — and never waits for another app's writers. A page across apps takes
 * the trail's lock exclusively: it waits for every writer. Two apps whose tokens hash alike
 * share a lock, which only makes one wait for the other.
 *
 * Every page also takes `AUDIT_ID_LOCK` exclusively: the one lock of the releases before, which
 * their writers still take shared while both versions serve one database during a rolling
 * upgrade (docs/operations.md, "Upgrade with migrations"). Current writers never take it, so it
 * makes a page wait only for writers of such a release (and for other pages' statements, as
 * before). Remove it from the pages in the release after the next.
 */
export const AUDIT_ID_LOCK = 0x61756474; // 'audt'

/** The lock every current writer takes shared and a page across apps exclusively. */
export const AUDIT_TRAIL_LOCK = 0x61756477; // 'audw'

/** The first key of the per-app lock (the second is `hashtext(app_token)`). */
export const AUDIT_APP_LOCK = 0x61756461; // 'auda'

/** An event as stored (its id and time are the database's). */
export interface AuditEventRow {
  appToken: AppToken;
  action: string;
  resourceType: string;
  resourceId: string;
  operator: string;
  requestId: string;
  clientIp: string;
  resultCode: string;
  /** JSON text, `""` when none. */
  changes: string;
}

/** An event as read back. */
export interface StoredAuditEvent {
  event_id: string;
  event_time: Date;
  app_token: string;
  action: string;
  resource_type: string;
  resource_id: string;
  operator: string;
  request_id: string;
  client_ip: string;
  result_code: string;
  changes: string;
}

/** The filters of an events page; absent ones do not filter. */
export interface AuditEventFilter {
  resourceType?: string;
  resourceId?: string;
  action?: string;
  operator?: string;
  /** Only events after this id. */
  afterEventId?: string;
  /** Local times (`YYYY-MM-DD HH:MM:SS`) in the page's zone: from (inclusive), to (exclusive). */
  fromTime?: string;
  toTime?: string;
}

/** Whose events a page reads: the apps (`undefined`: every app, admin-level `""` included) and the resource types. */
export interface AuditScope {
  /** `undefined`: every app, admin-level events included (an operator's cross-app read). */
  appTokens?: readonly AppToken[];
  resourceTypes?: readonly string[];
}

/** One app, every app ({@link ALL_APPS}: admin-level events `""` included), or a scope of several. */
export type AuditPageScope = AppScope | AuditScope;

function auditScope(scope: AuditPageScope): AuditScope {
  if (scope === ALL_APPS) return {};
  if (typeof scope === 'string') return { appTokens: [scope] };
  return scope;
}

/** The app of the recorded statements' cases. */
const APP = asAppToken('app-7f3a9c2e41d08b56');

/** How many parameters {@link auditEventCte} takes. */
export const AUDIT_EVENT_PARAMS = 9;

/**
 * The event's insert as CTEs for a data-modifying statement: `"audit_lock"` takes the id locks
 * shared (the trail's and the app's), `"audit_event"` inserts the row of parameters `$first` … `$first + 8` (see
 * {@link auditEventParams}). With `onlyIf`, the name of a CTE of the same statement, the event
 * is written only when that CTE returns a row (the change happened). The statement is one
 * transaction on its own, or runs inside the caller's: the event commits with the change or
 * not at all.
 */
export function auditEventCte(first: number, onlyIf?: string): string {
  const p = (i: number) => `$${first + i}`;
  return `"audit_lock" AS (SELECT pg_advisory_xact_lock_shared(${AUDIT_TRAIL_LOCK}), pg_advisory_xact_lock_shared(${AUDIT_APP_LOCK}, hashtext(${p(0)}::text))),
    "audit_event" AS (
      INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
      SELECT ${p(0)}, ${p(1)}, ${p(2)}, ${p(3)}, ${p(4)}, ${p(5)}, ${p(6)}, ${p(7)}, ${p(8)} FROM "audit_lock"
      ${onlyIf === undefined ? '' : `WHERE EXISTS (SELECT 1 FROM "${onlyIf}")`}
      RETURNING 1)`;
}

/** The parameters of {@link auditEventCte}, in order. */
export function auditEventParams(row: AuditEventRow): unknown[] {
  return [
    row.appToken,
    row.action,
    row.resourceType,
    row.resourceId,
    row.operator,
    row.requestId,
    row.clientIp,
    row.resultCode,
    row.changes,
  ];
}

/** The SQL of the audit trail (`audit_events`): its writes and the pages of interface 207. */
@Injectable()
export class AuditEventsRepository {
  private readonly insertSql = `WITH ${auditEventCte(1)} SELECT 1 FROM "audit_event"`;

  constructor(private readonly dataSource: DataSource) {}

  /** Writes one event through `em`, the manager of the transaction that makes the change. */
  @GenerateSql({
    name: 'one event',
    params: [{ ...SAMPLE_AUDIT_ROW, resourceType: 'auth', resourceId: 'A1' }, MANAGER],
  })
  async insert(row: AuditEventRow, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(this.insertSql, auditEventParams(row));
  }

  /**
   * The first `limit` events of the scope's apps matching `filter`, by id. Exclusive on the
   * app's id lock (the trail's for several or every app): every event id
   * of the page's apps below the newest visible one is settled. `zone`: the zone of the filter's times.
   */
  @GenerateSql(
    { name: 'no filter', params: [APP, {}, 'UTC', 101] },
    { name: 'resource_type', params: [APP, { resourceType: 'user' }, 'UTC', 101] },
    { name: 'resource_id', params: [APP, { resourceId: 'alice' }, 'UTC', 101] },
    { name: 'action', params: [APP, { action: 'login' }, 'UTC', 101] },
    { name: 'operator', params: [APP, { operator: 'ops' }, 'UTC', 101] },
    { name: 'after_event_id', params: [APP, { afterEventId: '10' }, 'UTC', 101] },
    { name: 'from_time', params: [APP, { fromTime: '2026-01-01 00:00:00' }, 'UTC', 101] },
    { name: 'to_time', params: [APP, { toTime: '2026-02-01 00:00:00' }, 'UTC', 101] },
    { name: 'all apps, no filter', params: [ALL_APPS, {}, 'UTC', 101] },
    { name: 'all apps, one action', params: [ALL_APPS, { action: 'login' }, 'UTC', 101] },
    {
      name: 'every filter',
      params: [
        APP,
        {
          resourceType: 'user',
          resourceId: 'alice',
          action: 'login',
          operator: 'ops',
          afterEventId: '10',
          fromTime: '2026-01-01 00:00:00',
          toTime: '2026-02-01 00:00:00',
        },
        'UTC',
        101,
      ],
    },
  )
  async page(pageScope: AuditPageScope, filter: AuditEventFilter, zone: string, limit: number): Promise<StoredAuditEvent[]> {
    const scope = auditScope(pageScope);
    const params: unknown[] = [];
    const where: string[] = [];
    const add = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    // One app: an equality, so that the app's indexes read the page in order.
    if (scope.appTokens?.length === 1) add((p) => `"app_token" = ${p}`, scope.appTokens[0]);
    else if (scope.appTokens !== undefined) add((p) => `"app_token" = ANY(${p}::text[])`, scope.appTokens);
    if (scope.resourceTypes !== undefined) add((p) => `"resource_type" = ANY(${p}::text[])`, scope.resourceTypes);
    if (filter.resourceType !== undefined) add((p) => `"resource_type" = ${p}`, filter.resourceType);
    if (filter.resourceId !== undefined) add((p) => `"resource_id" = ${p}`, filter.resourceId);
    if (filter.action !== undefined) add((p) => `"action" = ${p}`, filter.action);
    if (filter.operator !== undefined) add((p) => `"operator" = ${p}`, filter.operator);
    if (filter.afterEventId !== undefined) add((p) => `"event_id" > ${p}::bigint`, filter.afterEventId);
    if (filter.fromTime !== undefined) add((p) => `"event_time" >= (${p}::timestamp AT TIME ZONE '${zone}')`, filter.fromTime);
    if (filter.toTime !== undefined) add((p) => `"event_time" < (${p}::timestamp AT TIME ZONE '${zone}')`, filter.toTime);

    return this.dataSource.transaction(async (em) => {
      // One app: its own lock, so that another app's writers never hold the page up; several
      // apps or every app: the trail's lock, which every writer holds shared.
      const one = scope.appTokens?.length === 1 ? scope.appTokens[0] : undefined;
      if (one === undefined) await em.query(`SELECT pg_advisory_xact_lock(${AUDIT_TRAIL_LOCK})`);
      else await em.query(`SELECT pg_advisory_xact_lock(${AUDIT_APP_LOCK}, hashtext($1::text))`, [one]);
      // The previous release's writers (a rolling upgrade): see AUDIT_ID_LOCK.
      await em.query(`SELECT pg_advisory_xact_lock(${AUDIT_ID_LOCK})`);
      return (await em.query(
        `SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
                "operator", "request_id", "client_ip", "result_code", "changes"
           FROM "audit_events"${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY "audit_events"."event_id" ASC LIMIT ${Number(limit)}`,
        params,
      )) as StoredAuditEvent[];
    });
  }
}
