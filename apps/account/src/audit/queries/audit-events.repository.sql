-- The statements of audit-events.repository.ts, recorded by `pnpm sql` (do not edit): each case of a
-- method's @GenerateSql, run against the migrated schema in a transaction that is rolled back.

-- AuditEventsRepository.insert: one event
WITH "audit_lock" AS (SELECT pg_advisory_xact_lock_shared(1635083383), pg_advisory_xact_lock_shared(1635083361, hashtext($1::text))),
  "audit_event" AS (
    INSERT INTO "audit_events" ("app_token", "action", "resource_type", "resource_id", "operator", "request_id", "client_ip", "result_code", "changes")
    SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 FROM "audit_lock"
    RETURNING 1) SELECT 1 FROM "audit_event";

-- AuditEventsRepository.page: no filter
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: resource_type
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "resource_type" = $2 ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: resource_id
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "resource_id" = $2 ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: action
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "action" = $2 ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: operator
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "operator" = $2 ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: after_event_id
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "event_id" > $2::bigint ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: from_time
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "event_time" >= ($2::timestamp AT TIME ZONE 'UTC') ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: to_time
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "event_time" < ($2::timestamp AT TIME ZONE 'UTC') ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: all apps, no filter
-- in a transaction
SELECT pg_advisory_xact_lock(1635083383);
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: all apps, one action
-- in a transaction
SELECT pg_advisory_xact_lock(1635083383);
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "action" = $1 ORDER BY "audit_events"."event_id" ASC LIMIT 101;

-- AuditEventsRepository.page: every filter
-- in a transaction
SELECT pg_advisory_xact_lock(1635083361, hashtext($1::text));
SELECT pg_advisory_xact_lock(1635083380);
SELECT "event_id"::text AS "event_id", "event_time", "app_token", "action", "resource_type", "resource_id",
       "operator", "request_id", "client_ip", "result_code", "changes"
  FROM "audit_events" WHERE "app_token" = $1 AND "resource_type" = $2 AND "resource_id" = $3 AND "action" = $4 AND "operator" = $5 AND "event_id" > $6::bigint AND "event_time" >= ($7::timestamp AT TIME ZONE 'UTC') AND "event_time" < ($8::timestamp AT TIME ZONE 'UTC') ORDER BY "audit_events"."event_id" ASC LIMIT 101;
