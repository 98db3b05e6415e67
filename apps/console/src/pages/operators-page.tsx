import { useEffect, useState } from 'react';
import type { AdminOperator, AdminRole } from '@geoaccount/client';
import { Choice, DataTable, Field, Result, Section, guard } from '../components';
import { type Operator, type Outcome, admin, outcomeOf } from '../session';

const ROLES: [string, string][] = [
  ['admin', 'everything'],
  ['app_admin', 'its apps'],
  ['auditor', 'reads, changes nothing'],
];

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** Operators (docs/contract.md §14): an admin creates operators and changes their role; an auditor reads. */
export function OperatorsPage(props: { operator: Operator; unauthorized: (message: string) => void }) {
  const call = guard(props.unauthorized);
  const isAdmin = props.operator.role === 'admin';
  const [operators, setOperators] = useState<AdminOperator[]>([]);
  const [outcome, setOutcome] = useState<Outcome>();
  const [create, setCreate] = useState({ login: '', role: 'app_admin', apps: '', password: '' });
  const [change, setChange] = useState({ login: '', role: 'app_admin', apps: '', state: '' });

  const load = async () => {
    const res = await call(admin.listOperators());
    if (res.status === 200) setOperators(res.body.operator_list);
    else setOutcome(outcomeOf(res));
  };
  useEffect(() => {
    void load();
  }, []);

  const submitCreate = async () => {
    const res = await call(
      admin.createOperator({
        login: create.login,
        role: create.role as AdminRole,
        apps: list(create.apps),
        ...(create.password ? { password: create.password } : {}),
      }),
    );
    setOutcome(outcomeOf(res));
    if (res.status === 201) setCreate({ login: '', role: 'app_admin', apps: '', password: '' });
    await load();
  };
  const submitChange = async () => {
    const res = await call(
      admin.modifyOperator(change.login, {
        role: change.role as AdminRole,
        apps: list(change.apps),
        ...(change.state ? { state: change.state as 'enabled' | 'disabled' } : {}),
      }),
    );
    setOutcome(outcomeOf(res));
    await load();
  };

  return (
    <>
      <h2 className="page-title">Operators</h2>
      <Result outcome={outcome} />
      <DataTable
        caption="Operators"
        columns={['login', 'role', 'apps', 'state', 'directory', 'locked', 'create_time']}
        rows={operators}
        rowKey={(o) => o.login}
      />
      {isAdmin && (
        <Section title="Create an operator">
          <form
            aria-label="Create an operator"
            onSubmit={(e) => {
              e.preventDefault();
              void submitCreate();
            }}
          >
            <Field name="login" value={create.login} onChange={(v) => setCreate({ ...create, login: v })} maxLength={64} required />
            <Choice
              name="role"
              value={create.role}
              onChange={(v) => setCreate({ ...create, role: v })}
              options={ROLES}
              allowEmpty={false}
            />
            <Field
              name="apps"
              value={create.apps}
              onChange={(v) => setCreate({ ...create, apps: v })}
              hint="app tokens, comma-separated (app_admin)"
            />
            <Field
              name="password"
              type="password"
              value={create.password}
              onChange={(v) => setCreate({ ...create, password: v })}
              hint="at least 12 characters"
            />
            <button type="submit">Create</button>
          </form>
        </Section>
      )}
      {isAdmin && (
        <Section title="Change an operator">
          <form
            aria-label="Change an operator"
            onSubmit={(e) => {
              e.preventDefault();
              void submitChange();
            }}
          >
            <Field name="login" value={change.login} onChange={(v) => setChange({ ...change, login: v })} maxLength={64} required />
            <Choice
              name="role"
              value={change.role}
              onChange={(v) => setChange({ ...change, role: v })}
              options={ROLES}
              allowEmpty={false}
            />
            <Field
              name="apps"
              value={change.apps}
              onChange={(v) => setChange({ ...change, apps: v })}
              hint="app tokens, comma-separated (app_admin)"
            />
            <Choice
              name="state"
              value={change.state}
              onChange={(v) => setChange({ ...change, state: v })}
              options={[
                ['enabled', 'may sign in (clears a lock)'],
                ['disabled', 'may not sign in'],
              ]}
            />
            <button type="submit">Save</button>
          </form>
        </Section>
      )}
    </>
  );
}
