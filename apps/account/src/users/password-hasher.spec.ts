import { loadAccountConfig } from '../config/account.config';
import { PasswordHasher } from './password-hasher';

const cheap = { ARGON2_MEMORY_KIB: '1024', ARGON2_TIME_COST: '1', ARGON2_PARALLELISM: '1' };

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher(loadAccountConfig(cheap));

  it('hashes with argon2id and the configured parameters, never the clear text', async () => {
    const stored = await hasher.hash('P@ssw0rd!');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(stored).not.toContain('P@ssw0rd!');
    expect(await hasher.hash('P@ssw0rd!')).not.toBe(stored);
  });

  it('accepts the right password and refuses a wrong one', async () => {
    const stored = await hasher.hash('密码 P@ss');
    await expect(hasher.check(stored, '密码 P@ss')).resolves.toEqual({ ok: true, needsRehash: false });
    await expect(hasher.check(stored, '密码 P@sS')).resolves.toEqual({ ok: false, needsRehash: false });
  });

  it('fails against the dummy hash when there is no stored hash', async () => {
    await expect(hasher.check(null, 'anything')).resolves.toEqual({ ok: false, needsRehash: false });
    await expect(hasher.check('', '')).resolves.toEqual({ ok: false, needsRehash: false });
  });

  it('fails on a stored value that is not a hash', async () => {
    await expect(hasher.check('not-a-hash', 'not-a-hash')).resolves.toEqual({ ok: false, needsRehash: false });
  });

  it('asks for a rehash when the parameters changed, only on success', async () => {
    const old = await new PasswordHasher(loadAccountConfig({ ...cheap, ARGON2_TIME_COST: '2' })).hash('pw');
    expect(hasher.outdated(old)).toBe(true);
    await expect(hasher.check(old, 'pw')).resolves.toEqual({ ok: true, needsRehash: true });
    await expect(hasher.check(old, 'wrong')).resolves.toEqual({ ok: false, needsRehash: false });
    const current = await hasher.hash('pw');
    expect(hasher.outdated(current)).toBe(false);
    const otherMemory = await new PasswordHasher(loadAccountConfig({ ...cheap, ARGON2_MEMORY_KIB: '2048' })).hash('pw');
    expect(hasher.outdated(otherMemory)).toBe(true);
  });

  it('defaults to the OWASP parameters', async () => {
    const stored = await new PasswordHasher(loadAccountConfig({})).hash('pw');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('spends about the same time on a missing user as on a wrong password', async () => {
    const owasp = new PasswordHasher(loadAccountConfig({}));
    const stored = await owasp.hash('right');
    await owasp.check(null, 'warm-up');
    const time = async (fn: () => Promise<unknown>) => {
      const start = process.hrtime.bigint();
      await fn();
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const wrong: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 7; i++) {
      wrong.push(await time(() => owasp.check(stored, 'wrong')));
      missing.push(await time(() => owasp.check(null, 'wrong')));
    }
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[3]!;
    // Skipping the dummy check would make a missing user ~100 times faster.
    expect(median(missing) / median(wrong)).toBeGreaterThan(0.4);
    expect(median(missing) / median(wrong)).toBeLessThan(2.5);
  });

  it('does not block the event loop while hashing', async () => {
    const owasp = new PasswordHasher(loadAccountConfig({}));
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    await Promise.all([owasp.hash('a'), owasp.hash('b')]);
    clearInterval(timer);
    expect(ticks).toBeGreaterThan(3);
  });
});
