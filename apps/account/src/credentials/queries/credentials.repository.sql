-- The statements of credentials.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- CredentialsRepository.lockApp: an app
SELECT 1 FROM "apps" WHERE "app_token" = $1 FOR UPDATE;

-- CredentialsRepository.listOf: of two apps
SELECT c."app_token" AS "appToken", c."credential_id" AS "credentialId", c."secret", c."aes_key" AS "aesKey",
  c."key_id" AS "keyId", c."create_time" AS "createTime", c."expire_time" AS "expireTime",
  c."revoke_time" AS "revokeTime", c."last_used_time" AS "lastUsedTime" FROM "app_credentials" c WHERE c."app_token" = ANY($1) ORDER BY c."create_time", c."credential_id";

-- CredentialsRepository.listOf: of no app (no statement)

-- CredentialsRepository.insert: a new credential
INSERT INTO "app_credentials" ("app_token", "credential_id", "secret", "aes_key", "key_id") VALUES ($1, $2, $3, $4, $5);

-- CredentialsRepository.setExpireTime: a credential
UPDATE "app_credentials" SET "expire_time" = $3 WHERE "app_token" = $1 AND "credential_id" = $2;

-- CredentialsRepository.revoke: a credential
UPDATE "app_credentials" SET "revoke_time" = now() WHERE "app_token" = $1 AND "credential_id" = $2 AND "revoke_time" IS NULL;

-- CredentialsRepository.active: every active credential
SELECT a."app_token" AS "appToken", a."aes_mode" AS "aesMode", c."credential_id" AS "credentialId",
        c."secret", c."aes_key" AS "aesKey", c."expire_time" AS "expireTime"
   FROM "apps" a JOIN "app_credentials" c ON c."app_token" = a."app_token"
  WHERE a."state" = 'enabled' AND c."revoke_time" IS NULL AND (c."expire_time" IS NULL OR c."expire_time" > now())
  ORDER BY a."app_token", c."create_time", c."credential_id";

-- CredentialsRepository.recordUses: a batch
UPDATE "app_credentials" c SET "last_used_time" = u."time"
   FROM (SELECT "id", max("time") AS "time" FROM unnest($1::text[], $2::timestamptz[]) AS t ("id", "time") GROUP BY "id") u
  WHERE c."credential_id" = u."id" AND (c."last_used_time" IS NULL OR c."last_used_time" < u."time");

-- CredentialsRepository.recordUses: none (no statement)

-- CredentialsRepository.bumpVersion: in a change
UPDATE "control_plane_version" SET "version" = "version" + 1 WHERE "id" = 1;

-- CredentialsRepository.version: the counter
SELECT "version"::text AS "version" FROM "control_plane_version" WHERE "id" = 1;

-- CredentialsRepository.staleBatch: a batch of 100
SELECT c."app_token" AS "appToken", c."credential_id" AS "credentialId", c."secret", c."aes_key" AS "aesKey",
  c."key_id" AS "keyId", c."create_time" AS "createTime", c."expire_time" AS "expireTime",
  c."revoke_time" AS "revokeTime", c."last_used_time" AS "lastUsedTime" FROM "app_credentials" c WHERE c."key_id" <> $1 AND c."credential_id" > $2
        ORDER BY c."credential_id" LIMIT 100 FOR UPDATE;

-- CredentialsRepository.reseal: a credential
UPDATE "app_credentials" SET "secret" = $3, "aes_key" = $4, "key_id" = $5 WHERE "app_token" = $1 AND "credential_id" = $2;
