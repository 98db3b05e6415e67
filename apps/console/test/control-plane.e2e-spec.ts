/**
 * The console's control plane (docs/contract.md §12, §14) in headless Chromium: each role's
 * navigation and buttons, a credential rotation done entirely in the console (the secret shown
 * once, with a copy button), and axe on the Apps and Operators pages of each role.
 */
import AxeBuilder from '@axe-core/playwright';
import { AccountClient, AdminClient } from '@geoaccount/client';
import { type Browser, type BrowserContext, type Page, chromium } from 'playwright-core';
import { ADMIN_TOKEN, GCM_APP, INTERNAL_TOKEN, type Service, freePort, freshDatabase, signIn, startService } from './services';

const PASSWORD = 'operator-password-0123';

describe('console: apps, credentials, operators and roles', () => {
  let account: Service;
  let drop: () => Promise<void>;
  let browser: Browser;
  let api: AdminClient;
  /** An app of the control plane, the app_admin's one. */
  let managed: { app_token: string };
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    const db = await freshDatabase('console_cp');
    drop = db.drop;
    account = await startService('account', await freePort(), { DATABASE_URL: db.url, ADMIN_TOKEN, INTERNAL_TOKEN });
    api = new AdminClient({ baseUrl: account.url, token: ADMIN_TOKEN, retries: 0 });
    managed = (await api.createApp({ app_name: 'Managed by an app_admin' })).ok();
    for (const [login, role, apps] of [
      ['cp-admin', 'admin', undefined],
      ['cp-app-admin', 'app_admin', [managed.app_token]],
      ['cp-auditor', 'auditor', undefined],
    ] as const) {
      expect((await api.createOperator({ login, role, password: PASSWORD, ...(apps ? { apps: [...apps] } : {}) })).status).toBe(201);
    }
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    account?.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await drop?.();
  });

  /** A browser context of its own (its own cookie) signed in as `login`. */
  async function operatorPage(login: string): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: account.url });
    contexts.push(context);
    const page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
    await page.goto(`${account.url}/console/`);
    await signIn(page, login, PASSWORD);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    return page;
  }

  async function expectAccessible(page: Page, name: string): Promise<void> {
    const result = await new AxeBuilder({ page }).exclude('svg.map').analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  }

  const navLinks = async (page: Page) =>
    (await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents()).map((t) => t.trim());

  it('admin: every page, a rotation done entirely in the console, the secret shown once', async () => {
    const page = await operatorPage('cp-admin');
    expect(await navLinks(page)).toEqual(['Permissions', 'Groups', 'Users', 'Audit', 'Location', 'Apps', 'Operators']);
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await expectAccessible(page, 'admin apps');

    // Create an app: its first credential is shown once, with copy buttons.
    const create = page.getByRole('form', { name: 'Create an app' });
    await create.getByLabel('app_name', { exact: true }).fill('Rotated in the console');
    await create.getByRole('button', { name: 'Create' }).click();
    const shown = page.getByRole('region', { name: 'New credential' });
    await shown.waitFor();
    const first = {
      secret: (await shown.getByTestId('new-secret').textContent())!,
      aesKey: (await shown.getByTestId('new-aes-key').textContent())!,
    };
    await shown.getByRole('button', { name: 'Copy secret' }).click();
    await shown.getByText('secret copied').waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(first.secret);
    await expectAccessible(page, 'admin new credential');
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    await shown.waitFor({ state: 'detached' });
    const appToken = await page.getByLabel('App', { exact: true }).inputValue();
    expect(appToken).toMatch(/^app-[0-9a-f]{32}$/);
    const client = (secret: string) => new AccountClient({ retries: 0, baseUrl: account.url, appToken, secret });
    expect((await client(first.secret).listAuths()).status).toBe(200);
    // Nowhere else in the page once dismissed.
    expect(await page.content()).not.toContain(first.secret);

    // Issue a second credential: both valid.
    await page.getByRole('form', { name: 'Issue a credential' }).getByRole('button', { name: 'Issue credential' }).click();
    await shown.waitFor();
    const second = (await shown.getByTestId('new-secret').textContent())!;
    expect(second).not.toBe(first.secret);
    await shown.getByRole('button', { name: 'I have stored it' }).click();
    expect((await client(first.secret).listAuths()).status).toBe(200);
    expect((await client(second).listAuths()).status).toBe(200);
    // A third while two are active: refused with the service's code.
    await page.getByRole('button', { name: 'Issue credential' }).click();
    await page.getByRole('alert').filter({ hasText: '30120' }).waitFor();

    // Revoke the first: refused from then on, the second kept.
    const app = (await api.getApp(appToken)).ok();
    const firstId = app.credentials[0]!.credential_id;
    await page.getByRole('button', { name: `Revoke ${firstId}` }).click();
    await page
      .getByRole('table', { name: `Credentials of ${appToken}` })
      .getByRole('cell', { name: 'revoked', exact: true })
      .waitFor();
    expect((await client(first.secret).listAuths()).status).toBe(401);
    expect((await client(second).listAuths()).status).toBe(200);

    // Disable the app, enable it again.
    await page.getByRole('button', { name: 'Disable app' }).click();
    await page.getByRole('button', { name: 'Enable app' }).waitFor();
    expect((await client(second).listAuths()).status).toBe(401);
    await page.getByRole('button', { name: 'Enable app' }).click();
    await page.getByRole('button', { name: 'Disable app' }).waitFor();

    // Operators: create one, change its role.
    await page.getByRole('link', { name: 'Operators', exact: true }).click();
    const newOperator = page.getByRole('form', { name: 'Create an operator' });
    await newOperator.getByLabel('login', { exact: true }).fill('cp-new');
    await newOperator.getByLabel('role', { exact: true }).selectOption('auditor');
    await newOperator.getByLabel('password', { exact: true }).fill('a-new-operator-pw-1');
    await newOperator.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'cp-new', exact: true }).waitFor();
    const change = page.getByRole('form', { name: 'Change an operator' });
    await change.getByLabel('login', { exact: true }).fill('cp-new');
    await change.getByLabel('role', { exact: true }).selectOption('app_admin');
    await change.getByLabel('apps', { exact: true }).fill(appToken);
    await change.getByRole('button', { name: 'Save' }).click();
    // The table is read again after the answer: the row shows the new role.
    await page
      .getByRole('table', { name: 'Operators' })
      .getByRole('row', { name: /cp-new app_admin/ })
      .waitFor();
    expect((await api.getOperator('cp-new')).ok()).toMatchObject({ role: 'app_admin', apps: [appToken] });
    await expectAccessible(page, 'admin operators');

    // The audit trail names the operator of each change.
    const events = (await api.auditEvents({ app_token: appToken, resource_type: 'credential' })).ok().event_list;
    expect(events.length).toBeGreaterThanOrEqual(2);
    for (const e of events) expect(e.operator).toBe('cp-admin');
  });

  it('admin: unlocks a locked login id of an app', async () => {
    const page = await operatorPage('cp-admin');
    const app = new AccountClient({ retries: 0, baseUrl: account.url, ...GCM_APP });
    expect((await app.registerUser('locked-user', { user_name: 'L', user_type: 'C', user_pwd: 'Locked-Pass-01!' })).status).toBe(201);
    for (let i = 0; i < 5; i++) await app.login('locked-user', 'wrong-password');
    expect((await app.login('locked-user', 'Locked-Pass-01!')).body.response_code).toBe('20443');
    await page.getByLabel('App', { exact: true }).selectOption(GCM_APP.appToken);
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    const unlock = page.getByRole('form', { name: 'Unlock a login id' });
    await unlock.getByLabel('user_login_id', { exact: true }).fill('locked-user');
    await unlock.getByRole('button', { name: 'Unlock' }).click();
    await page.getByRole('status').filter({ hasText: '90000' }).waitFor();
    expect((await app.login('locked-user', 'Locked-Pass-01!')).status).toBe(200);
  });

  it('app_admin: its apps only, credentials of its app, no app creation, no operators', async () => {
    const page = await operatorPage('cp-app-admin');
    expect(await navLinks(page)).toEqual(['Permissions', 'Groups', 'Users', 'Audit', 'Location', 'Apps']);
    // The picker fills in once the operator's apps arrive; read it after that.
    const picker = page.getByLabel('App', { exact: true });
    await picker.locator(`option[value="${managed.app_token}"]`).waitFor({ state: 'attached' });
    const options = await picker.locator('option').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
    expect(options).toEqual([managed.app_token]);
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('button', { name: 'Issue credential' }).waitFor();
    expect(await page.getByRole('form', { name: 'Create an app' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: /Disable app|Enable app/ }).count()).toBe(0);
    await expectAccessible(page, 'app_admin apps');
    // Its app's data through the console: a permission created, recorded with its login.
    await page.getByRole('link', { name: 'Permissions', exact: true }).click();
    const form = page.getByRole('form', { name: 'Create auth' });
    await form.getByLabel('auth_id', { exact: true }).fill('APPADMIN1');
    await form.getByLabel('auth_name', { exact: true }).fill('By the app_admin');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('status').filter({ hasText: '90000' }).waitFor();
    const events = (await api.auditEvents({ app_token: managed.app_token, resource_id: 'APPADMIN1' })).ok().event_list;
    expect(events.map((e) => e.operator)).toEqual(['cp-app-admin']);
    // The API refuses another app and the admin routes anyway.
    const session = new AdminClient({ baseUrl: account.url, retries: 0 });
    await session.openSession('cp-app-admin', PASSWORD);
    expect((await session.createApp({ app_name: 'nope' })).body.response_code).toBe('90403');
    expect((await session.issueCredential(GCM_APP.appToken)).status).toBe(403);
  });

  it('auditor: only Audit, Apps and Operators, read-only, no users personal data', async () => {
    const page = await operatorPage('cp-auditor');
    expect(await navLinks(page)).toEqual(['Audit', 'Apps', 'Operators']);
    await page.getByRole('link', { name: 'Apps', exact: true }).click();
    await page.getByRole('table', { name: 'Apps' }).waitFor();
    for (const name of ['Create', 'Issue credential', 'Revoke', 'Disable app', 'Unlock', 'Save'])
      expect(await page.getByRole('button', { name }).count()).toBe(0);
    await expectAccessible(page, 'auditor apps');
    await page.getByRole('link', { name: 'Operators', exact: true }).click();
    await page.getByRole('cell', { name: 'cp-admin', exact: true }).waitFor();
    for (const name of ['Create', 'Save']) expect(await page.getByRole('button', { name }).count()).toBe(0);
    await expectAccessible(page, 'auditor operators');
    await page.getByRole('link', { name: 'Audit', exact: true }).click();
    await page.getByRole('table', { name: 'Audit events, oldest first' }).waitFor();
    await expectAccessible(page, 'auditor audit');
    // The Users page is not reachable, and its data is refused through the proxy anyway.
    await page.goto(`${account.url}/console/#/users`);
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.getByRole('form', { name: 'Register user' }).count()).toBe(0);
    const refused = await page.evaluate(
      async (token) => (await fetch(`/console/api/${token}/account/v1.0.1/users`)).status,
      GCM_APP.appToken,
    );
    expect(refused).toBe(403);
    const session = new AdminClient({ baseUrl: account.url, retries: 0 });
    await session.openSession('cp-auditor', PASSWORD);
    expect((await session.createApp({ app_name: 'nope' })).body.response_code).toBe('90403');
    expect((await session.listApps()).status).toBe(200);
  });
});
