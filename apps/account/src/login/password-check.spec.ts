import { asAppToken } from '../common/app-scope';
import { Metrics } from '@geoaccount/observability';
import { loadAccountConfig } from '../config/account.config';
import { DirectoryService } from '../directory/directory.service';
import { PasswordHasher } from '../users/password-hasher';
import { checkLoginPassword } from './password-check';

/**
 * docs/contract.md §13: a domain id, an ordinary id and an unknown id do the same work on a
 * wrong or blank password, with a directory or without one. Counted, not timed: each path runs
 * exactly one argon2 verification.
 */
const APP = asAppToken('app-1');

describe('checkLoginPassword', () => {
  const config = loadAccountConfig({ ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1' });
  const hasher = new PasswordHasher(config);
  const noDirectory = new DirectoryService({ byApp: new Map(), fallback: undefined } as never, new Metrics('account-test', { defaultMetrics: false }));
  // A directory that refuses every password (as a bind with a wrong one does).
  let directoryCalls = 0;
  const refusingDirectory = {
    verify: async (_app: string, _login: string, password: string) => {
      directoryCalls += 1;
      return password === 'right' ? true : false;
    },
  };
  let stored: string;

  beforeAll(async () => {
    hasher.onModuleInit();
    stored = await hasher.hash('right');
  });

  const users = {
    ordinary: () => ({ isDomainUser: '0', userPwdHash: stored }),
    unknown: () => null,
    domain: () => ({ isDomainUser: '1', userPwdHash: null }),
  };

  describe.each([
    ['with a directory', refusingDirectory],
    ['without a directory', noDirectory],
  ])('%s', (_label, directory) => {
    it.each([
      ['ordinary', 'wrong'],
      ['ordinary', ''],
      ['ordinary', '   '],
      ['unknown', 'wrong'],
      ['unknown', ''],
      ['domain', 'wrong'],
      ['domain', ''],
      ['domain', '   '],
    ] as const)('%s id, password %j: refused after one argon2 verification', async (kind, password) => {
      const before = hasher.verifications;
      const check = await checkLoginPassword(APP, 'bob', users[kind](), password, hasher, directory);
      expect(check.ok).toBe(false);
      expect(hasher.verifications - before).toBe(1);
    });
  });

  it('still accepts the right password, and asks the directory for a domain user', async () => {
    expect((await checkLoginPassword(APP, 'bob', users.ordinary(), 'right', hasher, refusingDirectory)).ok).toBe(true);
    const calls = directoryCalls;
    expect((await checkLoginPassword(APP, 'bob', users.domain(), 'right', hasher, refusingDirectory)).ok).toBe(true);
    expect(directoryCalls).toBe(calls + 1);
  });
});
