/**
 * The operator rules (docs/contract.md §14) without HTTP: a password of at least 12
 * characters (the body's validation) or a directory account, apps for an app_admin only and
 * naming apps, 30310 for a login that exists, and a change that ends the operator's sessions.
 */
import { DEMO_APP } from '@geoaccount/signing';
import { CreateOperatorDto } from '../../src/operators/dto/create-operator.dto';
import { ModifyOperatorDto } from '../../src/operators/dto/modify-operator.dto';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { ADMIN, type ControlPlaneServices, controlPlaneServices, outcome, validBody } from './medium.factory';

const PASSWORD = 'p'.repeat(12);

let db: MediumDatabase;
let s: ControlPlaneServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = controlPlaneServices(db);
});
afterAll(() => db?.close());

describe('password', () => {
  it('refuses a password of 11 characters (90100) and takes one of 12, on create and modify', async () => {
    expect(await outcome(validBody(CreateOperatorDto, { login: 'short', role: 'auditor', password: 'p'.repeat(11) }))).toEqual({
      code: '90100',
      message: expect.stringContaining('password') as string,
    });
    expect(await outcome(validBody(CreateOperatorDto, { login: 'short', role: 'auditor', password: PASSWORD }))).toMatchObject({ code: '90000' });
    expect(await outcome(validBody(ModifyOperatorDto, { password: 'p'.repeat(11) }))).toMatchObject({ code: '90100' });
    expect(await outcome(validBody(ModifyOperatorDto, { password: PASSWORD }))).toMatchObject({ code: '90000' });
  });

  it('wants a password or the directory, not both, and stores only an argon2id hash', async () => {
    expect(await outcome(s.operators.create(ADMIN, { login: 'x', role: 'auditor' }))).toEqual({ code: '90100', message: 'missing password' });
    expect(await outcome(s.operators.create(ADMIN, { login: 'x', role: 'auditor', password: PASSWORD, directory: true }))).toEqual({
      code: '90100',
      message: 'directory operator, no password',
    });
    await s.operators.create(ADMIN, { login: 'hashed', role: 'auditor', password: PASSWORD });
    const [row] = (await db.dataSource.query(`SELECT password_hash FROM operators WHERE login = 'hashed'`)) as { password_hash: string }[];
    expect(row!.password_hash).toMatch(/^\$argon2id\$/);
    expect(row!.password_hash).not.toContain(PASSWORD);
    expect((await s.operators.create(ADMIN, { login: 'dir', role: 'auditor', directory: true })).directory).toBe(true);
    expect(await outcome(s.operators.modify(ADMIN, 'dir', { password: PASSWORD }))).toEqual({ code: '90100', message: 'directory operator, no password' });
  });
});

describe('role and apps', () => {
  it('gives apps to an app_admin only, and only apps that exist (config apps included)', async () => {
    const { app } = await s.apps.create(ADMIN, { app_name: 'Ops' });
    expect(await outcome(s.operators.create(ADMIN, { login: 'x', role: 'auditor', password: PASSWORD, apps: [app.app_token] }))).toEqual({
      code: '90100',
      message: 'app_admin only: apps',
    });
    expect(await outcome(s.operators.create(ADMIN, { login: 'x', role: 'app_admin', password: PASSWORD, apps: ['app-ffff'] }))).toEqual({
      code: '90100',
      message: 'unknown app in apps',
    });
    const created = await s.operators.create(ADMIN, {
      login: 'appadmin',
      role: 'app_admin',
      password: PASSWORD,
      apps: [app.app_token, DEMO_APP.appToken, app.app_token],
    });
    expect(created).toMatchObject({ login: 'appadmin', role: 'app_admin', apps: [app.app_token, DEMO_APP.appToken], directory: false, locked: false });
  });

  it('drops the apps when the role changes away from app_admin, audited', async () => {
    const { app } = await s.apps.create(ADMIN, { app_name: 'Drop' });
    await s.operators.create(ADMIN, { login: 'demoted', role: 'app_admin', password: PASSWORD, apps: [app.app_token] });
    expect(await s.operators.modify(ADMIN, 'demoted', { role: 'auditor' })).toMatchObject({ role: 'auditor', apps: [] });
    const [event] = (await db.dataSource.query(
      `SELECT changes::json AS changes FROM audit_events WHERE resource_type = 'operator' AND resource_id = 'demoted' AND action = 'modify'`,
    )) as { changes: unknown }[];
    expect(event!.changes).toEqual({ role: { from: 'app_admin', to: 'auditor' }, apps: { from: [app.app_token], to: [] } });
  });
});

describe('logins', () => {
  it('answers 30310 for a login that exists and 30301 for one that does not', async () => {
    await s.operators.create(ADMIN, { login: 'twice', role: 'auditor', password: PASSWORD });
    expect(await outcome(s.operators.create(ADMIN, { login: 'twice', role: 'admin', password: PASSWORD }))).toEqual({
      code: '30310',
      message: 'the operator exists',
    });
    expect((await s.operators.get('twice')).role).toBe('auditor');
    expect(await outcome(s.operators.get('nobody'))).toEqual({ code: '30301', message: 'no such operator' });
    expect(await outcome(s.operators.modify(ADMIN, 'nobody', { role: 'auditor' }))).toMatchObject({ code: '30301' });
  });
});

describe('sessions follow the operator', () => {
  it('ends every session of an operator disabled or given a new password', async () => {
    for (const login of ['disabled', 'repassword']) {
      await s.operators.create(ADMIN, { login, role: 'auditor', password: PASSWORD });
      await s.sessions.signIn(login, PASSWORD);
    }
    await s.operators.modify(ADMIN, 'disabled', { state: 'disabled' });
    await s.operators.modify(ADMIN, 'repassword', { password: 'q'.repeat(12) });
    const rows = (await db.dataSource.query(`SELECT login FROM admin_sessions WHERE login IN ('disabled', 'repassword')`)) as unknown[];
    expect(rows).toEqual([]);
  });
});
