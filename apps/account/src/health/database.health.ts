import { Injectable } from '@nestjs/common';
import { HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';
import { MIGRATIONS_TABLE } from '../database/database.options';

const PROBE_TIMEOUT_MS = 2000;

/** Readiness of PostgreSQL: reachable within 2 s, and every migration of this build applied. */
@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
  ) {}

  async database() {
    const check = this.indicators.check('database');
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), PROBE_TIMEOUT_MS);
      return check.up();
    } catch (err) {
      return check.down({ message: err instanceof Error ? err.message : 'unreachable' });
    }
  }

  async migrations() {
    const check = this.indicators.check('migrations');
    const expected = this.dataSource.migrations.map((m) => m.name ?? m.constructor.name);
    try {
      const rows = (await withTimeout(this.dataSource.query(`SELECT name FROM "${MIGRATIONS_TABLE}"`), PROBE_TIMEOUT_MS)) as {
        name: string;
      }[];
      const applied = new Set(rows.map((r) => r.name));
      const pending = expected.filter((name) => !applied.has(name));
      return pending.length === 0 ? check.up({ applied: expected.length }) : check.down({ pending });
    } catch (err) {
      return check.down({ message: err instanceof Error ? err.message : 'cannot read the migrations table' });
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
