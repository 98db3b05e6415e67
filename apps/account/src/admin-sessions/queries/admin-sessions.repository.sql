-- The statements of admin-sessions.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- AdminSessionsRepository.insert: a new session
INSERT INTO "admin_sessions" ("token_hash", "login", "csrf_token") VALUES ($1, $2, $3);

-- AdminSessionsRepository.findLive: seen within 30 minutes
SELECT s."login", s."csrf_token" AS "csrfToken", o."role", o."apps",
        extract(epoch FROM now() - s."last_seen_time")::float8 AS "idleSeconds"
   FROM "admin_sessions" s JOIN "operators" o ON o."login" = s."login"
  WHERE s."token_hash" = $1 AND o."state" = 'enabled' AND s."last_seen_time" > now() - make_interval(secs => $2::float8);

-- AdminSessionsRepository.touch: by token hash
UPDATE "admin_sessions" SET "last_seen_time" = now() WHERE "token_hash" = $1;

-- AdminSessionsRepository.delete: by token hash
DELETE FROM "admin_sessions" WHERE "token_hash" = $1;

-- AdminSessionsRepository.deleteOf: every session of an operator
DELETE FROM "admin_sessions" WHERE "login" = $1;

-- AdminSessionsRepository.purge: idle past 30 minutes
DELETE FROM "admin_sessions" WHERE "last_seen_time" < now() - make_interval(secs => $1::float8);
