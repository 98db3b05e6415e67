-- The statements of auths.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- AuthsRepository.findOne: by id
SELECT "app_token" AS "appToken", "auth_id" AS "authId", "auth_seq_id" AS "authSeqId", "auth_name" AS "authName", "auth_desc" AS "authDesc", "auth_state" AS "authState", "auth_type" AS "authType", "auth_level" AS "authLevel", "parent_auth_id" AS "parentAuthId", "sub_auth_flag" AS "subAuthFlag", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auths" WHERE "app_token" = $1 AND "auth_id" = $2;

-- AuthsRepository.findForUpdate: by id, locked
SELECT "app_token" AS "appToken", "auth_id" AS "authId", "auth_seq_id" AS "authSeqId", "auth_name" AS "authName", "auth_desc" AS "authDesc", "auth_state" AS "authState", "auth_type" AS "authType", "auth_level" AS "authLevel", "parent_auth_id" AS "parentAuthId", "sub_auth_flag" AS "subAuthFlag", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auths" WHERE "app_token" = $1 AND "auth_id" = $2 FOR UPDATE;

-- AuthsRepository.findRows: by ids
SELECT "auth_id" AS "authId", "auth_seq_id" AS "authSeqId", "auth_name" AS "authName", "auth_state" AS "authState", "auth_type" AS "authType", "auth_level" AS "authLevel", "parent_auth_id" AS "parentAuthId", "sub_auth_flag" AS "subAuthFlag" FROM "auths" WHERE "app_token" = $1 AND "auth_id" = ANY($2);

-- AuthsRepository.list: no filter
SELECT "app_token" AS "appToken", "auth_id" AS "authId", "auth_seq_id" AS "authSeqId", "auth_name" AS "authName", "auth_desc" AS "authDesc", "auth_state" AS "authState", "auth_type" AS "authType", "auth_level" AS "authLevel", "parent_auth_id" AS "parentAuthId", "sub_auth_flag" AS "subAuthFlag", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auths" WHERE "app_token" = $1 ORDER BY "auth_seq_id" ASC;

-- AuthsRepository.list: every filter
SELECT "app_token" AS "appToken", "auth_id" AS "authId", "auth_seq_id" AS "authSeqId", "auth_name" AS "authName", "auth_desc" AS "authDesc", "auth_state" AS "authState", "auth_type" AS "authType", "auth_level" AS "authLevel", "parent_auth_id" AS "parentAuthId", "sub_auth_flag" AS "subAuthFlag", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auths" WHERE "app_token" = $1 AND "auth_id" = ANY($2) AND "auth_state" = $3 AND "auth_type" = $4 AND "auth_level" = $5 AND "parent_auth_id" = $6 ORDER BY "auth_seq_id" ASC;

-- AuthsRepository.list: roots
SELECT "app_token" AS "appToken", "auth_id" AS "authId", "auth_seq_id" AS "authSeqId", "auth_name" AS "authName", "auth_desc" AS "authDesc", "auth_state" AS "authState", "auth_type" AS "authType", "auth_level" AS "authLevel", "parent_auth_id" AS "parentAuthId", "sub_auth_flag" AS "subAuthFlag", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "auths" WHERE "app_token" = $1 AND ("parent_auth_id" IS NULL OR "parent_auth_id" = '') ORDER BY "auth_seq_id" ASC;

-- AuthsRepository.ancestry: up to 32 ancestors
WITH RECURSIVE "chain" AS (
    SELECT "a".*, 0 AS "depth" FROM "auths" "a" WHERE "a"."app_token" = $1 AND "a"."auth_id" = $2
    UNION ALL
    SELECT "p".*, "c"."depth" + 1 FROM "chain" "c"
      JOIN "auths" "p" ON "p"."app_token" = $1 AND "p"."auth_id" = "c"."parent_auth_id"
     WHERE "c"."depth" < $3
  )
  SELECT "chain"."auth_id" AS "authId", "chain"."auth_seq_id" AS "authSeqId", "chain"."auth_name" AS "authName", "chain"."auth_state" AS "authState", "chain"."auth_type" AS "authType", "chain"."auth_level" AS "authLevel", "chain"."parent_auth_id" AS "parentAuthId", "chain"."sub_auth_flag" AS "subAuthFlag" FROM "chain" ORDER BY "depth";

-- AuthsRepository.height: below an auth
WITH RECURSIVE sub (auth_id, level) AS (
    SELECT auth_id, 1 FROM auths WHERE app_token = $1 AND auth_id = $2
    UNION ALL
    SELECT a.auth_id, s.level + 1 FROM auths a JOIN sub s ON a.app_token = $1 AND a.parent_auth_id = s.auth_id
     WHERE s.level <= $3
  )
  SELECT max(level)::int AS height FROM sub;

-- AuthsRepository.lockHierarchy: the app
SELECT pg_advisory_xact_lock(hashtextextended('auths:' || $1, 0));

-- AuthsRepository.insert: required fields
INSERT INTO "auths"("app_token", "auth_id", "auth_name", "auth_desc", "auth_state", "auth_type", "auth_level", "parent_auth_id", "sub_auth_flag") VALUES ($1, $2, $3, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT, DEFAULT) RETURNING "create_time", "update_time";

-- AuthsRepository.update: two fields
UPDATE "auths" SET "auth_name" = $1, "parent_auth_id" = $2, "update_time" = now() WHERE ("app_token" = $3 AND "auth_id" = $4);
