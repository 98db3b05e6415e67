import { Get, Query } from '@nestjs/common';
import { AccountCodes, ApiException, accountOk } from '@geoaccount/api';
import { AdminController } from '../admin-sessions/admin-controller';
import { AdminOperation } from '../admin-sessions/admin-openapi';
import { AdminPermission } from '../admin-sessions/admin-permission';
import { type AdminPrincipal, Principal } from '../admin-sessions/admin-principal';
import { AdminSessionCodes } from '../admin-sessions/admin-sessions.codes';
import { AuditEventsService } from './audit-events.service';
import { ListAdminAuditEventsQuery } from './dto/list-admin-audit-events.query';

/**
 * The audit trail through the admin API (docs/contract.md §14): every app's events and the
 * admin-level ones (`app_token` `""`) for admins and auditors; an app_admin's own apps only.
 */
@AdminController('audit-events')
export class AdminAuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @AdminPermission('audit.read')
  @AdminOperation({
    operationId: 'listAdminAuditEvents',
    summary: 'Audit events',
    description:
      'The query of interface 207 (docs/account-api.md) over every resource type (`app`, `credential`, `operator`, `session` too) plus `app_token` ' +
      '(`""`: operators and sessions). An app_admin reads its apps only (another app_token: 403 90403). No match: 20701 with `count` "0".',
    status: 200,
    query: ListAdminAuditEventsQuery,
    successCodes: [AccountCodes.AUDIT_EVENTS_EMPTY],
    answer: {
      type: 'object',
      properties: {
        count: { type: 'string', pattern: '^\\d+$' },
        event_list: { type: 'array', items: { $ref: '#/components/schemas/AdminAuditEvent' } },
        next_event_id: { type: 'string' },
      },
      required: ['count', 'event_list', 'next_event_id'],
    },
  })
  async list(@Principal() principal: AdminPrincipal, @Query() query: ListAdminAuditEventsQuery) {
    let appTokens: readonly string[] | undefined = query.app_token === undefined ? undefined : [query.app_token];
    if (principal.role === 'app_admin') {
      if (query.app_token !== undefined && !principal.apps.includes(query.app_token)) throw new ApiException(AdminSessionCodes.FORBIDDEN);
      appTokens ??= principal.apps;
    }
    const { events, nextEventId } = await this.events.scopedPage({ appTokens }, query);
    const fields = { count: String(events.length), event_list: events, next_event_id: nextEventId };
    if (events.length === 0) throw new ApiException(AccountCodes.AUDIT_EVENTS_EMPTY, undefined, fields);
    return accountOk(false, fields);
  }
}
