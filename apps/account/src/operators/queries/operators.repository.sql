-- The statements of operators.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- OperatorsRepository.find: by login
SELECT o."login", o."role", o."apps", o."state", o."password_hash" AS "passwordHash", o."directory",
  o."create_time" AS "createTime", o."update_time" AS "updateTime",
  EXISTS (SELECT 1 FROM "login_failures" f WHERE f."app_token" = '' AND f."user_login_id" = o."login" AND f."locked_until" > now()) AS "locked" FROM "operators" o WHERE o."login" = $1;

-- OperatorsRepository.find: by login, locked
SELECT o."login", o."role", o."apps", o."state", o."password_hash" AS "passwordHash", o."directory",
  o."create_time" AS "createTime", o."update_time" AS "updateTime",
  EXISTS (SELECT 1 FROM "login_failures" f WHERE f."app_token" = '' AND f."user_login_id" = o."login" AND f."locked_until" > now()) AS "locked" FROM "operators" o WHERE o."login" = $1 FOR UPDATE OF o;

-- OperatorsRepository.list: every operator
SELECT o."login", o."role", o."apps", o."state", o."password_hash" AS "passwordHash", o."directory",
  o."create_time" AS "createTime", o."update_time" AS "updateTime",
  EXISTS (SELECT 1 FROM "login_failures" f WHERE f."app_token" = '' AND f."user_login_id" = o."login" AND f."locked_until" > now()) AS "locked" FROM "operators" o ORDER BY o."login";

-- OperatorsRepository.insert: a new operator
INSERT INTO "operators" ("login", "role", "apps", "password_hash", "directory") VALUES ($1, $2, $3, $4, $5)
  ON CONFLICT ("login") DO NOTHING RETURNING 1;

-- OperatorsRepository.update: every field
UPDATE "operators" SET "role" = $2, "apps" = $3, "state" = $4, "password_hash" = $5, "directory" = $6, "update_time" = now()
  WHERE "login" = $1;
