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
