import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { AuthSummary, User } from '@geoaccount/client';
import { Choice, useEditor, EditorButtons, SearchForm, DataTable, Field, Result, Section, filled, guard } from '../components';
import { type Outcome, type PageProps, outcomeOf } from '../session';

const EMPTY = {
  user_login_id: '',
  user_name: '',
  user_short_name: '',
  user_type: 'C',
  is_domain_user: '0',
  user_pwd: '',
  org_id: '',
  cert_type: '',
  cert_id: '',
  user_mobile: '',
  user_auths: '',
  user_auth_groups: '',
  user_extends: '',
};
type UserForm = typeof EMPTY;
type Effective = AuthSummary & { via: string };

/** Users: a paged table, register and modify, a user's effective permissions, and a test login. */
export function UsersPage({ session, unauthorized }: PageProps) {
  const call = guard(unauthorized);
  const [query, setQuery] = useState({ page_size: '20', page_number: '1', org_id: '', user_login_ids: '' });
  const [page, setPage] = useState<{ count: string; users: User[] }>({ count: '0', users: [] });
  const { form, editing, set, edit: startEdit, reset } = useEditor<UserForm, User>(EMPTY);
  const [detail, setDetail] = useState<{ user: User; effective: Effective[] }>();
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [loginOutcome, setLoginOutcome] = useState<Outcome>();

  const load = useCallback(
    async (q = query) => {
      const res = await call(session.account.listUsers(filled(q)));
      setPage({ count: String(res.body.count ?? '0'), users: res.body.user_list ?? [] });
      if (res.status !== 200) setOutcome(outcomeOf(res));
    },
    [session],
  );
  useEffect(() => void load(), [load]);

  const domain = (editing?.is_domain_user ?? form.is_domain_user) === '1';

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const { user_login_id, is_domain_user, ...fields } = form;
    if (domain) delete (fields as Partial<UserForm>).user_pwd;
    const res = await call(
      editing
        ? session.account.modifyUser(editing.user_login_id, filled(fields, []))
        : session.account.registerUser(user_login_id, filled({ ...fields, is_domain_user })),
    );
    setOutcome(outcomeOf(res));
    if (res.status === 201) await load();
  };

  const open = async (u: User) => {
    const res = await call(session.account.userAuths(u.user_login_id));
    const list = res.status === 200 ? (res.body.list ?? []) : [];
    const effective = await Promise.all(
      list.map(async (a) => {
        const held = await call(session.account.userHasAuth(u.user_login_id, a.auth_id));
        return { ...a, via: String(held.body.via ?? '') };
      }),
    );
    setDetail({ user: u, effective });
    setLoginOutcome(undefined);
  };

  const edit = (u: User) => {
    startEdit(u, {
      ...EMPTY,
      user_login_id: u.user_login_id,
      user_name: u.user_name,
      user_short_name: u.user_short_name ?? '',
      user_type: u.user_type,
      is_domain_user: u.is_domain_user,
      org_id: u.org_id ?? '',
      cert_type: u.cert_type ?? '',
      cert_id: u.cert_id ?? '',
      user_mobile: u.user_mobile ?? '',
      user_auths: u.user_auths ?? '',
      user_auth_groups: u.user_auth_groups ?? '',
      user_extends: u.user_extends ?? '',
    });
  };

  const testLogin = async (e: FormEvent) => {
    e.preventDefault();
    if (!detail) return;
    // Encrypted here, in the browser, with the app's AES key and mode (gcm or ecb).
    const res = await session.account.login(detail.user.user_login_id, password);
    setLoginOutcome(outcomeOf(res));
  };

  return (
    <>
      <h2>Users</h2>
      <Section title="Search">
        <SearchForm label="Search users" onSearch={() => void load(query)}>
          <Field name="page_size" value={query.page_size} onChange={(v) => setQuery({ ...query, page_size: v })} hint="1 to 1000" />
          <Field name="page_number" value={query.page_number} onChange={(v) => setQuery({ ...query, page_number: v })} />
          <Field name="org_id" value={query.org_id} onChange={(v) => setQuery({ ...query, org_id: v })} maxLength={16} />
          <Field
            name="user_login_ids"
            value={query.user_login_ids}
            onChange={(v) => setQuery({ ...query, user_login_ids: v })}
            hint="comma-separated"
          />
        </SearchForm>
        <p>
          {page.count} matching users; page {query.page_number}.
        </p>
        <DataTable
          caption="Users"
          columns={['user_login_id', 'user_name', 'user_type', 'is_domain_user', 'org_id', 'user_auths', 'user_auth_groups']}
          rows={page.users}
          rowKey={(u) => u.user_login_id}
          actions={(u) => (
            <>
              <button type="button" onClick={() => void open(u)}>
                Detail <span className="visually-hidden">{u.user_login_id}</span>
              </button>
              <button type="button" onClick={() => edit(u)}>
                Edit <span className="visually-hidden">{u.user_login_id}</span>
              </button>
            </>
          )}
        />
      </Section>
      {detail && (
        <Section title={`User ${detail.user.user_login_id}`}>
          <DataTable
            caption="Effective permissions"
            columns={['auth_id', 'auth_name', 'auth_state', 'via']}
            rows={detail.effective}
            rowKey={(a) => a.auth_id}
          />
          <form aria-label="Test login" onSubmit={(e) => void testLogin(e)}>
            <Field
              name="password"
              type="password"
              value={password}
              onChange={setPassword}
              hint="sent to the service, which encrypts it with the app's AES key"
            />
            <button type="submit">Test login</button>
          </form>
          <Result outcome={loginOutcome} />
        </Section>
      )}
      <Section title={editing ? `Modify ${editing.user_login_id}` : 'Register a user'}>
        <form aria-label={editing ? 'Modify user' : 'Register user'} onSubmit={(e) => void submit(e)}>
          <Field
            name="user_login_id"
            value={form.user_login_id}
            onChange={set('user_login_id')}
            maxLength={64}
            required
            disabled={editing !== undefined}
          />
          <Field name="user_name" value={form.user_name} onChange={set('user_name')} maxLength={64} required />
          <Field name="user_short_name" value={form.user_short_name} onChange={set('user_short_name')} maxLength={32} />
          <Choice
            name="user_type"
            value={form.user_type}
            onChange={set('user_type')}
            options={[
              ['C', 'individual'],
              ['B', 'enterprise'],
            ]}
            allowEmpty={false}
          />
          {!editing && (
            <Choice
              name="is_domain_user"
              value={form.is_domain_user}
              onChange={set('is_domain_user')}
              options={[
                ['0', 'ordinary account'],
                ['1', 'domain account'],
              ]}
              allowEmpty={false}
            />
          )}
          {!domain && (
            <Field
              name="user_pwd"
              type="password"
              value={form.user_pwd}
              onChange={set('user_pwd')}
              maxLength={64}
              required={!editing}
              hint={editing ? 'empty: unchanged' : 'at most 64 characters'}
            />
          )}
          <Field name="org_id" value={form.org_id} onChange={set('org_id')} maxLength={16} />
          <Choice
            name="cert_type"
            value={form.cert_type}
            onChange={set('cert_type')}
            options={[
              ['00', 'ID card'],
              ['10', 'business licence'],
              ['11', 'unified social credit code'],
            ]}
          />
          <Field name="cert_id" value={form.cert_id} onChange={set('cert_id')} maxLength={32} />
          <Field name="user_mobile" value={form.user_mobile} onChange={set('user_mobile')} maxLength={16} />
          <Field name="user_auths" value={form.user_auths} onChange={set('user_auths')} maxLength={512} hint="comma-separated auth ids" />
          <Field
            name="user_auth_groups"
            value={form.user_auth_groups}
            onChange={set('user_auth_groups')}
            maxLength={512}
            hint="comma-separated group ids"
          />
          <Field name="user_extends" value={form.user_extends} onChange={set('user_extends')} maxLength={512} hint="a JSON object" />
          <EditorButtons editing={editing !== undefined} newLabel="New user" onNew={reset} />
        </form>
        <Result outcome={outcome} />
      </Section>
    </>
  );
}
