/**
 * The rules of auths on the real repositories: the hierarchy's depth (`AUTH_MAX_DEPTH`), cycles,
 * missing parents, and the audit event written with each change (docs/contract.md §7, §10, §13).
 */
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { APP_A, APP_B, type AccountServices, accountServices, outcome, seedAuth, seedUser } from './medium.factory';

const TOO_DEEP = { code: '90100', message: 'too deep parent_auth_id' };
const CYCLIC = { code: '90100', message: 'cyclic parent_auth_id' };
const OK = { code: '90000', message: 'success' };

/** D1 (root) > D2 > ... > D64: a chain exactly as deep as the default limit. */
const LIMIT = 64;
const chain = Array.from({ length: LIMIT }, (_, i) => `D${i + 1}`);

let db: MediumDatabase;
let s: AccountServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = accountServices(db);
});
afterAll(() => db?.close());

async function parentOf(authId: string): Promise<string | null> {
  const rows = (await db.dataSource.query(`SELECT parent_auth_id FROM auths WHERE app_token = $1 AND auth_id = $2`, [
    APP_A.appToken,
    authId,
  ])) as {
    parent_auth_id: string | null;
  }[];
  return rows[0]!.parent_auth_id;
}

describe('auth hierarchy depth (AUTH_MAX_DEPTH)', () => {
  it(`takes a chain of ${LIMIT} auths (the default limit) and refuses a ${LIMIT + 1}th level`, async () => {
    expect(s.config.AUTH_MAX_DEPTH).toBe(LIMIT);
    for (const [i, id] of chain.entries())
      await seedAuth(s, APP_A, id, { auth_state: '1', ...(i > 0 && { parent_auth_id: chain[i - 1] }) });
    expect(await outcome(seedAuth(s, APP_A, 'D65', { auth_state: '1', parent_auth_id: `D${LIMIT}` }))).toEqual(TOO_DEEP);
    expect(await s.repositories.auths.findOne(APP_A.appToken, 'D65')).toBeNull();
  });

  it('inherits through the whole chain at the limit', async () => {
    await seedUser(s, APP_A, 'holder', { user_auths: 'D1' });
    expect(await s.permissions.holds(APP_A.appToken, 'holder', `D${LIMIT}`)).toEqual({ has: true, via: 'ancestor:D1' });
  });

  it('refuses a re-parenting that would put a descendant past the limit, and takes one that reaches it', async () => {
    await seedAuth(s, APP_A, 'X1', { auth_state: '1' });
    await seedAuth(s, APP_A, 'X2', { auth_state: '1', parent_auth_id: 'X1' });
    // Under D63, X1 would be level 64 and X2 level 65.
    expect(await outcome(s.auths.modify(APP_A.appToken, 'X1', { parent_auth_id: `D${LIMIT - 1}` }))).toEqual(TOO_DEEP);
    expect(await parentOf('X1')).toBeNull();
    // Under D62, X2 is level 64: at the limit.
    expect(await outcome(s.auths.modify(APP_A.appToken, 'X1', { parent_auth_id: `D${LIMIT - 2}` }))).toEqual(OK);
    expect(await s.permissions.holds(APP_A.appToken, 'holder', 'X2')).toEqual({ has: true, via: 'ancestor:D1' });
    // X2 is now at the limit: nothing can go under it.
    expect(await outcome(seedAuth(s, APP_A, 'X3', { parent_auth_id: 'X2' }))).toEqual(TOO_DEEP);
  });

  it('lets a modification that keeps the parent or removes it pass at any depth', async () => {
    expect(
      await outcome(s.auths.modify(APP_A.appToken, `D${LIMIT}`, { auth_desc: 'still here', parent_auth_id: `D${LIMIT - 1}` })),
    ).toEqual(OK);
    expect(await outcome(s.auths.modify(APP_A.appToken, 'X2', { parent_auth_id: '' }))).toEqual(OK);
  });

  it('with AUTH_MAX_DEPTH=3: takes 3 levels, refuses a 4th, and inherits through 2 ancestors', async () => {
    const small = accountServices(db, { AUTH_MAX_DEPTH: '3' });
    await seedAuth(small, APP_B, 'S1', { auth_state: '1' });
    await seedAuth(small, APP_B, 'S2', { auth_state: '1', parent_auth_id: 'S1' });
    await seedAuth(small, APP_B, 'S3', { auth_state: '1', parent_auth_id: 'S2' });
    expect(await outcome(seedAuth(small, APP_B, 'S4', { parent_auth_id: 'S3' }))).toEqual(TOO_DEEP);
    await seedUser(small, APP_B, 'small-holder', { user_auths: 'S1' });
    expect(await small.permissions.holds(APP_B.appToken, 'small-holder', 'S3')).toEqual({ has: true, via: 'ancestor:S1' });
  });
});

