import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The audit trail (docs/contract.md §10): `audit_events`, partitioned by month on `event_time`,
 * append-only (a trigger refuses UPDATE and DELETE; retention drops whole partitions, which
 * is DDL and not refused), and `audit_events_ensure_partitions`, which the service calls at
 * start and daily to create the coming months ahead.
 */
export class AuditEvents1767226000000 implements MigrationInterface {
  name = 'AuditEvents1767226000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`CREATE SEQUENCE "audit_events_event_id_seq" AS bigint`);
    await q.query(`
      CREATE TABLE "audit_events" (
        "event_id" bigint NOT NULL DEFAULT nextval('audit_events_event_id_seq'),
        "event_time" timestamptz NOT NULL DEFAULT now(),
        "app_token" varchar(40) NOT NULL,
        "action" varchar(16) NOT NULL,
        "resource_type" varchar(16) NOT NULL,
        "resource_id" varchar(64) NOT NULL,
        "operator" varchar(256) NOT NULL DEFAULT '',
        "request_id" varchar(128) NOT NULL DEFAULT '',
        "client_ip" varchar(64) NOT NULL DEFAULT '',
        "result_code" varchar(5) NOT NULL,
        "changes" text NOT NULL DEFAULT '',
        CONSTRAINT "audit_events_pkey" PRIMARY KEY ("event_id", "event_time")
      ) PARTITION BY RANGE ("event_time")`);
    await q.query(`ALTER SEQUENCE "audit_events_event_id_seq" OWNED BY "audit_events"."event_id"`);
    // A page is the app's events in id order, optionally narrowed by one resource, an action
    // or an operator; each filter has an index that reads the page in order and stops.
    await q.query(`CREATE INDEX "audit_events_app_event_idx" ON "audit_events" ("app_token", "event_id")`);
    await q.query(
      `CREATE INDEX "audit_events_app_resource_idx" ON "audit_events" ("app_token", "resource_type", "resource_id", "event_id")`,
    );
    await q.query(`CREATE INDEX "audit_events_app_action_idx" ON "audit_events" ("app_token", "action", "event_id")`);
    await q.query(`CREATE INDEX "audit_events_app_operator_idx" ON "audit_events" ("app_token", "operator", "event_id")`);

    await q.query(`
      CREATE FUNCTION "audit_events_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $fn$
      BEGIN
        RAISE EXCEPTION 'audit_events is append-only: % refused', TG_OP USING ERRCODE = 'insufficient_privilege';
      END
      $fn$`);
    await q.query(`
      CREATE TRIGGER "audit_events_append_only" BEFORE UPDATE OR DELETE ON "audit_events"
        FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_change"()`);

    // Monthly partitions named audit_events_yYYYYmMM, from this month to months_ahead later.
    await q.query(`
      CREATE FUNCTION "audit_events_ensure_partitions"(months_ahead int) RETURNS int LANGUAGE plpgsql AS $fn$
      DECLARE
        first date := date_trunc('month', now() AT TIME ZONE 'UTC')::date;
        m date;
        name text;
        created int := 0;
      BEGIN
        FOR i IN 0..months_ahead LOOP
          m := (first + make_interval(months => i))::date;
          name := 'audit_events_y' || to_char(m, 'YYYY') || 'm' || to_char(m, 'MM');
          IF to_regclass(quote_ident(name)) IS NULL THEN
            EXECUTE format('CREATE TABLE IF NOT EXISTS %I PARTITION OF "audit_events" FOR VALUES FROM (%L) TO (%L)',
              name, (m::timestamp AT TIME ZONE 'UTC'), ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC'));
            created := created + 1;
          END IF;
        END LOOP;
        RETURN created;
      END
      $fn$`);
    await q.query(`SELECT "audit_events_ensure_partitions"(2)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE "audit_events"`);
    await q.query(`DROP FUNCTION "audit_events_ensure_partitions"(int)`);
    await q.query(`DROP FUNCTION "audit_events_refuse_change"()`);
  }
}
