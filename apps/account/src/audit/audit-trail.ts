import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { type AuditEventRow, AuditEventsRepository } from './audit-events.repository';
import { maskPii } from '../pii/pii-cipher';
import { currentAuditOrigin } from './audit-origin';
import type { AppToken } from '../common/app-scope';

export type AuditAction = 'create' | 'modify' | 'revoke' | 'login' | 'login_failed' | 'login_locked';
/** The app's own data (interface 207 answers these) and the control plane's (docs/contract.md §14). */
export type AuditResourceType = 'auth' | 'auth_group' | 'user' | AdminResourceType;
export type AdminResourceType = 'app' | 'credential' | 'operator' | 'session';
/** The resource types interface 207 answers (docs/contract.md §14: only the app's own data). */
export const APP_RESOURCE_TYPES: readonly AuditResourceType[] = ['auth', 'auth_group', 'user'];

/** `{"field":{"from":…,"to":…}}` of a modify, `{"field":{"to":…}}` of a create. */
export type AuditChanges = Record<string, { from?: unknown; to: unknown }>;

export interface AuditEvent {
  appToken: AppToken;
  action: AuditAction;
  resourceType: AuditResourceType;
  resourceId: string;
  /** The answer's `response_code`. */
  resultCode: string;
  /** Omitted for logins (stored as `""`). */
  changes?: AuditChanges;
  /** Who acted, when the request says it otherwise than by its `user` header: an operator's login (docs/contract.md §14). */
  operator?: string;
}

/** Fields shown masked in the trail (docs/contract.md §10). */
const MASKED = new Set(['cert_id', 'user_mobile']);
/** Fields shown only as changed. */
const SECRET = new Set(['user_pwd']);

/**
 * The audit trail's writer (docs/contract.md §10): one event, inserted through the manager of the
 * transaction that makes the change, so that both commit or neither does.
 */
@Injectable()
export class AuditTrail {
  constructor(private readonly events: AuditEventsRepository) {}

  async record(em: EntityManager, event: AuditEvent): Promise<void> {
    await this.events.insert(this.rowOf(event), em);
  }

  /** Records an event that goes with no other change (a refused login), in a statement of its own. */
  async recordAlone(event: AuditEvent): Promise<void> {
    await this.events.insert(this.rowOf(event));
  }

  /** The stored row of `event`, with the origin of the current request. */
  rowOf(event: AuditEvent): AuditEventRow {
    const origin = currentAuditOrigin();
    return {
      appToken: event.appToken,
      action: event.action,
      resourceType: event.resourceType,
      resourceId: event.resourceId,
      operator: event.operator ?? origin.operator,
      requestId: origin.requestId,
      clientIp: origin.clientIp,
      resultCode: event.resultCode,
      changes: event.changes === undefined ? '' : JSON.stringify(event.changes),
    };
  }
}

/**
 * The changes of a create: every field given (API names), passwords as `"changed"`,
 * certificate and mobile masked.
 */
export function createdFields(fields: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, to] of Object.entries(fields)) if (to !== undefined) changes[field] = { to: shown(field, to) };
  return changes;
}

/** The changes of a modify: the fields given whose value differs from `before` (a password always). */
export function modifiedFields(before: Record<string, unknown>, after: Record<string, unknown>): AuditChanges {
  const changes: AuditChanges = {};
  for (const [field, to] of Object.entries(after)) {
    if (to === undefined) continue;
    if (SECRET.has(field)) changes[field] = { to: 'changed' };
    else if ((before[field] ?? null) !== (to ?? null)) changes[field] = { from: shown(field, before[field] ?? null), to: shown(field, to) };
  }
  return changes;
}

function shown(field: string, value: unknown): unknown {
  if (SECRET.has(field)) return 'changed';
  if (MASKED.has(field) && typeof value === 'string') return maskPii(value);
  return value;
}
