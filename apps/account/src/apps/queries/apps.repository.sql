-- The statements of apps.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- AppsRepository.find: by token
SELECT a."app_token" AS "appToken", a."app_name" AS "appName", a."aes_mode" AS "aesMode", a."state", a."create_time" AS "createTime" FROM "apps" a WHERE a."app_token" = $1;

-- AppsRepository.find: by token, locked
SELECT a."app_token" AS "appToken", a."app_name" AS "appName", a."aes_mode" AS "aesMode", a."state", a."create_time" AS "createTime" FROM "apps" a WHERE a."app_token" = $1 FOR UPDATE;

-- AppsRepository.list: every app
SELECT a."app_token" AS "appToken", a."app_name" AS "appName", a."aes_mode" AS "aesMode", a."state", a."create_time" AS "createTime" FROM "apps" a  ORDER BY a."create_time", a."app_token";

-- AppsRepository.list: some apps
SELECT a."app_token" AS "appToken", a."app_name" AS "appName", a."aes_mode" AS "aesMode", a."state", a."create_time" AS "createTime" FROM "apps" a WHERE a."app_token" = ANY($1) ORDER BY a."create_time", a."app_token";

-- AppsRepository.existing: two tokens
SELECT "app_token" FROM "apps" WHERE "app_token" = ANY($1);

-- AppsRepository.existing: none (no statement)

-- AppsRepository.insert: a new app
INSERT INTO "apps" ("app_token", "app_name", "aes_mode") VALUES ($1, $2, $3);

-- AppsRepository.update: name and state
UPDATE "apps" SET "app_name" = $2, "state" = $3, "update_time" = now() WHERE "app_token" = $1;
