/**
 * The credential rules (docs/contract.md §14) on the real repositories: two active at most
 * (30120), `retire_others_in` sets the other's `expire_time`, a revoked credential leaves the
 * registry at once (30201 for an unknown one), uses are written in batches with a later time
 * only, and `rotate-pii` re-seals secrets under the new key.
 */
import { randomBytes } from 'node:crypto';
import { signAccount, verifyAccountCredential } from '@geoaccount/signing';
import { rewrapCredentials } from '../../src/credentials/credential-rewrap';
import { PiiCipher } from '../../src/pii/pii-cipher';
import { type MediumDatabase, mediumDatabase } from './medium-database';
import { ADMIN, type ControlPlaneServices, controlPlaneServices, outcome } from './medium.factory';

const TWO_ACTIVE = { code: '30120', message: 'two active credentials already' };
const NO_CREDENTIAL = { code: '30201', message: 'no such credential' };
const OK = { code: '90000', message: 'success' };
const K1 = { id: 'k1', key: randomBytes(32) };
const K2 = { id: 'k2', key: randomBytes(32) };

let db: MediumDatabase;
let s: ControlPlaneServices;

beforeAll(async () => {
  db = await mediumDatabase();
  s = controlPlaneServices(db, { env: { PII_KEYS: JSON.stringify([{ id: K1.id, key: K1.key.toString('base64') }]) } });
});
afterAll(() => db?.close());

describe('two active credentials at most', () => {
  it('issues a second, refuses a third (30120), and a revoked one makes room', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Two' });
    const second = await s.credentials.issue(ADMIN, app.app_token);
    expect(await outcome(s.credentials.issue(ADMIN, app.app_token))).toEqual(TWO_ACTIVE);
    const candidates = s.registry.credentialsOf(app.app_token)!;
    expect(candidates.map((c) => c.credentialId)).toEqual([credential.credential_id, second.credential_id]);
    // Both are valid: a signature with either verifies, naming the credential that signed.
    for (const issued of [credential, second]) {
      const sig = signAccount(issued.secret, 'GET', app.app_token, '/account/v1.0.1/auths', { timestamp: '1' });
      expect(verifyAccountCredential(candidates, 'GET', app.app_token, '/account/v1.0.1/auths', { timestamp: '1' }, sig)?.credentialId).toBe(
        issued.credential_id,
      );
    }
    await s.credentials.revoke(ADMIN, app.app_token, credential.credential_id);
    expect(await outcome(s.credentials.issue(ADMIN, app.app_token))).toEqual(OK);
  });

  it('counts an expired credential as no longer active', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Expired' });
    await s.credentials.issue(ADMIN, app.app_token);
    await db.dataSource.query(`UPDATE app_credentials SET expire_time = now() - interval '1 second' WHERE credential_id = $1`, [
      credential.credential_id,
    ]);
    expect(await outcome(s.credentials.issue(ADMIN, app.app_token))).toEqual(OK);
  });
});

describe('retire_others_in', () => {
  it("sets the other active credential's expire_time that far ahead, audited, and the registry's expiry with it", async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Retire' });
    const before = Date.now();
    const next = await s.credentials.issue(ADMIN, app.app_token, 3600);
    const [row] = (await db.dataSource.query(`SELECT expire_time FROM app_credentials WHERE credential_id = $1`, [
      credential.credential_id,
    ])) as { expire_time: Date }[];
    const ahead = row!.expire_time.getTime() - before;
    console.log(`retire_others_in 3600: expire_time ${ahead} ms ahead`);
    expect(ahead).toBeGreaterThanOrEqual(3600_000 - 1000);
    expect(ahead).toBeLessThanOrEqual(3600_000 + 60_000);
    expect(s.registry.credentialsOf(app.app_token)!.find((c) => c.credentialId === credential.credential_id)?.expiresAt).toBe(
      row!.expire_time.getTime(),
    );
    const view = await s.apps.get(ADMIN, app.app_token);
    expect(view.credentials.map((c) => [c.credential_id, c.state, c.expire_time === ''])).toEqual([
      [credential.credential_id, 'active', false],
      [next.credential_id, 'active', true],
    ]);
    const [event] = (await db.dataSource.query(
      `SELECT changes::json AS changes FROM audit_events WHERE resource_type = 'credential' AND resource_id = $1 AND action = 'modify'`,
      [credential.credential_id],
    )) as { changes: { expire_time: { from: string; to: string } } }[];
    expect(event!.changes.expire_time.from).toBe('');
    expect(event!.changes.expire_time.to).not.toBe('');
  });

  it('leaves the other credential without an expiry when not given', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Keep' });
    await s.credentials.issue(ADMIN, app.app_token);
    const [row] = (await db.dataSource.query(`SELECT expire_time FROM app_credentials WHERE credential_id = $1`, [
      credential.credential_id,
    ])) as { expire_time: Date | null }[];
    expect(row!.expire_time).toBeNull();
  });
});

