import { type FormEvent, useId, useState } from 'react';
import { Result } from '../components';
import { type Operator, type Outcome, admin, operatorOf, outcomeOf } from '../session';

/** Sign in (docs/contract.md §12, §14): the operator's own login and password, never an app's secret. */
export function SignInPage(props: { notice?: string; signedIn: (o: Operator) => void }) {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const ids = { login: useId(), password: useId() };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const res = await admin.openSession(login, password);
      if (res.status === 201) props.signedIn(operatorOf(res.body));
      else setOutcome(outcomeOf(res));
    } catch (err) {
      setOutcome({ status: 0, code: '', message: `the account service cannot be reached: ${(err as Error).message}` });
    } finally {
      setBusy(false);
      setPassword('');
    }
  };

  return (
    <main className="connect">
      <h1>geoaccount console</h1>
      <p>Sign in with your operator login. The apps your role allows are listed once you are in.</p>
      {props.notice && <p role="alert">{props.notice}</p>}
      <form onSubmit={(e) => void submit(e)} aria-label="Sign in">
        <div className="field">
          <label htmlFor={ids.login}>Login</label>
          <input id={ids.login} value={login} onChange={(e) => setLogin(e.target.value)} required maxLength={64} autoComplete="username" />
        </div>
        <div className="field">
          <label htmlFor={ids.password}>Password</label>
          <input
            id={ids.password}
            type="password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            required
            autoComplete="current-password"
          />
        </div>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      <Result outcome={outcome} />
    </main>
  );
}
