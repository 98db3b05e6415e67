import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `auth_seq_id` numbered per app: 1, 2, 3... in each app, so that an app's numbers say
 * nothing of the auths other apps create (one global sequence did). A trigger takes the next
 * number from the app's row of `auth_seq_counters` in the inserting transaction: concurrent
 * creates of one app queue on that row and get distinct numbers, a create that is rolled
 * back gives its number back, and creates of different apps do not wait for each other.
 * Numbers already given are kept (clients have seen them); each app goes on from its highest.
 */
export class AuthSeqPerApp1767225900000 implements MigrationInterface {
  name = 'AuthSeqPerApp1767225900000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE "auth_seq_counters" (
        "app_token" varchar(40) NOT NULL,
        "last_seq_id" bigint NOT NULL,
        CONSTRAINT "auth_seq_counters_pkey" PRIMARY KEY ("app_token")
      )`);
    await q.query(`
      INSERT INTO "auth_seq_counters" ("app_token", "last_seq_id")
        SELECT "app_token", max("auth_seq_id") FROM "auths" GROUP BY "app_token"`);
    await q.query(`
      CREATE FUNCTION "auths_next_seq_id"() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        INSERT INTO "auth_seq_counters" AS c ("app_token", "last_seq_id") VALUES (NEW."app_token", 1)
          ON CONFLICT ("app_token") DO UPDATE SET "last_seq_id" = c."last_seq_id" + 1
          RETURNING c."last_seq_id" INTO NEW."auth_seq_id";
        RETURN NEW;
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER "auths_seq_id" BEFORE INSERT ON "auths" FOR EACH ROW EXECUTE FUNCTION "auths_next_seq_id"()`);
    await q.query(`ALTER TABLE "auths" ALTER COLUMN "auth_seq_id" DROP DEFAULT`);
    await q.query(`DROP SEQUENCE "auth_seq_id_seq"`);
    await q.query(`ALTER TABLE "auths" DROP CONSTRAINT "auths_auth_seq_id_key"`);
    await q.query(`ALTER TABLE "auths" ADD CONSTRAINT "auths_app_token_auth_seq_id_key" UNIQUE ("app_token", "auth_seq_id")`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE "auths" DROP CONSTRAINT "auths_app_token_auth_seq_id_key"`);
    await q.query(`DROP TRIGGER "auths_seq_id" ON "auths"`);
    await q.query(`DROP FUNCTION "auths_next_seq_id"()`);
    await q.query(`DROP TABLE "auth_seq_counters"`);
    // One global sequence again: the per-app numbers are renumbered in creation order.
    await q.query(`CREATE SEQUENCE "auth_seq_id_seq" AS bigint OWNED BY "auths"."auth_seq_id"`);
    await q.query(`
      UPDATE "auths" a SET "auth_seq_id" = n."seq"
        FROM (SELECT "app_token", "auth_id", nextval('auth_seq_id_seq') AS "seq" FROM
                (SELECT "app_token", "auth_id" FROM "auths" ORDER BY "create_time", "app_token", "auth_seq_id") o) n
       WHERE a."app_token" = n."app_token" AND a."auth_id" = n."auth_id"`);
    await q.query(`ALTER TABLE "auths" ALTER COLUMN "auth_seq_id" SET DEFAULT nextval('auth_seq_id_seq')`);
    await q.query(`ALTER TABLE "auths" ADD CONSTRAINT "auths_auth_seq_id_key" UNIQUE ("auth_seq_id")`);
  }
}
