import { useEffect, useState } from 'react';
import type { AdminAuditEvent } from '@geoaccount/client';
import { Choice, Field, Result, SearchForm, Section, filled, guard } from '../components';
import { type Outcome, type PageProps, outcomeOf } from '../session';

const FILTERS = { resource_type: '', resource_id: '', action: '', operator: '', from_time: '', to_time: '', page_size: '20' };

/** The before/after of one event's fields: `{"field":{"from":…,"to":…}}`. */
function Changes({ changes }: { changes: string }) {
  if (!changes) return <span>—</span>;
  let parsed: Record<string, { from?: unknown; to?: unknown }>;
  try {
    parsed = JSON.parse(changes) as typeof parsed;
  } catch {
    return <code>{changes}</code>;
  }
  return (
    <dl className="diff">
      {Object.entries(parsed).map(([field, change]) => (
        <div key={field}>
          <dt>{field}</dt>
          <dd>
            {'from' in change && <del>{String(change.from ?? '∅')}</del>} <ins>{String(change.to ?? '∅')}</ins>
          </dd>
        </div>
      ))}
    </dl>
  );
}

/** Audit: the filters of docs/contract.md §10, oldest first, page by page with the cursor. */
export function AuditPage({ session, unauthorized }: PageProps) {
  const call = guard(unauthorized);
  const [filters, setFilters] = useState(FILTERS);
  const [events, setEvents] = useState<AdminAuditEvent[]>([]);
  const [cursor, setCursor] = useState<{ current: string; next: string; previous: string[] }>({ current: '', next: '', previous: [] });
  const [outcome, setOutcome] = useState<Outcome>();

  const load = async (after: string, previous: string[]) => {
    const fields = filled({ ...filters, after_event_id: after });
    const res = await call(session.account.auditEvents(fields));
    setOutcome(res.status === 200 ? undefined : outcomeOf(res));
    setEvents(res.body.event_list ?? []);
    setCursor({ current: after, next: String(res.body.next_event_id ?? ''), previous });
  };
  useEffect(() => void load('', []), [session]);

  const set = (k: keyof typeof FILTERS) => (v: string) => setFilters({ ...filters, [k]: v });

  return (
    <>
      <h2>Audit</h2>
      <Section title="Filters">
        <SearchForm label="Search audit events" onSearch={() => void load('', [])}>
          <Choice
            name="resource_type"
            value={filters.resource_type}
            onChange={set('resource_type')}
            options={[
              ['auth', 'auth'],
              ['auth_group', 'group'],
              ['user', 'user'],
            ]}
          />
          <Field name="resource_id" value={filters.resource_id} onChange={set('resource_id')} maxLength={64} />
          <Choice
            name="action"
            value={filters.action}
            onChange={set('action')}
            options={[
              ['create', 'create'],
              ['modify', 'modify'],
              ['login', 'login'],
              ['login_failed', 'failed login'],
              ['login_locked', 'locked login'],
            ]}
          />
          <Field name="operator" value={filters.operator} onChange={set('operator')} maxLength={64} />
          <Field name="from_time" value={filters.from_time} onChange={set('from_time')} hint="YYYY-MM-DD HH:MM:SS, inclusive" />
          <Field name="to_time" value={filters.to_time} onChange={set('to_time')} hint="YYYY-MM-DD HH:MM:SS, exclusive" />
          <Field name="page_size" value={filters.page_size} onChange={set('page_size')} hint="1 to 1000" />
        </SearchForm>
        <Result outcome={outcome} />
      </Section>
      <Section title="Events">
        <table>
          <caption>Audit events, oldest first</caption>
          <thead>
            <tr>
              {['event_id', 'event_time', 'action', 'resource_type', 'resource_id', 'operator', 'client_ip', 'result_code', 'changes'].map(
                (c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ),
              )}
            </tr>
          </thead>
          <tbody>
            {events.map((ev) => (
              <tr key={ev.event_id}>
                <td>{ev.event_id}</td>
                <td>{ev.event_time}</td>
                <td>{ev.action}</td>
                <td>{ev.resource_type}</td>
                <td>{ev.resource_id}</td>
                <td>{ev.operator || '—'}</td>
                <td>{ev.client_ip}</td>
                <td>{ev.result_code}</td>
                <td>
                  <Changes changes={ev.changes} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <nav aria-label="Audit pages">
          <button
            type="button"
            disabled={cursor.previous.length === 0}
            onClick={() => void load(cursor.previous.at(-1) ?? '', cursor.previous.slice(0, -1))}
          >
            Previous page
          </button>
          <button type="button" disabled={!cursor.next} onClick={() => void load(cursor.next, [...cursor.previous, cursor.current])}>
            Next page
          </button>
        </nav>
      </Section>
    </>
  );
}
