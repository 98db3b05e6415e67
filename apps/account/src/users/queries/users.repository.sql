-- The statements of users.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- UsersRepository.findOne: by login id
SELECT "app_token" AS "appToken", "user_login_id" AS "userLoginId", "user_seq_id" AS "userSeqId", "app_ord" AS "appOrd", "org_ord" AS "orgOrd", "user_id" AS "userId", "org_id" AS "orgId", "user_pwd_hash" AS "userPwdHash", "user_name" AS "userName", "user_short_name" AS "userShortName", "user_type" AS "userType", "is_domain_user" AS "isDomainUser", "cert_type" AS "certType", "cert_id" AS "certId", "cert_id_encrypt" AS "certIdEncrypt", "user_mobile" AS "userMobile", "user_mobile_encrypt" AS "userMobileEncrypt", "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups", "user_extends" AS "userExtends", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2;

-- UsersRepository.exists: by login id
SELECT 1 AS "row_exists" FROM (SELECT 1 AS dummy_column) "dummy_table" WHERE EXISTS (SELECT 1 FROM "users" "UserEntity" WHERE (("UserEntity"."app_token" = $1) AND ("UserEntity"."user_login_id" = $2))) LIMIT 1;

-- UsersRepository.findGrants: by login id
SELECT "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = $2;

-- UsersRepository.loginReader: with a claim
-- then, per call:
WITH "claim" AS (SELECT now() AS "at" WHERE $3::int > 0 AND $4::int > 0)
  SELECT "u"."app_token" AS "appToken", "u"."user_login_id" AS "userLoginId", "u"."user_seq_id" AS "userSeqId", "u"."app_ord" AS "appOrd", "u"."org_ord" AS "orgOrd", "u"."user_id" AS "userId", "u"."org_id" AS "orgId", "u"."user_pwd_hash" AS "userPwdHash", "u"."user_name" AS "userName", "u"."user_short_name" AS "userShortName", "u"."user_type" AS "userType", "u"."is_domain_user" AS "isDomainUser", "u"."cert_type" AS "certType", "u"."cert_id" AS "certId", "u"."cert_id_encrypt" AS "certIdEncrypt", "u"."user_mobile" AS "userMobile", "u"."user_mobile_encrypt" AS "userMobileEncrypt", "u"."user_auths" AS "userAuths", "u"."user_auth_groups" AS "userAuthGroups", "u"."user_extends" AS "userExtends", "u"."create_time" AS "createTime", "u"."update_time" AS "updateTime", "claim"."at" AS "__claim_at", false AS "__locked"
  FROM (VALUES (1)) AS "one" ("x")
  LEFT JOIN "users" "u" ON "u"."app_token" = $1 AND "u"."user_login_id" = $2
  LEFT JOIN "claim" ON true;

-- UsersRepository.register: required fields only, no links
WITH "changed" AS (INSERT INTO "users" ("app_token", "user_login_id", "user_id", "user_name", "user_type") VALUES ($1, $2, $3, $4, $5) RETURNING 1),
  "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(1635083383), pg_advisory_xact_lock_shared(1635083361, hashtext($6::text))),
      "audit_event" AS (
        INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
        SELECT $6, $7, $8, $9, $10, $11, $12, $13, $14 FROM "audit_lock"
        WHERE EXISTS (SELECT 1 FROM "changed")
        RETURNING 1) SELECT 1;

-- UsersRepository.register: every field, both links
WITH "changed" AS (INSERT INTO "users" ("app_token", "user_login_id", "user_id", "org_id", "user_pwd_hash", "user_name", "user_short_name", "user_type", "is_domain_user", "cert_type", "cert_id", "cert_id_encrypt", "user_mobile", "user_mobile_encrypt", "user_auths", "user_auth_groups", "user_extends") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) RETURNING 1),
  "auth_links" AS (INSERT INTO "user_auth_links" ("app_token", "user_login_id", "auth_id")
        SELECT $1, $2, "id" FROM unnest($18::varchar[]) AS "id" WHERE EXISTS (SELECT 1 FROM "changed")
         RETURNING 1),
  "group_links" AS (INSERT INTO "user_group_links" ("app_token", "user_login_id", "group_id")
        SELECT $1, $2, "id" FROM unnest($19::varchar[]) AS "id" WHERE EXISTS (SELECT 1 FROM "changed") AND (SELECT count(*) FROM "auth_links") >= 0
         RETURNING 1),
  "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(1635083383), pg_advisory_xact_lock_shared(1635083361, hashtext($20::text))),
      "audit_event" AS (
        INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
        SELECT $20, $21, $22, $23, $24, $25, $26, $27, $28 FROM "audit_lock"
        WHERE EXISTS (SELECT 1 FROM "changed")
        RETURNING 1) SELECT 1;

