import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import { ALL_APPS, type AppScope, type AppToken } from '../common/app-scope';

/**
 * Writers hold this advisory lock shared from the moment an event id is drawn until their
 * transaction ends; a page read takes it exclusively, so it sees every event whose id it could
 * skip past already committed (or rolled back): the cursor returns each event exactly once.
 */
export const AUDIT_ID_LOCK = 0x61756474; // 'audt'

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

/** How many parameters {@link auditEventCte} takes. */
export const AUDIT_EVENT_PARAMS = 9;

/**
 * The event's insert as CTEs for a data-modifying statement: `"audit_lock"` takes the id lock
 * shared, `"audit_event"` inserts the row of parameters `$first` … `$first + 8` (see
 * {@link auditEventParams}). With `onlyIf`, the name of a CTE of the same statement, the event
 * is written only when that CTE returns a row (the change happened). The statement is one
 * transaction on its own, or runs inside the caller's: the event commits with the change or
 * not at all.
 */
export function auditEventCte(first: number, onlyIf?: string): string {
  const p = (i: number) => `$${first + i}`;
  return `"audit_lock" AS (SELECT pg_advisory_xact_lock_shared(${AUDIT_ID_LOCK})),
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
    params: [
      {
        appToken: 'app-7f3a9c2e41d08b56',
        action: 'create',
        resourceType: 'auth',
        resourceId: 'A1',
        operator: '',
        requestId: 'r1',
        clientIp: '127.0.0.1',
        resultCode: '90000',
        changes: '{}',
      },
      MANAGER,
    ],
  })
  async insert(row: AuditEventRow, em: EntityManager = this.dataSource.manager): Promise<void> {
    await em.query(this.insertSql, auditEventParams(row));
  }

  /**
   * The app's first `limit` events matching `filter`, by id. Exclusive on the id lock: every
   * event id below the newest visible one is settled. `zone`: the zone of the filter's times.
   */
  @GenerateSql(
    { name: 'no filter', params: ['app-7f3a9c2e41d08b56', {}, 'UTC', 101] },
    { name: 'resource_type', params: ['app-7f3a9c2e41d08b56', { resourceType: 'user' }, 'UTC', 101] },
    { name: 'resource_id', params: ['app-7f3a9c2e41d08b56', { resourceId: 'alice' }, 'UTC', 101] },
    { name: 'action', params: ['app-7f3a9c2e41d08b56', { action: 'login' }, 'UTC', 101] },
    { name: 'operator', params: ['app-7f3a9c2e41d08b56', { operator: 'ops' }, 'UTC', 101] },
    { name: 'after_event_id', params: ['app-7f3a9c2e41d08b56', { afterEventId: '10' }, 'UTC', 101] },
    { name: 'from_time', params: ['app-7f3a9c2e41d08b56', { fromTime: '2026-01-01 00:00:00' }, 'UTC', 101] },
    { name: 'to_time', params: ['app-7f3a9c2e41d08b56', { toTime: '2026-02-01 00:00:00' }, 'UTC', 101] },
    { name: 'all apps, no filter', params: [ALL_APPS, {}, 'UTC', 101] },
    { name: 'all apps, one action', params: [ALL_APPS, { action: 'login' }, 'UTC', 101] },
    {
      name: 'every filter',
      params: [
        'app-7f3a9c2e41d08b56',
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
  async page(scope: AppScope, filter: AuditEventFilter, zone: string, limit: number): Promise<StoredAuditEvent[]> {
    const params: unknown[] = [];
    const where: string[] = [];
    const add = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (scope !== ALL_APPS) add((p) => `"app_token" = ${p}`, scope);
    if (filter.resourceType !== undefined) add((p) => `"resource_type" = ${p}`, filter.resourceType);
    if (filter.resourceId !== undefined) add((p) => `"resource_id" = ${p}`, filter.resourceId);
    if (filter.action !== undefined) add((p) => `"action" = ${p}`, filter.action);
    if (filter.operator !== undefined) add((p) => `"operator" = ${p}`, filter.operator);
    if (filter.afterEventId !== undefined) add((p) => `"event_id" > ${p}::bigint`, filter.afterEventId);
    if (filter.fromTime !== undefined) add((p) => `"event_time" >= (${p}::timestamp AT TIME ZONE '${zone}')`, filter.fromTime);
    if (filter.toTime !== undefined) add((p) => `"event_time" < (${p}::timestamp AT TIME ZONE '${zone}')`, filter.toTime);

    return this.dataSource.transaction(async (em) => {
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
