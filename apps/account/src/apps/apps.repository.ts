import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import type { AppRecord } from './app.record';

const COLUMNS = `a."app_token" AS "appToken", a."app_name" AS "appName", a."aes_mode" AS "aesMode", a."state", a."create_time" AS "createTime"`;

/** The SQL of the app aggregate (`apps`); its credentials are `CredentialsRepository`'s. */
@Injectable()
export class AppsRepository {
  constructor(private readonly dataSource: DataSource) {}

  async find(appToken: string, em: EntityManager = this.dataSource.manager, lock = false): Promise<AppRecord | null> {
    const rows = (await em.query(`SELECT ${COLUMNS} FROM "apps" a WHERE a."app_token" = $1${lock ? ' FOR UPDATE' : ''}`, [
      appToken,
    ])) as AppRecord[];
    return rows[0] ?? null;
  }

  /** Every app, or those of `appTokens`, by creation. */
  async list(appTokens?: readonly string[]): Promise<AppRecord[]> {
    const where = appTokens === undefined ? '' : 'WHERE a."app_token" = ANY($1)';
    return (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM "apps" a ${where} ORDER BY a."create_time", a."app_token"`,
      appTokens === undefined ? [] : [appTokens],
    )) as AppRecord[];
  }

  /** The tokens among `appTokens` that name an app. */
  async existing(appTokens: readonly string[]): Promise<string[]> {
    if (appTokens.length === 0) return [];
    const rows = (await this.dataSource.query(`SELECT "app_token" FROM "apps" WHERE "app_token" = ANY($1)`, [appTokens])) as {
      app_token: string;
    }[];
    return rows.map((r) => r.app_token);
  }

  async insert(em: EntityManager, app: Pick<AppRecord, 'appToken' | 'appName' | 'aesMode'>): Promise<void> {
    await em.query(`INSERT INTO "apps" ("app_token", "app_name", "aes_mode") VALUES ($1, $2, $3)`, [app.appToken, app.appName, app.aesMode]);
  }

  async update(em: EntityManager, appToken: string, app: Pick<AppRecord, 'appName' | 'state'>): Promise<void> {
    await em.query(`UPDATE "apps" SET "app_name" = $2, "state" = $3, "update_time" = now() WHERE "app_token" = $1`, [
      appToken,
      app.appName,
      app.state,
    ]);
  }
}