-- UsersRepository.modify: one field
WITH "changed" AS (UPDATE "users" SET "user_name" = $3, "update_time" = now() WHERE "app_token" = $1 AND "user_login_id" = $2 RETURNING 1),
  "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(1635083383), pg_advisory_xact_lock_shared(1635083361, hashtext($4::text))),
      "audit_event" AS (
        INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
        SELECT $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM "audit_lock"
        WHERE EXISTS (SELECT 1 FROM "changed")
        RETURNING 1) SELECT count(*)::int AS "n" FROM "changed";

-- UsersRepository.modify: org move, both links replaced
WITH "org_move" AS (SELECT pg_advisory_xact_lock(hashtextextended('users-org:' || $1, 0))),
  "changed" AS (UPDATE "users" SET "org_id" = $3, "update_time" = now() FROM "org_move" WHERE "app_token" = $1 AND "user_login_id" = $2 RETURNING 1),
  "auth_links_gone" AS (DELETE FROM "user_auth_links" WHERE "app_token" = $1 AND "user_login_id" = $2
          AND "auth_id" <> ALL($4::varchar[]) AND EXISTS (SELECT 1 FROM "changed")),
  "auth_links" AS (INSERT INTO "user_auth_links" ("app_token", "user_login_id", "auth_id")
        SELECT $1, $2, "id" FROM unnest($4::varchar[]) AS "id" WHERE EXISTS (SELECT 1 FROM "changed")
        ON CONFLICT DO NOTHING RETURNING 1),
  "group_links_gone" AS (DELETE FROM "user_group_links" WHERE "app_token" = $1 AND "user_login_id" = $2
          AND "group_id" <> ALL($5::varchar[]) AND EXISTS (SELECT 1 FROM "changed")),
  "group_links" AS (INSERT INTO "user_group_links" ("app_token", "user_login_id", "group_id")
        SELECT $1, $2, "id" FROM unnest($5::varchar[]) AS "id" WHERE EXISTS (SELECT 1 FROM "changed") AND (SELECT count(*) FROM "auth_links") >= 0
        ON CONFLICT DO NOTHING RETURNING 1),
  "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(1635083383), pg_advisory_xact_lock_shared(1635083361, hashtext($6::text))),
      "audit_event" AS (
        INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
        SELECT $6, $7, $8, $9, $10, $11, $12, $13, $14 FROM "audit_lock"
        WHERE EXISTS (SELECT 1 FROM "changed")
        RETURNING 1) SELECT count(*)::int AS "n" FROM "changed";

-- UsersRepository.modify: links cleared
WITH "changed" AS (UPDATE "users" SET "update_time" = now() WHERE "app_token" = $1 AND "user_login_id" = $2 RETURNING 1),
  "auth_links_gone" AS (DELETE FROM "user_auth_links" WHERE "app_token" = $1 AND "user_login_id" = $2
          AND "auth_id" <> ALL($3::varchar[]) AND EXISTS (SELECT 1 FROM "changed")),
  "group_links_gone" AS (DELETE FROM "user_group_links" WHERE "app_token" = $1 AND "user_login_id" = $2
          AND "group_id" <> ALL($4::varchar[]) AND EXISTS (SELECT 1 FROM "changed")),
  "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(1635083383), pg_advisory_xact_lock_shared(1635083361, hashtext($5::text))),
      "audit_event" AS (
        INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
        SELECT $5, $6, $7, $8, $9, $10, $11, $12, $13 FROM "audit_lock"
        WHERE EXISTS (SELECT 1 FROM "changed")
        RETURNING 1) SELECT count(*)::int AS "n" FROM "changed";

-- UsersRepository.replacePasswordHash: compare and set
UPDATE "users" SET "user_pwd_hash" = $1 WHERE ("app_token" = $2 AND "user_login_id" = $3 AND "user_pwd_hash" = $4);

