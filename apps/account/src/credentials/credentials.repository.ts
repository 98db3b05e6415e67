import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import { ALL_APPS, type AllApps, type AppToken } from '../common/app-scope';
import type { CredentialRecord } from './credential.record';

const COLUMNS = `c."app_token" AS "appToken", c."credential_id" AS "credentialId", c."secret", c."aes_key" AS "aesKey",
  c."key_id" AS "keyId", c."create_time" AS "createTime", c."expire_time" AS "expireTime",
  c."revoke_time" AS "revokeTime", c."last_used_time" AS "lastUsedTime"`;

/** An active app with its active credentials, as every instance loads them. */
export interface ActiveCredentialRow {
  appToken: AppToken;
  aesMode: 'gcm' | 'ecb';
  credentialId: string;
  secret: string;
  aesKey: string;
  expireTime: Date | null;
}

/**
 * The SQL of app credentials (`app_credentials`) and of the control plane's change counter
 * (`control_plane_version`), which every change of an app or a credential increments in its
 * own transaction and every instance polls.
 */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly dataSource: DataSource) {}

  /** Locks the row of the app for the transaction of `em`; `false` when there is no such app. */
  @GenerateSql({ name: 'an app', params: [MANAGER, 'app-7f3a9c2e41d08b56'] })
  async lockApp(em: EntityManager, appToken: AppToken): Promise<boolean> {
    const rows = (await em.query(`SELECT 1 FROM "apps" WHERE "app_token" = $1 FOR UPDATE`, [appToken])) as unknown[];
    return rows.length === 1;
  }

  @GenerateSql({ name: 'of two apps', params: [['app-7f3a9c2e41d08b56', 'app-0b0b0b0b0b0b0b0b']] }, { name: 'of no app (no statement)', params: [[]] })
  async listOf(appTokens: readonly AppToken[], em: EntityManager = this.dataSource.manager): Promise<CredentialRecord[]> {
    if (appTokens.length === 0) return [];
    return (await em.query(`SELECT ${COLUMNS} FROM "app_credentials" c WHERE c."app_token" = ANY($1) ORDER BY c."create_time", c."credential_id"`, [
      appTokens,
    ])) as CredentialRecord[];
  }

  @GenerateSql({
    name: 'a new credential',
    seed: [`INSERT INTO "apps" ("app_token", "app_name") VALUES ('app-7f3a9c2e41d08b56', 'Demo')`],
    params: [MANAGER, { appToken: 'app-7f3a9c2e41d08b56', credentialId: 'cred-0123456789abcdef', secret: 'sealed-secret', aesKey: 'sealed-key', keyId: 'k1' }],
  })
  async insert(em: EntityManager, c: Pick<CredentialRecord, 'appToken' | 'credentialId' | 'secret' | 'aesKey' | 'keyId'>): Promise<void> {
    await em.query(
      `INSERT INTO "app_credentials" ("app_token", "credential_id", "secret", "aes_key", "key_id") VALUES ($1, $2, $3, $4, $5)`,
      [c.appToken, c.credentialId, c.secret, c.aesKey, c.keyId],
    );
  }

  @GenerateSql({ name: 'a credential', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'cred-0123456789abcdef', new Date('2026-01-01T00:00:00Z')] })
  async setExpireTime(em: EntityManager, appToken: AppToken, credentialId: string, expireTime: Date): Promise<void> {
    await em.query(`UPDATE "app_credentials" SET "expire_time" = $3 WHERE "app_token" = $1 AND "credential_id" = $2`, [
      appToken,
      credentialId,
      expireTime,
    ]);
  }

  @GenerateSql({ name: 'a credential', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'cred-0123456789abcdef'] })
  async revoke(em: EntityManager, appToken: AppToken, credentialId: string): Promise<void> {
    await em.query(
      `UPDATE "app_credentials" SET "revoke_time" = now() WHERE "app_token" = $1 AND "credential_id" = $2 AND "revoke_time" IS NULL`,
      [appToken, credentialId],
    );
  }

  /** Every active credential of every enabled app (what a refresh loads): a cross-app read. */
  @GenerateSql({ name: 'every active credential', params: [ALL_APPS] })
  // eslint-disable-next-line @typescript-eslint/no-unused-vars -- the scope is the caller's statement
  async active(scope: AllApps): Promise<ActiveCredentialRow[]> {
    return (await this.dataSource.query(
      `SELECT a."app_token" AS "appToken", a."aes_mode" AS "aesMode", c."credential_id" AS "credentialId",
              c."secret", c."aes_key" AS "aesKey", c."expire_time" AS "expireTime"
         FROM "apps" a JOIN "app_credentials" c ON c."app_token" = a."app_token"
        WHERE a."state" = 'enabled' AND c."revoke_time" IS NULL AND (c."expire_time" IS NULL OR c."expire_time" > now())
        ORDER BY a."app_token", c."create_time", c."credential_id"`,
    )) as ActiveCredentialRow[];
  }

  /**
   * Records uses (docs/contract.md §14 `last_used_time`): one statement for the batch, a
   * later time only; unknown ids are ignored. Returns how many credentials were updated. Uses are
   * reported by credential id, whatever their app: a cross-app write.
   */
  @GenerateSql(
    { name: 'a batch', params: [ALL_APPS, [{ credentialId: 'cred-0123456789abcdef', time: new Date('2026-01-01T00:00:00Z') }]] },
    { name: 'none (no statement)', params: [ALL_APPS, []] },
  )
  async recordUses(scope: AllApps, uses: readonly { credentialId: string; time: Date }[]): Promise<number> {
    if (uses.length === 0) return 0;
    const [, n] = (await this.dataSource.query(
      `UPDATE "app_credentials" c SET "last_used_time" = u."time"
         FROM (SELECT "id", max("time") AS "time" FROM unnest($1::text[], $2::timestamptz[]) AS t ("id", "time") GROUP BY "id") u
        WHERE c."credential_id" = u."id" AND (c."last_used_time" IS NULL OR c."last_used_time" < u."time")`,
      [uses.map((u) => u.credentialId), uses.map((u) => u.time)],
    )) as [unknown, number];
    return n;
  }

  /** Increments the change counter inside the change's transaction. */
  @GenerateSql({ name: 'in a change', params: [MANAGER] })
  async bumpVersion(em: EntityManager): Promise<void> {
    await em.query(`UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1`);
  }

  @GenerateSql({ name: 'the counter', params: [] })
  async version(): Promise<string> {
    const rows = (await this.dataSource.query(`SELECT "version"::text AS "version" FROM "control_plane_version" WHERE "id" = 1`)) as {
      version: string;
    }[];
    return rows[0]?.version ?? '0';
  }

  /** Rows whose secret or AES key is sealed under another key than `keyId` (for `rotate-pii`), a batch after `after`. */
  @GenerateSql({ name: 'a batch of 100', params: [MANAGER, ALL_APPS, 'k2', '', 100] })
  async staleBatch(em: EntityManager, scope: AllApps, keyId: string, after: string, limit: number): Promise<CredentialRecord[]> {
    return (await em.query(
      `SELECT ${COLUMNS} FROM "app_credentials" c WHERE c."key_id" <> $1 AND c."credential_id" > $2
        ORDER BY c."credential_id" LIMIT ${Number(limit)} FOR UPDATE`,
      [keyId, after],
    )) as CredentialRecord[];
  }

  @GenerateSql({ name: 'a credential', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'cred-0123456789abcdef', 'sealed-secret', 'sealed-key', 'k2'] })
  async reseal(em: EntityManager, appToken: AppToken, credentialId: string, secret: string, aesKey: string, keyId: string): Promise<void> {
    await em.query(`UPDATE "app_credentials" SET "secret" = $3, "aes_key" = $4, "key_id" = $5 WHERE "app_token" = $1 AND "credential_id" = $2`, [
      appToken,
      credentialId,
      secret,
      aesKey,
      keyId,
    ]);
  }
}
