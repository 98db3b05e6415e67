import { useState } from 'react';
import type { AuthListItem } from '@geoaccount/client';

/** Auths as a tree by `parent_auth_id` (an auth whose parent is not listed is a root here). */
export function AuthTree(props: {
  auths: AuthListItem[];
  label: string;
  onPick?: (auth: AuthListItem) => void;
  picked?: ReadonlySet<string>;
  pickLabel?: string;
}) {
  const [collapsed, setCollapsed] = useState<ReadonlySet<string>>(new Set());
  const ids = new Set(props.auths.map((a) => a.auth_id));
  const children = new Map<string, AuthListItem[]>();
  for (const a of props.auths) {
    const parent = a.parent_auth_id && ids.has(a.parent_auth_id) ? a.parent_auth_id : '';
    children.set(parent, [...(children.get(parent) ?? []), a]);
  }
  const toggle = (id: string) => {
    const next = new Set(collapsed);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setCollapsed(next);
  };
  const branch = (parent: string, depth: number) => (
    <ul className={depth === 0 ? 'tree' : undefined}>
      {(children.get(parent) ?? []).map((a) => {
        const kids = children.get(a.auth_id) ?? [];
        const open = !collapsed.has(a.auth_id);
        return (
          <li key={a.auth_id}>
            {kids.length > 0 ? (
              <button
                type="button"
                className="toggle"
                aria-expanded={open}
                aria-label={`${open ? 'Collapse' : 'Expand'} ${a.auth_id}`}
                onClick={() => toggle(a.auth_id)}
              >
                {open ? '−' : '+'}
              </button>
            ) : (
              <span className="toggle" aria-hidden="true">
                ·
              </span>
            )}
            <span className={a.auth_state === '0' ? 'disabled' : undefined}>
              <code>{a.auth_id}</code> {a.auth_name}{' '}
              <small>({a.auth_state === '1' ? 'state 1: usable' : a.auth_state === '0' ? 'state 0: disabled' : 'no state'})</small>
            </span>
            {props.onPick && (
              <button type="button" aria-pressed={props.picked ? props.picked.has(a.auth_id) : undefined} onClick={() => props.onPick!(a)}>
                {props.pickLabel ?? 'Edit'} <span className="visually-hidden">{a.auth_id}</span>
              </button>
            )}
            {kids.length > 0 && open && branch(a.auth_id, depth + 1)}
          </li>
        );
      })}
    </ul>
  );
  return (
    <div role="group" aria-label={props.label}>
      {props.auths.length === 0 ? <p>No auth.</p> : branch('', 0)}
    </div>
  );
}
