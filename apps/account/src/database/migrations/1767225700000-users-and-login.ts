import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users (with their auth and group links) and the failed-login counters of the lockout.
 * Every record is keyed by the app that owns it (docs/contract.md §5).
 */
export class UsersAndLogin1767225700000 implements MigrationInterface {
  name = 'UsersAndLogin1767225700000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "users" (
        "app_token" varchar(40) NOT NULL,
        "user_login_id" varchar(64) NOT NULL,
        "user_seq_id" bigint GENERATED ALWAYS AS IDENTITY,
        "user_id" varchar(16) NOT NULL,
        "org_id" varchar(16),
        "user_pwd_hash" varchar(256),
        "user_name" varchar(64) NOT NULL,
        "user_short_name" varchar(32),
        "user_type" varchar(1) NOT NULL,
        "is_domain_user" varchar(1) NOT NULL DEFAULT '0',
        "cert_type" varchar(2),
        "cert_id" varchar(32),
        "cert_id_encrypt" varchar(16),
        "user_mobile" varchar(16),
        "user_mobile_encrypt" varchar(16),
        "user_auths" varchar(512),
        "user_auth_groups" varchar(512),
        "user_extends" varchar(512),
        "create_time" timestamptz NOT NULL DEFAULT now(),
        "update_time" timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT "users_pkey" PRIMARY KEY ("app_token", "user_login_id"),
        CONSTRAINT "users_app_token_user_id_key" UNIQUE ("app_token", "user_id")
      )`);
    // The list pages in creation order, per app, optionally filtered by org_id.
    await q.query(`CREATE INDEX "users_app_token_user_seq_id_idx" ON "users" ("app_token", "user_seq_id")`);
    await q.query(`CREATE INDEX "users_app_token_org_id_idx" ON "users" ("app_token", "org_id", "user_seq_id")`);

    // Users per app, kept by statement triggers in the writing transaction: the unfiltered
    // list's count without counting a million rows.
    await q.query(`
      CREATE TABLE "user_counts" (
        "app_token" varchar(40) NOT NULL,
        "total" bigint NOT NULL,
        CONSTRAINT "user_counts_pkey" PRIMARY KEY ("app_token")
      )`);
    await q.query(`
      CREATE FUNCTION "users_count_rows"() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        IF TG_OP = 'INSERT' THEN
          INSERT INTO "user_counts" AS c ("app_token", "total")
            SELECT "app_token", count(*) FROM "new_rows" GROUP BY "app_token"
            ON CONFLICT ("app_token") DO UPDATE SET "total" = c."total" + EXCLUDED."total";
        ELSE
          INSERT INTO "user_counts" AS c ("app_token", "total")
            SELECT "app_token", -count(*) FROM "old_rows" GROUP BY "app_token"
            ON CONFLICT ("app_token") DO UPDATE SET "total" = c."total" + EXCLUDED."total";
        END IF;
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER "users_count_insert" AFTER INSERT ON "users"
        REFERENCING NEW TABLE AS "new_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_count_rows"()`);
    await q.query(`
      CREATE TRIGGER "users_count_delete" AFTER DELETE ON "users"
        REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_count_rows"()`);

    await q.query(`
      CREATE TABLE "user_auth_links" (
        "app_token" varchar(40) NOT NULL,
        "user_login_id" varchar(64) NOT NULL,
        "auth_id" varchar(16) NOT NULL,
        CONSTRAINT "user_auth_links_pkey" PRIMARY KEY ("app_token", "user_login_id", "auth_id"),
        CONSTRAINT "user_auth_links_user_fkey" FOREIGN KEY ("app_token", "user_login_id")
          REFERENCES "users" ("app_token", "user_login_id") ON DELETE CASCADE,
        CONSTRAINT "user_auth_links_auth_fkey" FOREIGN KEY ("app_token", "auth_id")
          REFERENCES "auths" ("app_token", "auth_id")
      )`);
    await q.query(`CREATE INDEX "user_auth_links_app_token_auth_id_idx" ON "user_auth_links" ("app_token", "auth_id")`);

    await q.query(`
      CREATE TABLE "user_group_links" (
        "app_token" varchar(40) NOT NULL,
        "user_login_id" varchar(64) NOT NULL,
        "group_id" varchar(64) NOT NULL,
        CONSTRAINT "user_group_links_pkey" PRIMARY KEY ("app_token", "user_login_id", "group_id"),
        CONSTRAINT "user_group_links_user_fkey" FOREIGN KEY ("app_token", "user_login_id")
          REFERENCES "users" ("app_token", "user_login_id") ON DELETE CASCADE,
        CONSTRAINT "user_group_links_group_fkey" FOREIGN KEY ("app_token", "group_id")
          REFERENCES "auth_groups" ("app_token", "group_id")
      )`);
    await q.query(`CREATE INDEX "user_group_links_app_token_group_id_idx" ON "user_group_links" ("app_token", "group_id")`);

    // Failed logins per (app, login id), known user or not: not tied to "users".
    await q.query(`
      CREATE TABLE "login_failures" (
        "app_token" varchar(40) NOT NULL,
        "user_login_id" varchar(64) NOT NULL,
        "failed_at" timestamptz[] NOT NULL DEFAULT '{}',
        "last_failed_at" timestamptz NOT NULL,
        "locked_until" timestamptz,
        CONSTRAINT "login_failures_pkey" PRIMARY KEY ("app_token", "user_login_id")
      )`);
    await q.query(`CREATE INDEX "login_failures_last_failed_at_idx" ON "login_failures" ("last_failed_at")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "login_failures"`);
    await q.query(`DROP TABLE "user_group_links"`);
    await q.query(`DROP TABLE "user_auth_links"`);
    await q.query(`DROP TABLE "users"`);
    await q.query(`DROP FUNCTION "users_count_rows"()`);
    await q.query(`DROP TABLE "user_counts"`);
  }
}
