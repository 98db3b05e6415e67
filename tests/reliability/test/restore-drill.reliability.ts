import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { APP_A, accountClient } from '../src/apps';
import { figure } from '../src/figures';
import { ArchivingPostgres } from '../src/pitr';
import { certId, mobile, password } from '../src/sentinels';
import { ServiceProcess, stopAllServices } from '../src/service-process';

/**
 * The restore drill of docs/operations.md ("Backups and point-in-time recovery"): a server
 * archiving its WAL, the account service writing users with encrypted personal data, a base
 * backup, more writes, a restore to a new server at a point in time between them, and the
 * service started on the restored server with the kept PII_KEYS reading the personal data back
 * — and the writes after that point absent.
 */
describe('restore drill: base backup + WAL archive, point-in-time recovery, personal data readable with the kept keys', () => {
  let origin: ArchivingPostgres;
  let restored: ArchivingPostgres | undefined;
  const PII_KEYS = JSON.stringify([{ id: 'drill-1', key: randomBytes(32).toString('base64') }]);

  beforeAll(async () => {
    origin = await ArchivingPostgres.create();
  });
  afterAll(async () => {
    await stopAllServices();
    restored?.destroy();
    origin?.destroy();
  });

  async function register(svc: ServiceProcess, ids: number[]) {
    const client = accountClient(svc.baseUrl, APP_A);
    for (const i of ids) {
      const res = await client.registerUser(`drill-${i}`, {
        user_name: `User ${i}`,
        user_type: 'C',
        user_pwd: password('drill'),
        user_mobile: mobile(i),
        cert_id: certId(i),
      });
      expect(res.status).toBe(201);
    }
  }

  it('restores to a point between two writes; the service reads the personal data back with the kept keys', async () => {
    const env = { DATABASE_URL: origin.url, PII_KEYS };
    const svc = await ServiceProcess.start('account', { name: 'account-drill-origin', env });
    await register(svc, [1, 2, 3]); // before the backup

    const backup = origin.baseBackup('base-1');

    await register(svc, [4, 5]); // after the backup, before the target
    const [{ target }] = await origin.query<{ target: string }>('SELECT clock_timestamp()::text AS target');
    await sleep(1100);
    await register(svc, [6, 7]); // after the target: must be absent
    await origin.archiveNow();
    await svc.stop();

    // The stored values are ciphertext, never the plain number.
    const stored = await origin.query<{ user_mobile: string }>(`SELECT user_mobile FROM users WHERE user_login_id = 'drill-1'`);
    expect(stored[0]!.user_mobile).toMatch(/^v1:drill-1:/);

    const started = Date.now();
    restored = await ArchivingPostgres.restore(backup, origin.archive, target);
    const restoreSeconds = (Date.now() - started) / 1000;
    const back = await ServiceProcess.start('account', { name: 'account-drill-restored', env: { DATABASE_URL: restored.url, PII_KEYS } });
    const serving = (Date.now() - started) / 1000;
    figure('restore drill', 'restore of the base backup + WAL replay to the target time', restoreSeconds, 's');
    figure('restore drill', 'from restore start to the service answering on the restored server', serving, 's');

    const client = accountClient(back.baseUrl, APP_A);
    for (const i of [1, 2, 3, 4, 5]) {
      const res = await client.getUser(`drill-${i}`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ user_login_id: `drill-${i}`, user_mobile: mobile(i), cert_id: certId(i) });
    }
    for (const i of [6, 7]) {
      expect(await client.getUser(`drill-${i}`)).toMatchObject({ status: 404 });
    }
    // and the restored server takes writes (promoted)
    expect((await client.registerUser('drill-after', { user_name: 'After', user_type: 'C', user_pwd: password('drill') })).status).toBe(
      201,
    );
    await back.stop();

    // Without the key that encrypted them (a ring where it was removed), the restored personal
    // data cannot be read: why a key is kept as long as any backup that holds values under it.
    const otherRing = JSON.stringify([{ id: 'drill-2', key: randomBytes(32).toString('base64') }]);
    const keyless = await ServiceProcess.start('account', {
      name: 'account-drill-keyless',
      env: { DATABASE_URL: restored.url, PII_KEYS: otherRing },
    });
    const refused = await accountClient(keyless.baseUrl, APP_A).getUser('drill-1');
    expect(refused.status).toBeGreaterThanOrEqual(500);
    expect(JSON.stringify(refused.body)).not.toContain(mobile(1));
    await keyless.stop();
  }, 240_000);
});
