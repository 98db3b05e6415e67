import { CredentialUseLog } from '@geoaccount/signing';
import pino from 'pino';
import { FakeAccount } from '../../test/support/fake-account';
import { CredentialUseRecorder } from './credential-use-recorder';

const TOKEN = 'internal-token-of-at-least-32-characters';
const silent = pino({ level: 'silent' });

describe('CredentialUseRecorder against a stand-in account service', () => {
  let account: FakeAccount;
  let log: CredentialUseLog;
  beforeEach(async () => {
    account = await new FakeAccount(TOKEN).start();
    log = new CredentialUseLog();
  });
  afterEach(() => account.close());

  const recorder = (flushMs = 60_000) =>
    new CredentialUseRecorder(log, { baseUrl: account.url, token: TOKEN, timeoutMs: 300, flushMs }, silent);

  it('reports many uses in one call, the latest minute per credential, never a call per use', async () => {
    const uses = recorder();
    const t0 = Date.UTC(2030, 0, 1, 0, 0, 0);
    for (let i = 0; i < 1000; i++) log.record(i % 2 === 0 ? 'c1' : 'c2', t0 + i * 1000);
    log.record('c1', t0); // older than what is recorded: ignored
    expect(account.requests).toHaveLength(0);
    await uses.flush();
    expect(account.requests).toEqual([{ method: 'POST', path: '/internal/v1/credential-uses', authorization: `Bearer ${TOKEN}` }]);
    // 998 s and 999 s after t0: both in the minute 00:16.
    expect(account.reports).toEqual([
      {
        uses: [
          { credential_id: 'c1', time: '2030-01-01T00:16:00.000Z' },
          { credential_id: 'c2', time: '2030-01-01T00:16:00.000Z' },
        ],
      },
    ]);
    await uses.flush();
    expect(account.requests).toHaveLength(1);
  });

  it.each([
    ['down', { kind: 'http', status: 503 }],
    ['too slow', { kind: 'hang' }],
  ] as const)('keeps the uses for the next report while the account service is %s', async (_label, mode) => {
    const uses = recorder();
    log.record('c1', Date.UTC(2030, 0, 1));
    account.mode = mode;
    await uses.flush();
    expect(log.size).toBe(1);
    account.mode = { kind: 'ok' };
    log.record('c1', Date.UTC(2030, 0, 2));
    await uses.flush();
    expect(account.reports).toEqual([{ uses: [{ credential_id: 'c1', time: '2030-01-02T00:00:00.000Z' }] }]);
    expect(log.size).toBe(0);
  });

  it('reports every flush interval and what is left on stop', async () => {
    const uses = recorder(100);
    uses.start();
    log.record('c1', Date.UTC(2030, 0, 1));
    const deadline = Date.now() + 5000;
    while (account.reports.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(account.reports).toHaveLength(1);
    log.record('c2', Date.UTC(2030, 0, 1));
    await uses.stop();
    expect(account.reports.map((r) => r.uses.map((u) => u.credential_id))).toEqual([['c1'], ['c2']]);
  });

  it('reports at most 1000 credentials per call', async () => {
    const uses = recorder();
    for (let i = 0; i < 2500; i++) log.record(`c${i}`, Date.UTC(2030, 0, 1));
    await uses.flush();
    expect(account.reports.map((r) => r.uses.length)).toEqual([1000, 1000, 500]);
  });
});
