import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { AuthListItem } from '@geoaccount/client';
import { Choice, useEditor, EditorButtons, SearchForm, Field, Result, Section, filled, guard } from '../components';
import { type Outcome, type PageProps, outcomeOf } from '../session';
import { AuthTree } from './auth-tree';

const EMPTY = {
  auth_id: '',
  auth_name: '',
  auth_desc: '',
  auth_state: '1',
  auth_type: '',
  auth_level: '',
  parent_auth_id: '',
  sub_auth_flag: '0',
};
type AuthForm = typeof EMPTY;

/** Permissions: the hierarchy as a tree, search by ids and state, create and modify. */
export function PermissionsPage({ session, unauthorized }: PageProps) {
  const call = guard(unauthorized);
  const [auths, setAuths] = useState<AuthListItem[]>([]);
  const [query, setQuery] = useState({ auth_ids: '', auth_state: '' });
  const { form, editing, set, edit: startEdit, reset } = useEditor<AuthForm>(EMPTY);
  const [outcome, setOutcome] = useState<Outcome>();

  const load = useCallback(
    async (q = query) => {
      const res = await call(session.account.listAuths(filled(q)));
      if (res.status === 200) setAuths(res.body.list ?? []);
      else setOutcome(outcomeOf(res));
    },
    [session],
  );
  useEffect(() => void load(), [load]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { auth_id, ...fields } = form;
    const res = await call(
      editing
        ? session.account.modifyAuth(editing, filled(fields, ['auth_desc', 'auth_type', 'auth_level', 'parent_auth_id']))
        : session.account.createAuth(auth_id, filled(fields)),
    );
    setOutcome(outcomeOf(res));
    if (res.status === 201) await load();
  };
  const edit = (a: AuthListItem) => {
    startEdit(a.auth_id, {
      auth_id: a.auth_id,
      auth_name: a.auth_name,
      auth_desc: a.auth_desc ?? '',
      auth_state: a.auth_state ?? '',
      auth_type: a.auth_type ?? '',
      auth_level: a.auth_level ?? '',
      parent_auth_id: a.parent_auth_id ?? '',
      sub_auth_flag: a.sub_auth_flag ?? '',
    });
  };

  return (
    <>
      <h2>Permissions</h2>
      <Section title="Search">
        <SearchForm label="Search permissions" onSearch={() => void load(query)}>
          <Field
            name="auth_ids"
            value={query.auth_ids}
            onChange={(v) => setQuery({ ...query, auth_ids: v })}
            hint="comma-separated auth ids; empty: all"
          />
          <Choice
            name="auth_state"
            value={query.auth_state}
            onChange={(v) => setQuery({ ...query, auth_state: v })}
            options={[
              ['1', 'usable'],
              ['0', 'disabled'],
            ]}
          />
        </SearchForm>
      </Section>
      <Section title="Hierarchy">
        <AuthTree auths={auths} label="Auth hierarchy" onPick={edit} />
      </Section>
      <Section title={editing ? `Modify ${editing}` : 'Create an auth'}>
        <form aria-label={editing ? 'Modify auth' : 'Create auth'} onSubmit={(e) => void submit(e)}>
          <Field
            name="auth_id"
            value={form.auth_id}
            onChange={set('auth_id')}
            maxLength={16}
            required
            disabled={editing !== undefined}
            hint="1-16 characters, no comma"
          />
          <Field name="auth_name" value={form.auth_name} onChange={set('auth_name')} maxLength={32} required />
          <Field name="auth_desc" value={form.auth_desc} onChange={set('auth_desc')} maxLength={64} />
          <Choice
            name="auth_state"
            value={form.auth_state}
            onChange={set('auth_state')}
            options={[
              ['1', 'OK'],
              ['0', 'NOK'],
            ]}
          />
          <Field name="auth_type" value={form.auth_type} onChange={set('auth_type')} maxLength={8} />
          <Field
            name="auth_level"
            value={form.auth_level}
            onChange={set('auth_level')}
            maxLength={2}
            hint="a natural number, at most 2 digits"
          />
          <Field
            name="parent_auth_id"
            value={form.parent_auth_id}
            onChange={set('parent_auth_id')}
            maxLength={16}
            hint="an existing auth of this app; empty: a root"
          />
          <Choice
            name="sub_auth_flag"
            value={form.sub_auth_flag}
            onChange={set('sub_auth_flag')}
            options={[
              ['0', 'no sub-permissions'],
              ['1', 'has sub-permissions'],
            ]}
          />
          <EditorButtons editing={editing !== undefined} newLabel="New auth" onNew={reset} />
        </form>
        <Result outcome={outcome} />
      </Section>
    </>
  );
}
