import { useState } from 'react';
import type { AdminApp, IssuedCredential } from '@geoaccount/client';
import { Choice, DataTable, Field, Result, Section, guard } from '../components';
import { type Operator, type Outcome, admin, outcomeOf } from '../session';

export interface AppsPageProps {
  operator: Operator;
  apps: AdminApp[];
  /** The app chosen in the `App` picker: its credentials are managed here. */
  appToken: string;
  reload: (select?: string) => Promise<void>;
  unauthorized: (message: string) => void;
}

/** A new credential, shown once with a copy button: the service never answers its secret again. */
function NewCredential({ issued, appToken, done }: { issued: IssuedCredential; appToken: string; done: () => void }) {
  const [copied, setCopied] = useState<string>();
  const copy = (what: string, value: string) =>
    void navigator.clipboard.writeText(value).then(
      () => setCopied(`${what} copied`),
      () => setCopied(`${what} could not be copied: select it and copy it by hand`),
    );
  return (
    <section aria-label="New credential" className="new-credential">
      <h3>New credential of {appToken}</h3>
      <p role="status">Shown once: store the secret and the AES key now. The service keeps them encrypted and never shows them again.</p>
      <dl>
        <dt>credential_id</dt>
        <dd>
          <code>{issued.credential_id}</code>
        </dd>
        <dt>secret</dt>
        <dd>
          <code data-testid="new-secret">{issued.secret}</code>{' '}
          <button type="button" onClick={() => copy('secret', issued.secret)}>
            Copy secret
          </button>
        </dd>
        <dt>aes_key</dt>
        <dd>
          <code data-testid="new-aes-key">{issued.aes_key}</code>{' '}
          <button type="button" onClick={() => copy('AES key', issued.aes_key)}>
            Copy AES key
          </button>
        </dd>
      </dl>
      {copied && <p role="status">{copied}</p>}
      <button type="button" onClick={done}>
        I have stored it
      </button>
    </section>
  );
}

/**
 * Apps (docs/contract.md §14): the apps the role allows; an admin creates and disables apps;
 * an admin or the app's app_admin issues and revokes credentials and unlocks a user login id;
 * an auditor reads. Buttons a role may not use are absent (the API refuses them anyway).
 */
export function AppsPage(props: AppsPageProps) {
  const call = guard(props.unauthorized);
  const { operator, apps } = props;
  const isAdmin = operator.role === 'admin';
  const selected = apps.find((a) => a.app_token === props.appToken);
  const managesSelected =
    !!selected && selected.source === 'api' && (isAdmin || (operator.role === 'app_admin' && operator.apps.includes(selected.app_token)));
  const unlocks = !!selected && (isAdmin || (operator.role === 'app_admin' && operator.apps.includes(selected.app_token)));
  const [outcome, setOutcome] = useState<Outcome>();
  const [issued, setIssued] = useState<{ appToken: string; credential: IssuedCredential }>();
  const [create, setCreate] = useState({ app_name: '', aes_mode: 'gcm' });
  const [retire, setRetire] = useState('');
  const [unlockId, setUnlockId] = useState('');

  const createApp = async () => {
    const res = await call(admin.createApp({ app_name: create.app_name, aes_mode: create.aes_mode as 'gcm' | 'ecb' }));
    setOutcome(outcomeOf(res));
    if (res.status === 201) {
      setCreate({ app_name: '', aes_mode: 'gcm' });
      // The new app is picked first, so the secret is shown with its app already chosen.
      await props.reload(res.body.app_token);
      setIssued({ appToken: res.body.app_token, credential: res.body.credential });
    }
  };
  const issue = async () => {
    if (!selected) return;
    const res = await call(admin.issueCredential(selected.app_token, retire === '' ? {} : { retire_others_in: Number(retire) }));
    setOutcome(outcomeOf(res));
    if (res.status === 201) {
      setIssued({
        appToken: selected.app_token,
        credential: { credential_id: res.body.credential_id, secret: res.body.secret, aes_key: res.body.aes_key },
      });
      setRetire('');
      await props.reload();
    }
  };
  const revoke = async (credentialId: string) => {
    if (!selected) return;
    const res = await call(admin.revokeCredential(selected.app_token, credentialId));
    setOutcome(outcomeOf(res));
    await props.reload();
  };
  const toggle = async () => {
    if (!selected) return;
    const res = await call(selected.state === 'enabled' ? admin.disableApp(selected.app_token) : admin.enableApp(selected.app_token));
    setOutcome(outcomeOf(res));
    await props.reload();
  };
  const unlock = async () => {
    if (!selected) return;
    const res = await call(admin.clearLockout(selected.app_token, unlockId));
    setOutcome(outcomeOf(res));
  };

  return (
    <>
      <h2 className="page-title">Apps</h2>
      {issued && <NewCredential issued={issued.credential} appToken={issued.appToken} done={() => setIssued(undefined)} />}
      <Result outcome={outcome} />
      <DataTable
        caption="Apps"
        columns={['app_token', 'app_name', 'aes_mode', 'state', 'source', 'create_time']}
        rows={apps}
        rowKey={(a) => a.app_token}
      />
      {isAdmin && (
        <Section title="Create an app">
          <form
            aria-label="Create an app"
            onSubmit={(e) => {
              e.preventDefault();
              void createApp();
            }}
          >
            <Field
              name="app_name"
              value={create.app_name}
              onChange={(v) => setCreate({ ...create, app_name: v })}
              maxLength={64}
              required
            />
            <Choice
              name="aes_mode"
              value={create.aes_mode}
              onChange={(v) => setCreate({ ...create, aes_mode: v })}
              options={[
                ['gcm', 'AES-128-GCM'],
                ['ecb', 'AES-128-ECB (Java default)'],
              ]}
              allowEmpty={false}
            />
            <button type="submit">Create</button>
          </form>
        </Section>
      )}
      {selected && (
        <Section title={`Credentials of ${selected.app_name || selected.app_token}`}>
          <DataTable
            caption={`Credentials of ${selected.app_token}`}
            columns={['credential_id', 'create_time', 'state', 'expire_time', 'last_used_time']}
            rows={selected.credentials}
            rowKey={(c) => c.credential_id}
            actions={
              managesSelected
                ? (c) =>
                    c.state === 'active' ? (
                      <button type="button" aria-label={`Revoke ${c.credential_id}`} onClick={() => void revoke(c.credential_id)}>
                        Revoke
                      </button>
                    ) : null
                : undefined
            }
          />
          {selected.source === 'config' && <p>This app comes from APP_CREDENTIALS: it is read-only here.</p>}
          {managesSelected && (
            <form
              aria-label="Issue a credential"
              onSubmit={(e) => {
                e.preventDefault();
                void issue();
              }}
            >
              <Field
                name="retire_others_in"
                value={retire}
                onChange={setRetire}
                hint="optional: seconds (60 to 2592000) after which the other active credential expires"
              />
              <button type="submit">Issue credential</button>
            </form>
          )}
          {isAdmin && selected.source === 'api' && (
            <button type="button" onClick={() => void toggle()}>
              {selected.state === 'enabled' ? 'Disable app' : 'Enable app'}
            </button>
          )}
          {unlocks && (
            <form
              aria-label="Unlock a login id"
              onSubmit={(e) => {
                e.preventDefault();
                void unlock();
              }}
            >
              <Field name="user_login_id" value={unlockId} onChange={setUnlockId} maxLength={64} required />
              <button type="submit">Unlock</button>
            </form>
          )}
        </Section>
      )}
    </>
  );
}
