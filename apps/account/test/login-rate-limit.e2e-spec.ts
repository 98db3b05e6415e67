/**
 * docs/contract.md §1 `LOGIN_RATE_LIMIT_PER_MINUTE`: login attempts per app and instance; past
 * the budget 429 90429 with `Retry-After`, before any password work; other apps keep theirs.
 */
import { loadAccountConfig } from '../src/config/account.config';
import { type AccountHarness, startAccountHarness } from './support/account-harness';
import { seedUser } from './support/user-fixtures';

describe('LOGIN_RATE_LIMIT_PER_MINUTE', () => {
  let h: AccountHarness;

  beforeAll(async () => {
    // 60 a minute: a burst of 2, then one a second.
    h = await startAccountHarness({ env: { LOGIN_RATE_LIMIT_PER_MINUTE: '60' } });
    await seedUser(h.a, 'flood-a', { user_pwd: 'Secret-pass-1' });
    await seedUser(h.b, 'flood-b', { user_pwd: 'Secret-pass-1' });
  });
  afterAll(() => h?.close());

  it('is on by default, with the documented figure', () => {
    expect(loadAccountConfig({}).LOGIN_RATE_LIMIT_PER_MINUTE).toBe(600);
    expect(loadAccountConfig({ LOGIN_RATE_LIMIT_PER_MINUTE: '0' }).LOGIN_RATE_LIMIT_PER_MINUTE).toBe(0);
  });

  it('answers an app past its budget 429 90429 with Retry-After, while another app logs in', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, () => h.a.login('flood-a', 'wrong-password')));
    const limited = answers.filter((r) => r.status === 429);
    expect(limited.length).toBeGreaterThanOrEqual(3);
    for (const r of limited) {
      expect(r.body).toEqual({ response_code: '90429', response_message: 'too many requests' });
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
    // The others were checked (wrong password), not refused for the rate.
    for (const r of answers.filter((a) => a.status !== 429)) expect(r.body).toMatchObject({ response_code: '20441' });
    const other = await h.b.login('flood-b', 'Secret-pass-1');
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ response_code: '90000', user_login_id: 'flood-b' });
  });
});
