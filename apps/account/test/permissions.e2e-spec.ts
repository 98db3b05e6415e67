import { type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedAuth, seedGroup } from './support/fixtures';
import { NO_DATA, OK, seedUser } from './support/user-fixtures';

/** An auth as the permission answers list it. */
function summary(authId: string, fields: Record<string, string | null> = {}) {
  return {
    auth_id: authId,
    auth_name: `name of ${authId}`,
    auth_state: '1',
    auth_type: null,
    auth_level: null,
    parent_auth_id: '',
    sub_auth_flag: null,
    ...fields,
  };
}

describe('effective permissions (interfaces 205, 206)', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    h = await startAccountHarness({ env: { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' } });
    // root > mid > leaf;  gate (disabled) > below;  off (disabled);  solo, extra
    await seedAuth(h.a, 'root', { auth_state: '1', sub_auth_flag: '1' });
    await seedAuth(h.a, 'mid', { auth_state: '1', parent_auth_id: 'root', sub_auth_flag: '1' });
    await seedAuth(h.a, 'leaf', { auth_state: '1', parent_auth_id: 'mid', auth_type: 'button', auth_level: '3' });
    await seedAuth(h.a, 'gate', { auth_state: '0' });
    await seedAuth(h.a, 'below', { auth_state: '1', parent_auth_id: 'gate' });
    await seedAuth(h.a, 'off', { auth_state: '0' });
    await seedAuth(h.a, 'solo', { auth_state: '1', auth_desc: 'not listed' });
    await seedAuth(h.a, 'extra', { auth_state: '1' });
    await seedAuth(h.a, 'nostate');
    await seedGroup(h.a, 'G-MID', { group_auths: 'mid,off' });
    await seedGroup(h.a, 'G-SOLO', { group_auths: 'solo,mid' });
    await seedGroup(h.a, 'G-EMPTY', { group_auths: '' });

    await seedUser(h.a, 'grantee', { user_auths: 'solo,off,nostate', user_auth_groups: 'G-MID,G-SOLO' });
    await seedUser(h.a, 'nothing');
    await seedUser(h.a, 'only-disabled', { user_auths: 'off', user_auth_groups: 'G-EMPTY' });
    await seedUser(h.a, 'via-gate', { user_auths: 'gate,root' });
  });
  afterAll(() => h?.close());

  describe('GET /users/{USER_LOGIN_ID}/auths', () => {
    it('lists user_auths plus the auths of user_auth_groups, only auth_state 1, once each, in creation order', async () => {
      const res = await h.a.userAuths('grantee');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        ...OK,
        count: '2',
        list: [summary('mid', { parent_auth_id: 'root', sub_auth_flag: '1' }), summary('solo')],
      });
    });

    it('follows changes of the auths and of the user', async () => {
      await seedUser(h.a, 'changing', { user_auths: 'extra' });
      expect((await h.a.userAuths('changing')).body).toMatchObject({ count: '1', list: [summary('extra')] });
      expect((await h.a.modifyAuth('extra', { auth_state: '0' })).status).toBe(201);
      expect((await h.a.userAuths('changing')).body).toMatchObject({ response_code: '20511', count: '0' });
      expect((await h.a.modifyUser('changing', { user_auth_groups: 'G-SOLO' })).status).toBe(201);
      expect((await h.a.userAuths('changing')).body).toMatchObject({
        count: '2',
        list: [summary('mid', { parent_auth_id: 'root', sub_auth_flag: '1' }), summary('solo')],
      });
      expect((await h.a.modifyGroup('G-SOLO', { group_auths: 'solo' })).status).toBe(201);
      expect((await h.a.userAuths('changing')).body).toMatchObject({ count: '1', list: [summary('solo')] });
      await h.a.modifyGroup('G-SOLO', { group_auths: 'solo,mid' });
    });

    it('answers 200 20511 with count "0" and an empty list when nothing is effective', async () => {
      for (const loginId of ['nothing', 'only-disabled']) {
        const res = await h.a.userAuths(loginId);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ response_code: '20511', response_message: NO_DATA, count: '0', list: [] });
      }
    });

    it('answers 404 20501 for an unknown user, also one of another app', async () => {
      const res = await h.a.userAuths('ghost');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '20501', response_message: NO_DATA });
      expect(await h.b.userAuths('grantee')).toMatchObject({ status: 404, body: { response_code: '20501' } });
    });
  });

  describe('GET /users/{USER_LOGIN_ID}/auths/{AUTH_ID}', () => {
    const holds = async (loginId: string, authId: string) => {
      const res = await h.a.userHasAuth(loginId, authId);
      expect(res.status).toBe(200);
      return res.body;
    };
    const answer = (loginId: string, authId: string, has: '0' | '1', via: string | null) => ({
      ...OK,
      user_login_id: loginId,
      auth_id: authId,
      has_auth: has,
      via,
    });

    it('holds a direct auth', async () => {
      expect(await holds('grantee', 'solo')).toEqual(answer('grantee', 'solo', '1', 'direct'));
    });

    it('holds an auth of a group, naming the first group of user_auth_groups that grants it', async () => {
      expect(await holds('grantee', 'mid')).toEqual(answer('grantee', 'mid', '1', 'group:G-MID'));
    });

    it('holds a descendant of an effective auth, naming that ancestor', async () => {
      expect(await holds('grantee', 'leaf')).toEqual(answer('grantee', 'leaf', '1', 'ancestor:mid'));
      expect(await holds('via-gate', 'leaf')).toEqual(answer('via-gate', 'leaf', '1', 'ancestor:root'));
    });

    it('does not hold an ancestor of an effective auth', async () => {
      expect(await holds('grantee', 'root')).toEqual(answer('grantee', 'root', '0', null));
    });

    it('never holds a disabled auth, nor what only a disabled auth passes down', async () => {
      expect(await holds('grantee', 'off')).toEqual(answer('grantee', 'off', '0', null));
      expect(await holds('grantee', 'nostate')).toEqual(answer('grantee', 'nostate', '0', null));
      expect(await holds('via-gate', 'gate')).toEqual(answer('via-gate', 'gate', '0', null));
      expect(await holds('via-gate', 'below')).toEqual(answer('via-gate', 'below', '0', null));
    });

    it('answers has_auth "0" for an unknown auth and for a user without grants', async () => {
      expect(await holds('grantee', 'no-such-auth')).toEqual(answer('grantee', 'no-such-auth', '0', null));
      expect(await holds('nothing', 'solo')).toEqual(answer('nothing', 'solo', '0', null));
    });

    it('answers 404 20601 for an unknown user, also one of another app', async () => {
      const res = await h.a.userHasAuth('ghost', 'solo');
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ response_code: '20601', response_message: NO_DATA });
      expect(await h.b.userHasAuth('grantee', 'solo')).toMatchObject({ status: 404, body: { response_code: '20601' } });
    });

    it('does not let app B use its own auths on app A users nor see A auths for its users', async () => {
      await seedAuth(h.b, 'solo', { auth_state: '1' });
      await seedUser(h.b, 'grantee', { user_auths: 'solo' });
      expect((await h.b.userHasAuth('grantee', 'mid')).body).toMatchObject({ has_auth: '0', via: null });
      expect((await h.b.userAuths('grantee')).body).toEqual({ ...OK, count: '1', list: [summary('solo')] });
    });

    it('refuses an auth_id over 16 characters with 400 90100', async () => {
      const res = await h.a.userHasAuth('grantee', 'a'.repeat(17));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ response_code: '90100', response_message: 'too long auth_id' });
    });
  });
});