-- UsersRepository.page: the app, empty
-- in a transaction (REPEATABLE READ)
SELECT "total" FROM "user_counts" WHERE "app_token" = $1;

-- UsersRepository.page: the app
-- in a transaction (REPEATABLE READ)
SELECT "total" FROM "user_counts" WHERE "app_token" = $1;
SELECT "app_token" AS "appToken", "user_login_id" AS "userLoginId", "user_seq_id" AS "userSeqId", "app_ord" AS "appOrd", "org_ord" AS "orgOrd", "user_id" AS "userId", "org_id" AS "orgId", "user_pwd_hash" AS "userPwdHash", "user_name" AS "userName", "user_short_name" AS "userShortName", "user_type" AS "userType", "is_domain_user" AS "isDomainUser", "cert_type" AS "certType", "cert_id" AS "certId", "cert_id_encrypt" AS "certIdEncrypt", "user_mobile" AS "userMobile", "user_mobile_encrypt" AS "userMobileEncrypt", "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups", "user_extends" AS "userExtends", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "users" WHERE "app_token" = $1 AND "app_ord" > $2 AND "app_ord" <= $3 ORDER BY "app_ord";

-- UsersRepository.page: an org
-- in a transaction (REPEATABLE READ)
SELECT "total" FROM "user_org_counts" WHERE "app_token" = $1 AND "org_id" = $2;
SELECT "app_token" AS "appToken", "user_login_id" AS "userLoginId", "user_seq_id" AS "userSeqId", "app_ord" AS "appOrd", "org_ord" AS "orgOrd", "user_id" AS "userId", "org_id" AS "orgId", "user_pwd_hash" AS "userPwdHash", "user_name" AS "userName", "user_short_name" AS "userShortName", "user_type" AS "userType", "is_domain_user" AS "isDomainUser", "cert_type" AS "certType", "cert_id" AS "certId", "cert_id_encrypt" AS "certIdEncrypt", "user_mobile" AS "userMobile", "user_mobile_encrypt" AS "userMobileEncrypt", "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups", "user_extends" AS "userExtends", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "users" WHERE "app_token" = $1 AND "org_id" = $2 AND "org_ord" > $3 AND "org_ord" <= $4 ORDER BY "org_ord";

-- UsersRepository.page: a login-id list
-- in a transaction (REPEATABLE READ)
SELECT count(*) AS "total" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = ANY($2);
SELECT "app_token" AS "appToken", "user_login_id" AS "userLoginId", "user_seq_id" AS "userSeqId", "app_ord" AS "appOrd", "org_ord" AS "orgOrd", "user_id" AS "userId", "org_id" AS "orgId", "user_pwd_hash" AS "userPwdHash", "user_name" AS "userName", "user_short_name" AS "userShortName", "user_type" AS "userType", "is_domain_user" AS "isDomainUser", "cert_type" AS "certType", "cert_id" AS "certId", "cert_id_encrypt" AS "certIdEncrypt", "user_mobile" AS "userMobile", "user_mobile_encrypt" AS "userMobileEncrypt", "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups", "user_extends" AS "userExtends", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = ANY($2) ORDER BY "app_ord" LIMIT 20 OFFSET 0;

-- UsersRepository.page: a login-id list in an org
-- in a transaction (REPEATABLE READ)
SELECT count(*) AS "total" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = ANY($2) AND "org_id" = $3;
SELECT "app_token" AS "appToken", "user_login_id" AS "userLoginId", "user_seq_id" AS "userSeqId", "app_ord" AS "appOrd", "org_ord" AS "orgOrd", "user_id" AS "userId", "org_id" AS "orgId", "user_pwd_hash" AS "userPwdHash", "user_name" AS "userName", "user_short_name" AS "userShortName", "user_type" AS "userType", "is_domain_user" AS "isDomainUser", "cert_type" AS "certType", "cert_id" AS "certId", "cert_id_encrypt" AS "certIdEncrypt", "user_mobile" AS "userMobile", "user_mobile_encrypt" AS "userMobileEncrypt", "user_auths" AS "userAuths", "user_auth_groups" AS "userAuthGroups", "user_extends" AS "userExtends", "create_time" AS "createTime", "update_time" AS "updateTime" FROM "users" WHERE "app_token" = $1 AND "user_login_id" = ANY($2) AND "org_id" = $3 ORDER BY "app_ord" LIMIT 20 OFFSET 0;