describe('auth hierarchy cycles and parents (docs/contract.md §13)', () => {
  beforeAll(async () => {
    await seedAuth(s, APP_A, 'C1');
    await seedAuth(s, APP_A, 'C2', { parent_auth_id: 'C1' });
    await seedAuth(s, APP_A, 'C3', { parent_auth_id: 'C2' });
  });

  it('creating an auth whose parent is itself: 10021 (the parent does not exist yet)', async () => {
    expect(await outcome(seedAuth(s, APP_A, 'SELF', { parent_auth_id: 'SELF' }))).toEqual({
      code: '10021',
      message: 'parent auth does not exist',
    });
    expect(await s.repositories.auths.findOne(APP_A.appToken, 'SELF')).toBeNull();
  });

  it('making an auth its own parent or the child of its descendant: 90100, nothing changed', async () => {
    expect(await outcome(s.auths.modify(APP_A.appToken, 'C1', { parent_auth_id: 'C1' }))).toEqual(CYCLIC);
    expect(await outcome(s.auths.modify(APP_A.appToken, 'C1', { parent_auth_id: 'C3' }))).toEqual(CYCLIC);
    expect(await parentOf('C1')).toBeNull();
  });

  it('a missing parent: 10021 on create, 10131 on modify; a missing auth: 10130', async () => {
    expect(await outcome(seedAuth(s, APP_A, 'ORPHAN', { parent_auth_id: 'NOPE' }))).toMatchObject({ code: '10021' });
    expect(await outcome(s.auths.modify(APP_A.appToken, 'C3', { parent_auth_id: 'NOPE' }))).toMatchObject({ code: '10131' });
    expect(await outcome(s.auths.modify(APP_A.appToken, 'NOPE', { auth_name: 'x' }))).toMatchObject({ code: '10130' });
  });

  it("another app's auth is no parent (docs/contract.md §5)", async () => {
    expect(await outcome(seedAuth(s, APP_B, 'B-CHILD', { parent_auth_id: 'C1' }))).toMatchObject({ code: '10021' });
  });

  it('an existing id: 10010', async () => {
    expect(await outcome(seedAuth(s, APP_A, 'C1'))).toEqual({ code: '10010', message: 'auth id already exists' });
  });

  it('each create and modify writes one audit event with its changes, a refused change none', async () => {
    const before = await s.events.page(APP_A.appToken, { resource_id: 'C2' });
    expect(before.events.map((e) => [e.action, e.changes])).toEqual([
      ['create', JSON.stringify({ auth_name: { to: 'C2' }, parent_auth_id: { to: 'C1' } })],
    ]);
    await s.auths.modify(APP_A.appToken, 'C2', { auth_desc: 'second' });
    await outcome(s.auths.modify(APP_A.appToken, 'C2', { parent_auth_id: 'C3' }));
    const after = await s.events.page(APP_A.appToken, { resource_id: 'C2' });
    expect(after.events.map((e) => [e.action, e.resource_type, e.result_code, e.changes])).toEqual([
      ['create', 'auth', '90000', before.events[0]!.changes],
      ['modify', 'auth', '90000', JSON.stringify({ auth_desc: { from: null, to: 'second' } })],
    ]);
  });
});
