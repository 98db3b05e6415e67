import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Users pages found by position, not by skipping rows (interface 203 pages by number).
 *
 * - `app_ord`: the user's position in its app, 1, 2, 3... in registration order, dense.
 * - `org_ord`: its position among the users of its `org_id`, in the same order, dense
 *   (`NULL` without an org).
 *
 * Page n of size s is then the index range `(n-1)*s < ord <= n*s`: the same work for the
 * first page and the ten-millionth user's. The counts come from counter rows: `user_counts`
 * (per app, as before) and `user_org_counts` (per app and org).
 *
 * Invariants, kept by triggers in the writing transaction whatever writes the table:
 * - a registration takes the next number of its app, then of its org, from the counter rows
 *   (locked until commit): concurrent registrations of one app queue there, as they already
 *   did for the count, and a rolled-back one gives its numbers back;
 * - within an org, `org_ord` follows `app_ord`;
 * - a user moved to another org (a modify of `org_id`) leaves no hole: the old org's later
 *   users move up by one, the new org's users after it (by `app_ord`) move down by one, so the
 *   moved user appears in the new org's pages where its registration puts it. A move costs
 *   O(users of the two orgs after it);
 * - users are never deleted by the service; a `DELETE` in SQL renumbers the affected apps
 *   (O(users of those apps)), so pages stay complete.
 */
export class UserOrdinals1767226200000 implements MigrationInterface {
  name = 'UserOrdinals1767226200000';

