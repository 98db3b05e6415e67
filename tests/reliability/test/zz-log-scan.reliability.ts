import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { appSecrets } from '../src/apps';
import { FAKE_AMAP_KEY } from '../src/fake-amap';
import { figure } from '../src/figures';
import { LOG_DIR } from '../src/paths';
import { FORBIDDEN_PATTERNS } from '../src/sentinels';

/**
 * Runs last (the suites run in file-name order): every line that any service of this run
 * wrote to stdout or stderr, checked for what must never be logged.
 */
describe('log scan of the whole run', () => {
  const files = readdirSync(LOG_DIR).filter((f) => f.endsWith('.log'));
  const lines = files.flatMap((f) =>
    readFileSync(join(LOG_DIR, f), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((text, i) => ({ where: `${f}:${i + 1}`, text })),
  );
  const forbidden = [
    ...FORBIDDEN_PATTERNS,
    ...[...appSecrets(), { name: 'AMap key', value: FAKE_AMAP_KEY }].map((s) => ({
      what: s.name,
      re: new RegExp(s.value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')),
    })),
    { what: 'signature (64 hex digits)', re: /(?<![0-9a-fA-F])[0-9a-fA-F]{64}(?![0-9a-fA-F])/ },
  ];

  it('found the output of the services of the run, request lines of both services included', () => {
    const account = lines.filter((l) => l.text.includes('/account/v1.0.1/')).length;
    const location = lines.filter((l) => l.text.includes('/lbsapi/api/')).length;
    figure(
      'log-scan',
      'service logs / lines scanned (account requests / location requests)',
      `${files.length} / ${lines.length} (${account} / ${location})`,
    );
    // A leak could only be seen in logged requests: both services must have logged theirs.
    expect(account).toBeGreaterThan(100);
    expect(location).toBeGreaterThan(100);
  });

  it.each(forbidden.map((f) => [f.what] as const))('no %s in any line', (what) => {
    const re = forbidden.find((f) => f.what === what)!.re;
    const hits = lines.filter((l) => re.test(l.text)).map((l) => `${l.where}: ${l.text.slice(0, 300)}`);
    figure('log-scan', `lines holding: ${what}`, hits.length, '', '= 0');
    expect(hits.slice(0, 5)).toEqual([]);
  });
});
