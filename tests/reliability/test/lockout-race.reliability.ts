import type { TestAccountClient } from '@geoaccount/client/internal';
import { type AccountFixture, accountOnFreshDatabase } from '../src/account-fixture';
import { APP_A, accountClient } from '../src/apps';
import { figure } from '../src/figures';
import { password } from '../src/sentinels';
import { ServiceProcess, stopAllServices } from '../src/service-process';

type Answer = { status: number; body: unknown };
const code = (r: Answer) => `${r.status}/${(r.body as Record<string, string>).response_code}`;
function counts(answers: Answer[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of answers) out[code(r)] = (out[code(r)] ?? 0) + 1;
  return out;
}

const MAX_FAILURES = 5;
const ATTEMPTS = 120;

/**
 * The lockout under a burst: every attempt claims one of the allowed failures before its
 * password is verified, atomically across instances, so a burst verifies at most
 * LOGIN_MAX_FAILURES passwords (each verified password answers 20441 or 200) and no login
 * succeeds once the limit is reached.
 */
describe(`lockout race: ${ATTEMPTS} concurrent logins for one login id over two account instances`, () => {
  let f: AccountFixture;
  let one: TestAccountClient;
  let two: TestAccountClient;

  beforeAll(async () => {
    const env = { LOGIN_MAX_FAILURES: String(MAX_FAILURES) };
    f = await accountOnFreshDatabase('account-race-1', env);
    const second = await ServiceProcess.start('account', { name: 'account-race-2', env: { DATABASE_URL: f.db.url, ...env } });
    one = f.a;
    two = accountClient(second.baseUrl, APP_A);
  });
  afterAll(async () => {
    await f?.close();
    await stopAllServices();
  });

  async function register(loginId: string): Promise<void> {
    expect(await one.registerUser(loginId, { user_name: 'race', user_type: 'C', user_pwd: password(loginId) })).toMatchObject({
      status: 201,
    });
  }

  /** `ATTEMPTS` logins spread over both instances; the right password at index `right`, if any. */
  function burst(loginId: string, right?: number): Promise<Answer[]> {
    return Promise.all(
      Array.from({ length: ATTEMPTS }, (_, i) =>
        (i % 2 ? one : two).login(loginId, i === right ? password(loginId) : password(`wrong-${i}`)),
      ),
    );
  }

  async function lockedOnBoth(loginId: string): Promise<void> {
    const after = [await one.login(loginId, password(loginId)), await two.login(loginId, password(loginId))];
    expect(after.map(code)).toEqual(['403/20443', '403/20443']);
  }

  it(`wrong passwords only: ${MAX_FAILURES} verified, the rest 403/20443, then the right password is locked out`, async () => {
    await register('race-wrong');
    const answers = await burst('race-wrong');
    figure('lockout-race', `${ATTEMPTS} wrong passwords over 2 instances`, JSON.stringify(counts(answers)), '', `${MAX_FAILURES} × 401`);
    expect(counts(answers)).toEqual({ '401/20441': MAX_FAILURES, '403/20443': ATTEMPTS - MAX_FAILURES });
    await lockedOnBoth('race-wrong');
  });

  it('wrong passwords and the right one: no success once the limit is reached, and locked afterwards', async () => {
    await register('race-mixed');
    const answers = await burst('race-mixed', ATTEMPTS / 2);
    const tally = counts(answers);
    figure(
      'lockout-race',
      `${ATTEMPTS - 1} wrong + 1 right over 2 instances`,
      JSON.stringify(tally),
      '',
      `≤ ${MAX_FAILURES} × 401 before a 200`,
    );
    const successes = tally['200/90000'] ?? 0;
    expect(successes).toBeLessThanOrEqual(1);
    // A success clears the failures claimed before it, as a sequential success does; the
    // claims made after it still count. Without a success, exactly the limit is verified.
    expect(tally['401/20441']).toBeLessThanOrEqual(successes ? 2 * MAX_FAILURES - 1 : MAX_FAILURES);
    expect(tally['401/20441'] + (tally['403/20443'] ?? 0) + successes).toBe(ATTEMPTS);
    await lockedOnBoth('race-mixed');
  });

  it(`an unknown login id: ${MAX_FAILURES} checked, the rest 403/20443`, async () => {
    const answers = await burst('race-nobody');
    expect(counts(answers)).toEqual({ '401/20441': MAX_FAILURES, '403/20443': ATTEMPTS - MAX_FAILURES });
  });
});
