import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The control plane (docs/contract.md §14): apps and their credentials (secret and AES key
 * stored only encrypted under the `PII_KEYS` ring, the key id in `key_id` so that `rotate-pii`
 * finds what an older key still protects), operators, their sessions, and one change counter
 * every instance polls to learn that apps or credentials changed (no LISTEN: a transaction
 * pooler breaks it).
 */
export class ControlPlane1767226300000 implements MigrationInterface {
  name = 'ControlPlane1767226300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "apps" (
        "app_token" varchar(40) NOT NULL,
        "app_name" varchar(64) NOT NULL,
        "aes_mode" varchar(3) NOT NULL DEFAULT 'gcm' CHECK ("aes_mode" IN ('gcm', 'ecb')),
        "state" varchar(8) NOT NULL DEFAULT 'enabled' CHECK ("state" IN ('enabled', 'disabled')),
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "update_time" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "apps_pkey" PRIMARY KEY ("app_token")
      )`);
    await q.query(`
      CREATE TABLE "app_credentials" (
        "app_token" varchar(40) NOT NULL REFERENCES "apps" ("app_token"),
        "credential_id" varchar(40) NOT NULL,
        "secret" text NOT NULL,
        "aes_key" text NOT NULL,
        "key_id" varchar(32) NOT NULL,
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "expire_time" timestamptz,
        "revoke_time" timestamptz,
        "last_used_time" timestamptz,
        CONSTRAINT "app_credentials_pkey" PRIMARY KEY ("app_token", "credential_id")
      )`);
    await q.query(`CREATE UNIQUE INDEX "app_credentials_credential_id_idx" ON "app_credentials" ("credential_id")`);
    await q.query(`CREATE INDEX "app_credentials_key_id_idx" ON "app_credentials" ("key_id")`);
    await q.query(`
      CREATE TABLE "operators" (
        "login" varchar(64) NOT NULL,
        "role" varchar(16) NOT NULL CHECK ("role" IN ('admin', 'app_admin', 'auditor')),
        "apps" varchar(40)[] NOT NULL DEFAULT '{}',
        "state" varchar(8) NOT NULL DEFAULT 'enabled' CHECK ("state" IN ('enabled', 'disabled')),
        "password_hash" text,
        "directory" boolean NOT NULL DEFAULT false,
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "update_time" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "operators_pkey" PRIMARY KEY ("login")
      )`);
    // A session is found by the SHA-256 of its cookie value: the table holds no usable token.
    await q.query(`
      CREATE TABLE "admin_sessions" (
        "token_hash" char(64) NOT NULL,
        "login" varchar(64) NOT NULL REFERENCES "operators" ("login") ON DELETE CASCADE,
        "csrf_token" varchar(64) NOT NULL,
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "last_seen_time" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "admin_sessions_pkey" PRIMARY KEY ("token_hash")
      )`);
    await q.query(`CREATE INDEX "admin_sessions_last_seen_idx" ON "admin_sessions" ("last_seen_time")`);
    await q.query(`
      CREATE TABLE "control_plane_version" (
        "id" int NOT NULL CHECK ("id" = 1),
        "version" bigint NOT NULL,
        CONSTRAINT "control_plane_version_pkey" PRIMARY KEY ("id")
      )`);
    await q.query(`INSERT INTO "control_plane_version" ("id", "version") VALUES (1, 0)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "control_plane_version"`);
    await q.query(`DROP TABLE "admin_sessions"`);
    await q.query(`DROP TABLE "operators"`);
    await q.query(`DROP TABLE "app_credentials"`);
    await q.query(`DROP TABLE "apps"`);
  }
}
