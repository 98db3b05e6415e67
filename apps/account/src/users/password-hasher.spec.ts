import { loadAccountConfig } from '../config/account.config';
import { PasswordHasher } from './password-hasher';
import { canMeasureMainThread, cpuTimed, mainThreadShare, printFigure } from '@geoaccount/testing';

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

  // CPU time of the process, not wall time: on a loaded machine wall times stretch unevenly,
  // while the work a check does stays what it is.
  it('spends about the same work on a missing user as on a wrong password', async () => {
    const owasp = new PasswordHasher(loadAccountConfig({}));
    const stored = await owasp.hash('right');
    await owasp.check(null, 'warm-up');
    const wrong: number[] = [];
    const missing: number[] = [];
    for (let i = 0; i < 7; i++) {
      wrong.push((await cpuTimed(() => owasp.check(stored, 'wrong')))[1]);
      missing.push((await cpuTimed(() => owasp.check(null, 'wrong')))[1]);
    }
    const median = (v: number[]) => [...v].sort((a, b) => a - b)[3]!;
    printFigure('password check, CPU median: missing user / wrong password', `${median(missing).toFixed(1)} / ${median(wrong).toFixed(1)}`);
    // Skipping the dummy check would make a missing user ~100 times cheaper.
    expect(median(missing) / median(wrong)).toBeGreaterThan(0.25);
    expect(median(missing) / median(wrong)).toBeLessThan(4);
  });

  (canMeasureMainThread ? it : it.skip)('does not block the event loop while hashing: the work runs on the thread pool', async () => {
    const owasp = new PasswordHasher(loadAccountConfig({}));
    const { mainMs, processMs } = await mainThreadShare(() => Promise.all([owasp.hash('a'), owasp.hash('b')]));
    printFigure('two OWASP hashes, CPU: main thread / whole process', `${mainMs.toFixed(1)} / ${processMs.toFixed(1)}`);
    // Two OWASP argon2id hashes are tens of milliseconds of work; hashing on the event loop
    // would put all of it on the main thread.
    expect(processMs).toBeGreaterThan(5);
    expect(mainMs).toBeLessThan(processMs * 0.25);
  });
});
