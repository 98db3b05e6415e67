import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Auths, auth groups (with their auth membership) and the nonces of the signature guard.
 * Every record is keyed by the app that owns it (docs/contract.md §5).
 */
export class AuthsAndGroups1767225600000 implements MigrationInterface {
  name = 'AuthsAndGroups1767225600000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "auth_seq_id_seq" AS bigint`);
    await q.query(`
      CREATE TABLE "auths" (
        "app_token" varchar(40) NOT NULL,
        "auth_id" varchar(16) NOT NULL,
        "auth_seq_id" bigint NOT NULL DEFAULT nextval('auth_seq_id_seq'),
        "auth_name" varchar(64) NOT NULL,
        "auth_desc" varchar(64),
        "auth_state" varchar(1),
        "auth_type" varchar(8),
        "auth_level" varchar(2),
        "parent_auth_id" varchar(16),
        "sub_auth_flag" varchar(1),
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "update_time" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "auths_pkey" PRIMARY KEY ("app_token", "auth_id"),
        CONSTRAINT "auths_auth_seq_id_key" UNIQUE ("auth_seq_id")
      )`);
    await q.query(`ALTER SEQUENCE "auth_seq_id_seq" OWNED BY "auths"."auth_seq_id"`);
    await q.query(`CREATE INDEX "auths_app_token_auth_state_idx" ON "auths" ("app_token", "auth_state")`);
    await q.query(`CREATE INDEX "auths_app_token_auth_type_idx" ON "auths" ("app_token", "auth_type")`);
    await q.query(`CREATE INDEX "auths_app_token_auth_level_idx" ON "auths" ("app_token", "auth_level")`);
    await q.query(`CREATE INDEX "auths_app_token_parent_auth_id_idx" ON "auths" ("app_token", "parent_auth_id")`);

    await q.query(`CREATE SEQUENCE "auth_group_seq_id_seq" AS bigint`);
    await q.query(`
      CREATE TABLE "auth_groups" (
        "app_token" varchar(40) NOT NULL,
        "group_id" varchar(64) NOT NULL,
        "group_seq_id" bigint NOT NULL DEFAULT nextval('auth_group_seq_id_seq'),
        "group_name" varchar(64) NOT NULL,
        "group_desc" varchar(64),
        "group_type" varchar(32),
        "group_state" varchar(1),
        "group_auths" varchar(1024),
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "update_time" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "auth_groups_pkey" PRIMARY KEY ("app_token", "group_id"),
        CONSTRAINT "auth_groups_group_seq_id_key" UNIQUE ("group_seq_id")
      )`);
    await q.query(`ALTER SEQUENCE "auth_group_seq_id_seq" OWNED BY "auth_groups"."group_seq_id"`);

    // The auths of a group, one row each: keeps group_auths referentially sound and lets
    // effective permissions be computed with a join.
    await q.query(`
      CREATE TABLE "auth_group_auths" (
        "app_token" varchar(40) NOT NULL,
        "group_id" varchar(64) NOT NULL,
        "auth_id" varchar(16) NOT NULL,
        CONSTRAINT "auth_group_auths_pkey" PRIMARY KEY ("app_token", "group_id", "auth_id"),
        CONSTRAINT "auth_group_auths_group_fkey" FOREIGN KEY ("app_token", "group_id")
          REFERENCES "auth_groups" ("app_token", "group_id") ON DELETE CASCADE,
        CONSTRAINT "auth_group_auths_auth_fkey" FOREIGN KEY ("app_token", "auth_id")
          REFERENCES "auths" ("app_token", "auth_id")
      )`);
    await q.query(`CREATE INDEX "auth_group_auths_app_token_auth_id_idx" ON "auth_group_auths" ("app_token", "auth_id")`);

    // Nonces seen by the signature guard, shared by all instances.
    await q.query(`
      CREATE TABLE "request_nonces" (
        "app_token" varchar(40) NOT NULL,
        "nonce" varchar(64) NOT NULL,
        "expires_at" timestamptz NOT NULL,
        CONSTRAINT "request_nonces_pkey" PRIMARY KEY ("app_token", "nonce")
      )`);
    await q.query(`CREATE INDEX "request_nonces_expires_at_idx" ON "request_nonces" ("expires_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "request_nonces"`);
    await q.query(`DROP TABLE "auth_group_auths"`);
    await q.query(`DROP TABLE "auth_groups"`);
    await q.query(`DROP TABLE "auths"`);
  }
}
