import { Get, Query } from '@nestjs/common';
import { ApiInterface } from '@geoaccount/api';
import { AccountInterface } from '../common/account-codes';
import { listAnswer } from '../common/list-answer';
import { CallerApp, type RegisteredApp } from '@geoaccount/signing';
import { ACCOUNT_API_PREFIX } from '../common/account-api';
import { AccountController, AccountOperation, closedObject, countText, listOf, text } from '../common/account-openapi';
import { AuditEventsService } from './audit-events.service';
import { ListAuditEventsQuery } from './dto/list-audit-events.query';
import { appTokenOf } from '../common/app-scope';

/** Interface 207 (docs/contract.md §10): the caller app's audit events, oldest first, by cursor. */
@AccountController(`${ACCOUNT_API_PREFIX}/audit-events`)
export class AuditEventsController {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @ApiInterface(AccountInterface.AUDIT_EVENTS)
  @AccountOperation(AccountInterface.AUDIT_EVENTS, {
    fields: ListAuditEventsQuery,
    summary: 'Audit events',
    description:
      'The calling app\'s audit events (docs/contract.md §10), oldest first, filtered, by cursor: pass `next_event_id` as `after_event_id` ("" when no event follows); no match: 20701 with `count` "0".',
    answer: closedObject({ count: countText, event_list: listOf('AuditEvent'), next_event_id: text }),
  })
  async list(@CallerApp() app: RegisteredApp, @Query() query: ListAuditEventsQuery) {
    const { events, nextEventId } = await this.events.page(appTokenOf(app), query);
    const fields = { count: String(events.length), event_list: events, next_event_id: nextEventId };
    return listAnswer(AccountInterface.AUDIT_EVENTS, events.length, fields);
  }
}
