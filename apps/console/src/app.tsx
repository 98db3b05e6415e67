import { useCallback, useEffect, useId, useState } from 'react';
import type { AdminApp } from '@geoaccount/client';
import { AppsPage } from './pages/apps-page';
import { AuditPage } from './pages/audit-page';
import { GroupsPage } from './pages/groups-page';
import { LocationPage } from './pages/location-page';
import { OperatorsPage } from './pages/operators-page';
import { PermissionsPage } from './pages/permissions-page';
import { SignInPage } from './pages/sign-in-page';
import { UsersPage } from './pages/users-page';
import { type Operator, type PageProps, admin, operatorOf, sessionFor } from './session';

const ALL_PAGES = ['Permissions', 'Groups', 'Users', 'Audit', 'Location', 'Apps', 'Operators'] as const;
type PageName = (typeof ALL_PAGES)[number];

/** The navigation of each role (docs/contract.md §12): an auditor has only Audit, Apps and Operators. */
function pagesOf(operator: Operator): readonly PageName[] {
  switch (operator.role) {
    case 'admin':
      return ALL_PAGES;
    case 'app_admin':
      return ['Permissions', 'Groups', 'Users', 'Audit', 'Location', 'Apps'];
    case 'auditor':
      return ['Audit', 'Apps', 'Operators'];
  }
}

function pageOfHash(pages: readonly PageName[]): PageName {
  const name = decodeURIComponent(window.location.hash.replace(/^#\/?/, ''));
  return pages.find((p) => p.toLowerCase() === name.toLowerCase()) ?? pages[0]!;
}

const APP_KEY = 'geoaccount.console.app';

export function App() {
  const [operator, setOperator] = useState<Operator | null>();
  const [notice, setNotice] = useState<string>();
  // Undefined until the first list arrives: the picker then says so, rather than "(no app)".
  const [apps, setApps] = useState<AdminApp[]>();
  const [appToken, setAppToken] = useState<string>(() => sessionStorage.getItem(APP_KEY) ?? '');
  const [hash, setHash] = useState(window.location.hash);
  const pickerId = useId();

  useEffect(() => {
    // A reload keeps the session: the cookie is the browser's; the CSRF token is asked again.
    void admin.currentSession().then(
      (res) => setOperator(res.status === 200 ? operatorOf(res.body) : null),
      () => setOperator(null),
    );
    const onHash = () => setHash(window.location.hash);
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  const unauthorized = useCallback((message: string) => {
    setOperator(null);
    setApps(undefined);
    setNotice(`Signed out: ${message}`);
  }, []);

  const choose = (token: string) => {
    setAppToken(token);
    sessionStorage.setItem(APP_KEY, token);
  };

  const reload = useCallback(
    async (select?: string) => {
      const res = await admin.listApps();
      if (res.status === 401) return unauthorized(String(res.body.response_message ?? 'not signed in'));
      const list = res.status === 200 ? res.body.app_list : [];
      setApps(list);
      const wanted = select ?? appToken;
      if (!list.some((a) => a.app_token === wanted) && list[0]) choose(list[0].app_token);
      else if (select) choose(select);
    },
    [appToken, unauthorized],
  );

  useEffect(() => {
    if (operator) void reload();
  }, [operator]);

  if (operator === undefined) return <p>Loading…</p>;
  if (operator === null)
    return (
      <SignInPage
        notice={notice}
        signedIn={(o) => {
          setNotice(undefined);
          setOperator(o);
        }}
      />
    );

  const pages = pagesOf(operator);
  const page = pageOfHash(pages);
  void hash;
  const session = appToken ? sessionFor(operator, appToken) : undefined;
  const props: PageProps | undefined = session ? { session, unauthorized } : undefined;
  const signOut = async () => {
    await admin.closeSession();
    unauthorized('you signed out');
  };

  return (
    <>
      <header>
        <h1>geoaccount console</h1>
        <nav aria-label="Main">
          <ul>
            {pages.map((p) => (
              <li key={p}>
                <a href={`#/${p.toLowerCase()}`} aria-current={p === page ? 'page' : undefined}>
                  {p}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="app">
          <label htmlFor={pickerId}>App</label>
          <select id={pickerId} value={appToken} onChange={(e) => choose(e.target.value)}>
            {apps === undefined && <option value="">Loading apps…</option>}
            {apps?.length === 0 && <option value="">(no app)</option>}
            {apps?.map((a) => (
              <option key={a.app_token} value={a.app_token}>
                {a.app_name ? `${a.app_name} (${a.app_token})` : a.app_token}
                {a.state === 'disabled' ? ' - disabled' : ''}
              </option>
            ))}
          </select>{' '}
          <span>
            Signed in as <strong>{operator.login}</strong> ({operator.role})
          </span>{' '}
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main>
        {page === 'Apps' && (
          <AppsPage operator={operator} apps={apps ?? []} appToken={appToken} reload={reload} unauthorized={unauthorized} />
        )}
        {page === 'Operators' && <OperatorsPage operator={operator} unauthorized={unauthorized} />}
        {!props && page !== 'Apps' && page !== 'Operators' && (
          <p>
            {apps === undefined
              ? 'Loading apps…'
              : `No app to work on: ${operator.role === 'admin' ? 'create one under Apps.' : 'ask an admin for one.'}`}
          </p>
        )}
        {props && (
          <div key={appToken}>
            {page === 'Permissions' && <PermissionsPage {...props} />}
            {page === 'Groups' && <GroupsPage {...props} />}
            {page === 'Users' && <UsersPage {...props} />}
            {page === 'Audit' && <AuditPage {...props} />}
            {page === 'Location' && <LocationPage {...props} />}
          </div>
        )}
      </main>
    </>
  );
}
