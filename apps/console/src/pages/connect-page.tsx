import { type FormEvent, useId, useState } from 'react';
import { Result } from '../components';
import { type ConsoleConfig, type Credentials, type Outcome, type Session, openSession, outcomeOf } from '../session';

/** Connect: an app's credentials, checked with one signed call before they are kept for this tab. */
export function ConnectPage(props: { config: ConsoleConfig; notice?: string; connected: (c: Credentials, s: Session) => void }) {
  const [form, setForm] = useState<Credentials>({ appToken: '', secret: '', aesKey: '', aesMode: 'gcm' });
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState(false);
  const ids = { token: useId(), secret: useId(), aes: useId(), mode: useId() };
  const set = (k: keyof Credentials) => (e: { target: { value: string } }) => setForm({ ...form, [k]: e.target.value });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    try {
      const session = openSession(form, props.config);
      const res = await session.account.listUsers({ page_size: '1' });
      if (res.status === 401 || res.status >= 500) setOutcome(outcomeOf(res));
      else props.connected(form, session);
    } catch (err) {
      setOutcome({ status: 0, code: '', message: `the account service cannot be reached: ${(err as Error).message}` });
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="connect">
      <h1>geoaccount console</h1>
      <p>Enter the credentials of an app. They stay in this browser tab and sign every call; nothing else keeps them.</p>
      {props.notice && <p role="alert">{props.notice}</p>}
      <form onSubmit={(e) => void submit(e)} aria-label="Connect">
        <div className="field">
          <label htmlFor={ids.token}>App token</label>
          <input id={ids.token} value={form.appToken} onChange={set('appToken')} required maxLength={40} autoComplete="username" />
        </div>
        <div className="field">
          <label htmlFor={ids.secret}>App secret</label>
          <input id={ids.secret} type="password" value={form.secret} onChange={set('secret')} required autoComplete="current-password" />
        </div>
        <div className="field">
          <label htmlFor={ids.aes}>AES key</label>
          <input id={ids.aes} type="password" value={form.aesKey} onChange={set('aesKey')} required autoComplete="off" />
        </div>
        <div className="field">
          <label htmlFor={ids.mode}>AES mode</label>
          <select id={ids.mode} value={form.aesMode} onChange={set('aesMode')}>
            <option value="gcm">gcm</option>
            <option value="ecb">ecb</option>
          </select>
        </div>
        <button type="submit" disabled={busy}>
          Connect
        </button>
      </form>
      <Result outcome={outcome} />
    </main>
  );
}
