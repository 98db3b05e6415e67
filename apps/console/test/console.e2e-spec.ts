/**
 * The console in headless Chromium against the compiled services, driven by the accessible names
 * of docs/contract.md §12: operators sign in with their own login (no app secret in the browser),
 * pick an app, and work on its permissions tree, a group, a user with effective permissions, test
 * logins (gcm and ecb apps), a refused form, the map (computed, then cached), the audit trail; a
 * 401 brings back Sign in; axe finds no serious or critical violation on any page. Screenshots go
 * to .test-results/console (and to docs/console/ with UPDATE_SCREENSHOTS=1). The roles and the
 * control plane's pages are in control-plane.e2e-spec.ts.
 */
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { AdminClient } from '@geoaccount/client';
import { type Browser, type Page, chromium } from 'playwright-core';
import { ADMIN_TOKEN, ECB_APP, GCM_APP, INTERNAL_TOKEN, ROOT, type Service, freePort, freshDatabase, signIn, startService } from './services';

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? join(ROOT, 'docs/console') : join(ROOT, '.test-results/console');
const OPERATOR = { login: 'console-admin', password: 'console-admin-password-1' };

describe('web console', () => {
  let account: Service;
  let location: Service;
  let drop: () => Promise<void>;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const db = await freshDatabase('console_e2e');
    drop = db.drop;
    const [accountPort, locationPort] = [await freePort(), await freePort()];
    [account, location] = await Promise.all([
      startService('account', accountPort, {
        DATABASE_URL: db.url,
        CONSOLE_LOCATION_URL: `http://127.0.0.1:${locationPort}`,
        ADMIN_TOKEN,
        INTERNAL_TOKEN,
      }),
      startService('location', locationPort, { CORS_ORIGINS: `http://127.0.0.1:${accountPort}` }),
    ]);
    const admin = new AdminClient({ baseUrl: account.url, token: ADMIN_TOKEN, retries: 0 });
    expect((await admin.createOperator({ login: OPERATOR.login, role: 'admin', password: OPERATOR.password })).status).toBe(201);
    browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    page = await context.newPage();
    page.on('pageerror', (err) => {
      throw err;
    });
  });

  afterAll(async () => {
    await browser?.close();
    for (const s of [account, location]) s?.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    await drop?.();
  });

  async function expectAccessible(name: string): Promise<void> {
    // The map's thousands of county paths are one image to assistive technology (role img + label).
    const result = await new AxeBuilder({ page }).exclude('svg.map').analyze();
    const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => `${name}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  }

  it('is served at /console/ with a strict Content-Security-Policy and no signature', async () => {
    const res = await fetch(`${account.url}/console/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
    expect(await res.text()).not.toMatch(/<script>(?!<\/script>)|<script(?![^>]*\ssrc=)[^>]*>/);
    expect(await (await fetch(`${account.url}/console/config.json`)).json()).toEqual({ locationUrl: location.url });
  });

  it('refuses a wrong password on Sign in with the service message', async () => {
    await page.goto(`${account.url}/console/`);
    await expectAccessible('sign-in');
    await signIn(page, OPERATOR.login, 'not-the-password-of-it');
    await expect(page.getByRole('alert').textContent()).resolves.toContain('90401');
    expect(await page.evaluate(() => sessionStorage.length + localStorage.length)).toBe(0);
  });

  it('signs in (from the keyboard only), keeps no secret in the page, and shows the navigation and the App picker', async () => {
    await page.getByLabel('Login', { exact: true }).fill('');
    await page.getByLabel('Password', { exact: true }).fill('');
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    for (;;) {
      await page.keyboard.press('Tab');
      if (await page.getByLabel('Login', { exact: true }).evaluate((el) => el === document.activeElement)) break;
    }
    await page.keyboard.type(OPERATOR.login);
    await page.keyboard.press('Tab');
    await page.keyboard.type(OPERATOR.password);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign in');
    await page.keyboard.press('Enter');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    for (const link of ['Permissions', 'Groups', 'Users', 'Audit', 'Location', 'Apps', 'Operators']) await page.getByRole('link', { name: link, exact: true }).waitFor();
    await page.getByLabel('App', { exact: true }).selectOption(GCM_APP.appToken);
    // The session cookie is HttpOnly: the page cannot read it; nothing secret is stored.
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => Object.keys(sessionStorage))).toEqual(['geoaccount.console.app']);
    const html = await page.content();
    for (const secret of [GCM_APP.secret, GCM_APP.aesKey, ECB_APP.secret, ECB_APP.aesKey]) expect(html).not.toContain(secret);
    await page.getByRole('link', { name: 'Permissions' }).click();
  });

  it('creates a root and a child permission and shows them as a tree', async () => {
    const form = page.getByRole('form', { name: 'Create auth' });
    await form.getByLabel('auth_id', { exact: true }).fill('ORDERS');
    await form.getByLabel('auth_name', { exact: true }).fill('Orders');
    await form.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByRole('status').textContent()).resolves.toContain('90000');
    await form.getByLabel('auth_id', { exact: true }).fill('ORDERS-EXPORT');
    await form.getByLabel('auth_name', { exact: true }).fill('Export orders');
    await form.getByLabel('parent_auth_id', { exact: true }).fill('ORDERS');
    await form.getByRole('button', { name: 'Create' }).click();
    const tree = page.getByRole('group', { name: 'Auth hierarchy' });
    const child = tree.locator('code', { hasText: 'ORDERS-EXPORT' });
    await child.waitFor();
    // The child sits inside its parent's item, and collapsing the parent hides it.
    await tree.getByRole('listitem').filter({ has: page.locator('code', { hasText: /^ORDERS$/ }) }).locator('code', { hasText: 'ORDERS-EXPORT' }).waitFor();
    await tree.getByRole('button', { name: 'Collapse ORDERS', exact: true }).click();
    expect(await child.count()).toBe(0);
    await tree.getByRole('button', { name: 'Expand ORDERS', exact: true }).click();
    await child.waitFor();
    await expectAccessible('permissions');
  });

  it('shows the code and message of a refused form', async () => {
    const form = page.getByRole('form', { name: 'Create auth' });
    await form.getByLabel('auth_id', { exact: true }).fill('ORDERS');
    await form.getByLabel('auth_name', { exact: true }).fill('Again');
    await form.getByLabel('parent_auth_id', { exact: true }).fill('');
    await form.getByRole('button', { name: 'Create' }).click();
    const alert = await page.getByRole('alert').textContent();
    expect(alert).toContain('409');
    expect(alert).toContain('10010');
  });

  it('creates a group with a member auth picked from the tree', async () => {
    await page.getByRole('link', { name: 'Groups' }).click();
    const form = page.getByRole('form', { name: 'Create group' });
    await form.getByLabel('group_id', { exact: true }).fill('CLERKS');
    await form.getByLabel('group_name', { exact: true }).fill('Clerks');
    await form.getByRole('button', { name: 'Member ORDERS-EXPORT' }).click();
    expect(await form.getByLabel('group_auths', { exact: true }).inputValue()).toBe('ORDERS-EXPORT');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'CLERKS', exact: true }).waitFor();
    await expectAccessible('groups');
  });

  it('registers a user with an auth and a group, shows its effective permissions, and test-logs in (gcm)', async () => {
    await page.getByRole('link', { name: 'Users' }).click();
    const form = page.getByRole('form', { name: 'Register user' });
    await form.getByLabel('user_login_id', { exact: true }).fill('alice');
    await form.getByLabel('user_name', { exact: true }).fill('Alice');
    await form.getByLabel('user_pwd', { exact: true }).fill('P@ssw0rd!');
    await form.getByLabel('user_auths', { exact: true }).fill('ORDERS');
    await form.getByLabel('user_auth_groups', { exact: true }).fill('CLERKS');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('cell', { name: 'alice', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Detail alice' }).click();
    const effective = page.getByRole('table', { name: 'Effective permissions' });
    await effective.getByRole('cell', { name: 'direct' }).waitFor();
    await effective.getByRole('cell', { name: 'group:CLERKS' }).waitFor();
    await page.getByRole('form', { name: 'Test login' }).getByLabel('password', { exact: true }).fill('P@ssw0rd!');
    await page.getByRole('button', { name: 'Test login' }).click();
    await page.getByRole('status').filter({ hasText: /HTTP 200, 90000/ }).waitFor();
    await page.getByRole('form', { name: 'Test login' }).getByLabel('password', { exact: true }).fill('wrong');
    await page.getByRole('button', { name: 'Test login' }).click();
    await page.getByRole('alert').filter({ hasText: /HTTP 401, 20441/ }).waitFor();
    await expectAccessible('users');
  });

  it('lists those changes on the audit page, each with its before/after', async () => {
    await page.getByRole('link', { name: 'Audit' }).click();
    const events = page.getByRole('table', { name: 'Audit events, oldest first' });
    await events.getByRole('cell', { name: 'ORDERS-EXPORT', exact: true }).first().waitFor();
    for (const id of ['ORDERS', 'CLERKS', 'alice']) await events.getByRole('cell', { name: id, exact: true }).first().waitFor();
    // The user's login attempts are events too: one success, one failure.
    await events.getByRole('cell', { name: 'login_failed', exact: true }).waitFor();
    // Filter: the creates of auths only.
    const form = page.getByRole('form', { name: 'Search audit events' });
    await form.getByLabel('resource_type', { exact: true }).selectOption('auth');
    await form.getByLabel('action', { exact: true }).selectOption('create');
    await form.getByRole('button', { name: 'Search' }).click();
    // The group's and the user's events leave the page (this waits for the filtered page).
    await events.getByRole('cell', { name: 'CLERKS', exact: true }).first().waitFor({ state: 'detached' });
    await events.getByRole('cell', { name: 'ORDERS-EXPORT', exact: true }).waitFor();
    expect(await events.getByRole('cell', { name: 'auth_group', exact: true }).count()).toBe(0);
    // The create shows its fields as a diff: the name it was given.
    expect(await events.locator('ins', { hasText: 'Export orders' }).count()).toBe(1);
    await expectAccessible('audit');
  });

  it('answers a map click with the county, then from the cache', async () => {
    await page.getByRole('link', { name: 'Location' }).click();
    const map = page.getByRole('img', { name: /Map of China/ });
    await map.waitFor();
    await page.locator('svg.map path').first().waitFor();
    // Click where Beijing's centre is drawn (the map's own projection).
    const point = await page.evaluate(() => {
      const svg = document.querySelector('svg.map') as SVGSVGElement;
      const [west, north] = [73, 54];
      const kx = Math.cos((36 * Math.PI) / 180);
      const unit = 1000 / ((136 - 73) * kx);
      const p = new DOMPoint((116.397 - west) * kx * unit, (north - 39.909) * unit).matrixTransform(svg.getScreenCTM()!);
      return { x: p.x, y: p.y };
    });
    await page.mouse.click(point.x, point.y);
    await page.getByText('computed (lbsStat 1)').waitFor();
    // A county of Beijing's centre (the click lands within a few hundred metres of the point).
    expect(await page.locator('dl.answer').textContent()).toMatch(/provinceName北京市.*standardCode1101\d\d/);
    await page.mouse.click(point.x, point.y);
    await page.getByText('from the cache (lbsStat 2)').waitFor();
    await page.getByTestId('marker').waitFor();
    await expectAccessible('location');
  });

  it('looks up an address and marks the answered point', async () => {
    const form = page.getByRole('form', { name: 'addressQuery' });
    await form.getByLabel('city', { exact: true }).fill('北京市');
    await form.getByLabel('address', { exact: true }).fill('东城区');
    await form.getByRole('button', { name: 'Look up' }).click();
    await page.locator('dl.answer').getByText('longitude').waitFor();
    expect(await page.locator('dl.answer').textContent()).toContain('110101');
  });

  it('records the operator of each change made in the console', async () => {
    const events = await new AdminClient({ baseUrl: account.url, token: ADMIN_TOKEN, retries: 0 }).auditEvents({ app_token: GCM_APP.appToken, resource_id: 'ORDERS', action: 'create' });
    expect(events.body.event_list).toEqual([expect.objectContaining({ resource_type: 'auth', resource_id: 'ORDERS', operator: OPERATOR.login })]);
  });

  it('test-logs in for an ecb app, picked in the App picker', async () => {
    await page.getByLabel('App', { exact: true }).selectOption(ECB_APP.appToken);
    await page.getByRole('link', { name: 'Users' }).click();
    const form = page.getByRole('form', { name: 'Register user' });
    await form.getByLabel('user_login_id', { exact: true }).fill('bob');
    await form.getByLabel('user_name', { exact: true }).fill('Bob');
    await form.getByLabel('user_pwd', { exact: true }).fill('S3cret-ecb');
    await form.getByRole('button', { name: 'Create' }).click();
    await page.getByRole('button', { name: 'Detail bob' }).click();
    await page.getByRole('form', { name: 'Test login' }).getByLabel('password', { exact: true }).fill('S3cret-ecb');
    await page.getByRole('button', { name: 'Test login' }).click();
    await page.getByRole('status').filter({ hasText: /HTTP 200, 90000/ }).waitFor();
  });

  it('brings the operator back to Sign in when the session is gone (401)', async () => {
    await page.context().clearCookies();
    await page.getByRole('link', { name: 'Permissions' }).click();
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain('Signed out');
  });
});
