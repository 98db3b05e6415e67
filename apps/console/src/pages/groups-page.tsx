import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { AuthListItem, GroupListItem } from '@geoaccount/client';
import { Choice, useEditor, DataTable, EditorButtons, Field, Result, Section, filled, guard } from '../components';
import { type Outcome, type PageProps, outcomeOf } from '../session';
import { AuthTree } from './auth-tree';

const EMPTY = { group_id: '', group_name: '', group_desc: '', group_type: '', group_state: '1', group_auths: '' };
type GroupForm = typeof EMPTY;

const members = (list: string) =>
  list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Groups: list, create, modify; member auths picked from the tree. */
export function GroupsPage({ session, unauthorized }: PageProps) {
  const call = guard(unauthorized);
  const [groups, setGroups] = useState<GroupListItem[]>([]);
  const [auths, setAuths] = useState<AuthListItem[]>([]);
  const { form, setForm, editing, set, edit: startEdit, reset } = useEditor<GroupForm>(EMPTY);
  const [outcome, setOutcome] = useState<Outcome>();

  const load = useCallback(async () => {
    const [g, a] = await Promise.all([call(session.account.listGroups()), call(session.account.listAuths())]);
    setGroups(g.status === 200 ? (g.body.group_list ?? []) : []);
    setAuths(a.status === 200 ? (a.body.list ?? []) : []);
  }, [session]);
  useEffect(() => void load(), [load]);

  const picked = new Set(members(form.group_auths));
  const pick = (a: AuthListItem) => {
    const next = new Set(picked);
    if (next.has(a.auth_id)) next.delete(a.auth_id);
    else next.add(a.auth_id);
    setForm({ ...form, group_auths: [...next].join(',') });
  };
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { group_id, ...fields } = form;
    const res = await call(
      editing
        ? session.account.modifyGroup(editing, filled(fields, ['group_desc', 'group_type', 'group_auths']))
        : session.account.createGroup(group_id, filled(fields)),
    );
    setOutcome(outcomeOf(res));
    if (res.status === 201) await load();
  };
  const edit = (g: GroupListItem) => {
    startEdit(g.group_id, {
      group_id: g.group_id,
      group_name: g.group_name,
      group_desc: g.group_desc ?? '',
      group_type: g.group_type ?? '',
      group_state: g.group_state ?? '',
      group_auths: g.group_auths ?? '',
    });
  };

  return (
    <>
      <h2>Groups</h2>
      <Section title="All groups">
        <DataTable
          caption="Permission groups"
          columns={['group_id', 'group_name', 'group_state', 'group_type', 'group_auths']}
          rows={groups}
          rowKey={(g) => g.group_id}
          actions={(g) => (
            <button type="button" onClick={() => edit(g)}>
              Edit <span className="visually-hidden">{g.group_id}</span>
            </button>
          )}
        />
      </Section>
      <Section title={editing ? `Modify ${editing}` : 'Create a group'}>
        <form aria-label={editing ? 'Modify group' : 'Create group'} onSubmit={(e) => void submit(e)}>
          <Field
            name="group_id"
            value={form.group_id}
            onChange={set('group_id')}
            maxLength={64}
            required
            disabled={editing !== undefined}
          />
          <Field name="group_name" value={form.group_name} onChange={set('group_name')} maxLength={32} required />
          <Field name="group_desc" value={form.group_desc} onChange={set('group_desc')} maxLength={64} />
          <Field name="group_type" value={form.group_type} onChange={set('group_type')} maxLength={32} />
          <Choice
            name="group_state"
            value={form.group_state}
            onChange={set('group_state')}
            options={[
              ['1', 'usable'],
              ['0', 'disabled'],
            ]}
          />
          <Field
            name="group_auths"
            value={form.group_auths}
            onChange={set('group_auths')}
            maxLength={1024}
            hint="comma-separated auth ids of this app; pick them below"
          />
          <AuthTree auths={auths} label="Member auths" onPick={pick} picked={picked} pickLabel="Member" />
          <EditorButtons editing={editing !== undefined} newLabel="New group" onNew={reset} />
        </form>
        <Result outcome={outcome} />
      </Section>
    </>
  );
}