  async up(q: QueryRunner): Promise<void> {
    // Numbering the existing users is one statement over the whole table (22 s per
    // million users, see docs/operations.md): not bound by the service's statement timeout.
    await q.query(`SET LOCAL statement_timeout = 0`);
    await q.query(`ALTER TABLE "users" ADD COLUMN "app_ord" bigint, ADD COLUMN "org_ord" bigint`);
    await q.query(`
      CREATE TABLE "user_org_counts" (
        "app_token" varchar(40) NOT NULL,
        "org_id" varchar(16) NOT NULL,
        "total" bigint NOT NULL,
        CONSTRAINT "user_org_counts_pkey" PRIMARY KEY ("app_token", "org_id")
      )`);

    // Numbers every user of the given apps again from 1, in the order they have (existing
    // numbers first, then creation), and sets the counter rows. Used to number existing users
    // here and after a DELETE.
    await q.query(`
      CREATE FUNCTION "users_renumber"("apps" varchar[]) RETURNS void LANGUAGE plpgsql AS $fn$
      BEGIN
        UPDATE "users" u SET "app_ord" = n."app_ord", "org_ord" = n."org_ord"
          FROM (SELECT "app_token", "user_login_id",
                       row_number() OVER (PARTITION BY "app_token" ORDER BY "app_ord", "user_seq_id") AS "app_ord",
                       CASE WHEN "org_id" IS NULL THEN NULL ELSE
                         row_number() OVER (PARTITION BY "app_token", "org_id" ORDER BY "app_ord", "user_seq_id") END AS "org_ord"
                  FROM "users" WHERE "app_token" = ANY("apps")) n
         WHERE u."app_token" = n."app_token" AND u."user_login_id" = n."user_login_id"
           AND (u."app_ord" IS DISTINCT FROM n."app_ord" OR u."org_ord" IS DISTINCT FROM n."org_ord");
        DELETE FROM "user_counts" WHERE "app_token" = ANY("apps");
        INSERT INTO "user_counts" ("app_token", "total")
          SELECT "app_token", count(*) FROM "users" WHERE "app_token" = ANY("apps") GROUP BY "app_token";
        DELETE FROM "user_org_counts" WHERE "app_token" = ANY("apps");
        INSERT INTO "user_org_counts" ("app_token", "org_id", "total")
          SELECT "app_token", "org_id", count(*) FROM "users"
           WHERE "app_token" = ANY("apps") AND "org_id" IS NOT NULL GROUP BY "app_token", "org_id";
      END
      $fn$`);
    await q.query(`SELECT "users_renumber"(ARRAY(SELECT DISTINCT "app_token" FROM "users"))`);

    // The statement triggers that kept `user_counts` give way to the numbering triggers.
    await q.query(`DROP TRIGGER "users_count_insert" ON "users"`);
    await q.query(`DROP TRIGGER "users_count_delete" ON "users"`);
    await q.query(`DROP FUNCTION "users_count_rows"()`);

    await q.query(`
      CREATE FUNCTION "users_number_new"() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO "user_counts" AS c ("app_token", "total") VALUES (NEW."app_token", 1)
          ON CONFLICT ("app_token") DO UPDATE SET "total" = c."total" + 1
          RETURNING c."total" INTO NEW."app_ord";
        IF NEW."org_id" IS NULL THEN
          NEW."org_ord" := NULL;
        ELSE
          INSERT INTO "user_org_counts" AS c ("app_token", "org_id", "total") VALUES (NEW."app_token", NEW."org_id", 1)
            ON CONFLICT ("app_token", "org_id") DO UPDATE SET "total" = c."total" + 1
            RETURNING c."total" INTO NEW."org_ord";
        END IF;
        RETURN NEW;
      END
      $fn$`);
    await q.query(`CREATE TRIGGER "users_number_insert" BEFORE INSERT ON "users" FOR EACH ROW EXECUTE FUNCTION "users_number_new"()`);

    await q.query(`
      CREATE FUNCTION "users_number_moved"() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        -- Both orgs' counter rows, in one order: two moves between the same orgs wait, never deadlock.
        PERFORM 1 FROM "user_org_counts"
          WHERE "app_token" = NEW."app_token" AND "org_id" IN (OLD."org_id", NEW."org_id") ORDER BY "org_id" FOR UPDATE;
        IF OLD."org_id" IS NOT NULL THEN
          UPDATE "user_org_counts" SET "total" = "total" - 1 WHERE "app_token" = OLD."app_token" AND "org_id" = OLD."org_id";
          UPDATE "users" SET "org_ord" = "org_ord" - 1
           WHERE "app_token" = OLD."app_token" AND "org_id" = OLD."org_id" AND "org_ord" > OLD."org_ord";
        END IF;
        IF NEW."org_id" IS NULL THEN
          NEW."org_ord" := NULL;
        ELSE
          -- The counter row first: it queues this move behind the org's registrations and moves.
          INSERT INTO "user_org_counts" AS c ("app_token", "org_id", "total") VALUES (NEW."app_token", NEW."org_id", 1)
            ON CONFLICT ("app_token", "org_id") DO UPDATE SET "total" = c."total" + 1;
          SELECT count(*) + 1 INTO NEW."org_ord" FROM "users"
           WHERE "app_token" = NEW."app_token" AND "org_id" = NEW."org_id" AND "app_ord" < NEW."app_ord";
          UPDATE "users" SET "org_ord" = "org_ord" + 1
           WHERE "app_token" = NEW."app_token" AND "org_id" = NEW."org_id" AND "org_ord" >= NEW."org_ord";
        END IF;
        RETURN NEW;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER "users_number_move" BEFORE UPDATE OF "org_id" ON "users"
        FOR EACH ROW WHEN (OLD."org_id" IS DISTINCT FROM NEW."org_id") EXECUTE FUNCTION "users_number_moved"()`);

    await q.query(`
      CREATE FUNCTION "users_number_deleted"() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        PERFORM "users_renumber"(ARRAY(SELECT DISTINCT "app_token" FROM "old_rows"));
        RETURN NULL;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER "users_number_delete" AFTER DELETE ON "users"
        REFERENCING OLD TABLE AS "old_rows" FOR EACH STATEMENT EXECUTE FUNCTION "users_number_deleted"()`);

    await q.query(`ALTER TABLE "users" ALTER COLUMN "app_ord" SET NOT NULL`);
    // The pages' indexes. The creation-order ones stay while the previous version may still
    // run against this schema (its list pages use them); a later release drops them.
    await q.query(`CREATE INDEX "users_app_token_app_ord_idx" ON "users" ("app_token", "app_ord")`);
    await q.query(`CREATE INDEX "users_app_token_org_id_org_ord_idx" ON "users" ("app_token", "org_id", "org_ord")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX "users_app_token_org_id_org_ord_idx"`);
    await q.query(`DROP INDEX "users_app_token_app_ord_idx"`);
    await q.query(`DROP TRIGGER "users_number_delete" ON "users"`);
    await q.query(`DROP TRIGGER "users_number_move" ON "users"`);
    await q.query(`DROP TRIGGER "users_number_insert" ON "users"`);
    await q.query(`DROP FUNCTION "users_number_deleted"()`);
    await q.query(`DROP FUNCTION "users_number_moved"()`);
    await q.query(`DROP FUNCTION "users_number_new"()`);
    await q.query(`DROP FUNCTION "users_renumber"(varchar[])`);
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
    await q.query(`DROP TABLE "user_org_counts"`);
    await q.query(`ALTER TABLE "users" DROP COLUMN "org_ord", DROP COLUMN "app_ord"`);
  }
}
