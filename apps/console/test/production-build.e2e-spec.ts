/**
 * The console's production build, as the account service serves it at /console/ on its API
 * port: no source maps (they would publish the source) and no demo app credentials (the SDK's
 * `DEMO_APP` is left out of a bundle that does not use it).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEMO_APP } from '@geoaccount/client';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : [join(dir, e.name)]));
}

describe('the production build of the console', () => {
  const out = mkdtempSync(join(tmpdir(), 'console-build-'));
  let files: string[] = [];

  beforeAll(() => {
    const vite = join(__dirname, '../node_modules/vite/bin/vite.js');
    execFileSync(process.execPath, [vite, 'build', '--outDir', out, '--emptyOutDir'], { cwd: join(__dirname, '..'), stdio: 'pipe', env: { ...process.env, NODE_ENV: 'production' } });
    files = filesUnder(out);
  }, 170_000);

  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('emits the application', () => {
    expect(files.some((f) => f.endsWith('.js'))).toBe(true);
    expect(files.some((f) => f.endsWith('index.html'))).toBe(true);
  });

  it('carries no source maps', () => {
    expect(files.filter((f) => f.endsWith('.map'))).toEqual([]);
    for (const f of files.filter((f) => f.endsWith('.js') || f.endsWith('.css'))) expect(readFileSync(f, 'utf8')).not.toContain('sourceMappingURL');
  });

  it('carries no demo credentials', () => {
    for (const f of files) {
      const text = readFileSync(f, 'latin1');
      for (const value of [DEMO_APP.secret, DEMO_APP.appToken, DEMO_APP.aesKey]) expect(text).not.toContain(value);
    }
  });
});
