import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { closedObject, text } from '../common/account-openapi';
import { AccountConfig } from '../config/account.config';
import { formatTimestamp } from '../common/timestamp';
import { AUDIT_ID_LOCK } from './audit-trail';
import { AUDIT_PAGE_SIZE_DEFAULT, type ListAuditEventsQuery } from './dto/list-audit-events.query';

/** An event as interface 207 answers it: every field a string. */
export interface AuditEventView {
  event_id: string;
  event_time: string;
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

/** `AuditEventView` in the OpenAPI document. */
export const AUDIT_EVENT_SCHEMA = closedObject({
  event_id: { type: 'string', pattern: '^\\d+$' },
  event_time: text,
  app_token: text,
  action: { type: 'string', enum: ['create', 'modify', 'login', 'login_failed', 'login_locked'] },
  resource_type: { type: 'string', enum: ['auth', 'auth_group', 'user'] },
  resource_id: text,
  operator: text,
  request_id: text,
  client_ip: text,
  result_code: text,
  changes: text,
});

export interface AuditEventPage {
  events: AuditEventView[];
  /** `""` when no event follows the page. */
  nextEventId: string;
}

type Row = Omit<AuditEventView, 'event_time'> & { event_time: Date };

/** Reads of the audit trail (interface 207), always within the caller's app. */
@Injectable()
export class AuditEventsService {
  constructor(
    private readonly dataSource: DataSource,
    @Inject(AccountConfig) private readonly config: AccountConfig,
  ) {}

  async page(appToken: string, query: ListAuditEventsQuery): Promise<AuditEventPage> {
    const pageSize = Number(query.page_size ?? AUDIT_PAGE_SIZE_DEFAULT);
    const params: unknown[] = [appToken];
    const where = ['"app_token" = $1'];
    const filter = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (query.resource_type !== undefined) filter((p) => `"resource_type" = ${p}`, query.resource_type);
    if (query.resource_id !== undefined) filter((p) => `"resource_id" = ${p}`, query.resource_id);
    if (query.action !== undefined) filter((p) => `"action" = ${p}`, query.action);
    if (query.operator !== undefined) filter((p) => `"operator" = ${p}`, query.operator);
    if (query.after_event_id !== undefined) filter((p) => `"event_id" > ${p}::bigint`, query.after_event_id);
    const zone = this.config.TZ;
    if (query.from_time !== undefined) filter((p) => `"event_time" >= (${p}::timestamp AT TIME ZONE '${zone}')`, query.from_time);
    if (query.to_time !== undefined) filter((p) => `"event_time" < (${p}::timestamp AT TIME ZONE '${zone}')`, query.to_time);

    // Exclusive on the id lock: every event id below the newest visible one is settled.
    const rows = await this.dataSource.transaction(async (em) => {
      await em.query(`SELECT pg_advisory_xact_lock(${AUDIT_ID_LOCK})`);
      return (await em.query(
        `SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
                "operator", "request_id", "client_ip", "result_code", "changes"
           FROM "audit_events" WHERE ${where.join(' AND ')} ORDER BY "audit_events"."event_id" ASC LIMIT ${pageSize + 1}`,
        params,
      )) as Row[];
    });
    const more = rows.length > pageSize;
    if (more) rows.length = pageSize;
    return {
      events: rows.map((r) => ({ ...r, event_time: formatEventTime(r.event_time, zone) })),
      nextEventId: more ? rows[rows.length - 1]!.event_id : '',
    };
  }
}

/** `YYYY-MM-DD HH:MM:SS.mmm` in `zone`. */
function formatEventTime(time: Date, zone: string): string {
  return `${formatTimestamp(time, zone)}.${String(time.getUTCMilliseconds()).padStart(3, '0')}`;
}
