import { Inject, Injectable } from '@nestjs/common';
import { closedObject, text } from '../common/account-openapi';
import { AccountConfig } from '../config/account.config';
import { formatTimestamp } from '../common/timestamp';
import { AuditEventsRepository, type StoredAuditEvent } from './audit-events.repository';
import { AUDIT_PAGE_SIZE_DEFAULT, type ListAuditEventsQuery } from './dto/list-audit-events.query';
import type { AppToken } from '../common/app-scope';

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

  async page(appToken: AppToken, query: ListAuditEventsQuery): Promise<AuditEventPage> {
    const pageSize = Number(query.page_size ?? AUDIT_PAGE_SIZE_DEFAULT);
    const zone = this.config.TZ;
    const rows = await this.events.page(
      appToken,
      {
        resourceType: query.resource_type,
        resourceId: query.resource_id,
        action: query.action,
        operator: query.operator,
        afterEventId: query.after_event_id,
        fromTime: query.from_time,
        toTime: query.to_time,
      },
      zone,
      pageSize + 1,
    );
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
