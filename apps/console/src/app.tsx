import { useCallback, useEffect, useState } from 'react';
import { ConnectPage } from './pages/connect-page';
import { AuditPage } from './pages/audit-page';
import { GroupsPage } from './pages/groups-page';
import { LocationPage } from './pages/location-page';
import { PermissionsPage } from './pages/permissions-page';
import { UsersPage } from './pages/users-page';
import {
  type ConsoleConfig,
  type Credentials,
  type PageProps,
  type Session,
  clearCredentials,
  loadConfig,
  loadCredentials,
  openSession,
  saveCredentials,
} from './session';

const PAGES = ['Permissions', 'Groups', 'Users', 'Audit', 'Location'] as const;
type PageName = (typeof PAGES)[number];

function pageOfHash(): PageName {
  const name = decodeURIComponent(window.location.hash.replace(/^#\/?/, ''));
  return PAGES.find((p) => p.toLowerCase() === name.toLowerCase()) ?? 'Permissions';
}

export function App() {
  const [config, setConfig] = useState<ConsoleConfig>();
  const [session, setSession] = useState<Session>();
  const [notice, setNotice] = useState<string>();
  const [page, setPage] = useState<PageName>(pageOfHash);

  useEffect(() => {
    void loadConfig().then((c) => {
      setConfig(c);
      const saved = loadCredentials();
      if (saved) setSession(openSession(saved, c));
    });
    const onHash = () => setPage(pageOfHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const unauthorized = useCallback((message: string) => {
    clearCredentials();
    setSession(undefined);
    setNotice(`The service refused these credentials: ${message}`);
  }, []);

  const connected = (credentials: Credentials, checked: Session) => {
    saveCredentials(credentials);
    setNotice(undefined);
    setSession(checked);
  };

  if (!config) return <p>Loading…</p>;
  if (!session) return <ConnectPage config={config} notice={notice} connected={connected} />;

  const props: PageProps = { session, unauthorized };
  return (
    <>
      <header>
        <h1>geoaccount console</h1>
        <nav aria-label="Main">
          <ul>
            {PAGES.map((p) => (
              <li key={p}>
                <a href={`#/${p.toLowerCase()}`} aria-current={p === page ? 'page' : undefined}>
                  {p}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <p className="app">
          App <code>{session.credentials.appToken}</code> ({session.credentials.aesMode}){' '}
          <button type="button" onClick={() => unauthorized('disconnected')}>
            Disconnect
          </button>
        </p>
      </header>
      <main>
        {page === 'Permissions' && <PermissionsPage {...props} />}
        {page === 'Groups' && <GroupsPage {...props} />}
        {page === 'Users' && <UsersPage {...props} />}
        {page === 'Audit' && <AuditPage {...props} />}
        {page === 'Location' && <LocationPage {...props} />}
      </main>
    </>
  );
}