describe('revoke', () => {
  it('refuses the revoked credential at once, audits it once, and an unknown credential is 30201', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Revoke' });
    const second = await s.credentials.issue(ADMIN, app.app_token);
    await s.credentials.revoke(ADMIN, app.app_token, credential.credential_id);
    expect(s.registry.credentialsOf(app.app_token)?.map((c) => c.credentialId)).toEqual([second.credential_id]);
    // Revoking again changes nothing and records nothing.
    await s.credentials.revoke(ADMIN, app.app_token, credential.credential_id);
    const [{ n }] = (await db.dataSource.query(
      `SELECT count(*)::int AS n FROM audit_events WHERE resource_id = $1 AND action = 'revoke'`,
      [credential.credential_id],
    )) as [{ n: number }];
    expect(n).toBe(1);
    expect((await s.apps.get(ADMIN, app.app_token)).credentials.find((c) => c.credential_id === credential.credential_id)?.state).toBe('revoked');
    expect(await outcome(s.credentials.revoke(ADMIN, app.app_token, 'cred-none'))).toEqual(NO_CREDENTIAL);
  });

  it("refuses another app's credential (30201)", async () => {
    const { app: a } = await s.apps.create(ADMIN, { app_name: 'A' });
    const { credential: ofB } = await s.apps.create(ADMIN, { app_name: 'B' });
    expect(await outcome(s.credentials.revoke(ADMIN, a.app_token, ofB.credential_id))).toEqual(NO_CREDENTIAL);
  });
});

describe('last use', () => {
  async function lastUsed(credentialId: string): Promise<Date | null> {
    const [row] = (await db.dataSource.query(`SELECT last_used_time FROM app_credentials WHERE credential_id = $1`, [credentialId])) as {
      last_used_time: Date | null;
    }[];
    return row!.last_used_time;
  }

  it('writes the recorded uses on a flush, to the minute, and never moves last_used_time back', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Used' });
    const used = s.registry.credentialsOf(app.app_token)![0]!;
    const t = Date.parse('2026-03-01T10:20:30.400Z');
    s.registry.recordUse(used, t);
    expect(await lastUsed(credential.credential_id)).toBeNull();
    await s.sync.flushUses();
    expect((await lastUsed(credential.credential_id))?.toISOString()).toBe('2026-03-01T10:20:00.000Z');
    s.registry.recordUse(used, t - 3600_000);
    await s.sync.flushUses();
    expect((await lastUsed(credential.credential_id))?.toISOString()).toBe('2026-03-01T10:20:00.000Z');
    expect((await s.apps.get(ADMIN, app.app_token)).credentials[0]!.last_used_time).not.toBe('');
  });

  it('keeps the uses for the next flush when a write fails', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Retry' });
    s.registry.recordUse(s.registry.credentialsOf(app.app_token)![0]!, Date.parse('2026-03-02T00:00:10Z'));
    await db.dataSource.query(`ALTER TABLE app_credentials RENAME TO app_credentials_away`);
    try {
      await s.sync.flushUses();
    } finally {
      await db.dataSource.query(`ALTER TABLE app_credentials_away RENAME TO app_credentials`);
    }
    expect(await lastUsed(credential.credential_id)).toBeNull();
    await s.sync.flushUses();
    expect((await lastUsed(credential.credential_id))?.toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });
});

describe('rotate-pii', () => {
  it('re-seals credentials under the new first key, resumable, the old key then removable', async () => {
    const { app, credential } = await s.apps.create(ADMIN, { app_name: 'Rotate' });
    const rotated = new PiiCipher([K2, K1]);
    const counts = await rewrapCredentials(db.dataSource, rotated, { batchSize: 2 });
    expect(counts.rewritten).toBeGreaterThanOrEqual(1);
    expect(counts.rewritten).toBe(counts.scanned);
    expect((await rewrapCredentials(db.dataSource, rotated)).scanned).toBe(0);
    const [row] = (await db.dataSource.query(`SELECT key_id, secret, aes_key FROM app_credentials WHERE credential_id = $1`, [
      credential.credential_id,
    ])) as { key_id: string; secret: string; aes_key: string }[];
    expect(row!.key_id).toBe('k2');
    const onlyK2 = new PiiCipher([K2]);
    expect(onlyK2.decrypt(app.app_token, credential.credential_id, 'secret', row!.secret)).toBe(credential.secret);
    expect(onlyK2.decrypt(app.app_token, credential.credential_id, 'aes_key', row!.aes_key)).toBe(credential.aes_key);
    // Bound to its credential: not readable as another's.
    expect(() => onlyK2.decrypt(app.app_token, 'cred-other', 'secret', row!.secret)).toThrow();
  });
});
