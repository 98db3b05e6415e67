import { Inject, Injectable } from '@nestjs/common';
import { closedObject, text } from '../common/account-openapi';
import { AccountConfig } from '../config/account.config';
import { formatTimestamp } from '../common/timestamp';
import { type AuditEventFilter, AuditEventsRepository, type AuditScope, type StoredAuditEvent } from './audit-events.repository';
import { APP_RESOURCE_TYPES } from './audit-trail';
import { AUDIT_PAGE_SIZE_DEFAULT, type ListAuditEventsQuery } from './dto/list-audit-events.query';
import { ADMIN_AUDIT_ACTIONS, ADMIN_AUDIT_RESOURCE_TYPES } from './dto/list-admin-audit-events.query';

/** An event as interface 207 answers it: every field a string. */
export type AuditEventView = Omit<StoredAuditEvent, 'event_time'> & { event_time: string };

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

/** An event of the admin API's reads: every resource type and action (docs/contract.md §14). */
export const ADMIN_AUDIT_EVENT_SCHEMA = closedObject({
  ...(AUDIT_EVENT_SCHEMA.properties as Record<string, Record<string, unknown>>),
  action: { type: 'string', enum: [...ADMIN_AUDIT_ACTIONS] },
  resource_type: { type: 'string', enum: [...ADMIN_AUDIT_RESOURCE_TYPES] },
});

export interface AuditEventPage {
  events: AuditEventView[];
  /** `""` when no event follows the page. */
  nextEventId: string;
}

/** Reads of the audit trail (interface 207), always within the caller's app. */
@Injectable()
export class AuditEventsService {
  constructor(
    private readonly events: AuditEventsRepository,
    @Inject(AccountConfig) private readonly config: AccountConfig,
  ) {}

  /** Interface 207: the app's events of its own data only (docs/contract.md §14). */
  async page(appToken: string, query: ListAuditEventsQuery): Promise<AuditEventPage> {
    return this.scopedPage({ appTokens: [appToken], resourceTypes: APP_RESOURCE_TYPES }, query);
  }

  /** A page of `scope`'s events (the admin API's reads: several apps, admin-level events). */
  async scopedPage(scope: AuditScope, query: Omit<ListAuditEventsQuery, never>): Promise<AuditEventPage> {
    const pageSize = Number(query.page_size ?? AUDIT_PAGE_SIZE_DEFAULT);
    const zone = this.config.TZ;
    const filter: AuditEventFilter = {
      resourceType: query.resource_type,
      resourceId: query.resource_id,
      action: query.action,
      operator: query.operator,
      afterEventId: query.after_event_id,
      fromTime: query.from_time,
      toTime: query.to_time,
    };
    const rows = await this.events.page(scope, filter, zone, pageSize + 1);
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
