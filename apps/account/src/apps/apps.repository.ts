import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import { ALL_APPS, type AllApps, type AppToken } from '../common/app-scope';
import type { AppRecord } from './app.record';

const COLUMNS = `a."app_token" AS "appToken", a."app_name" AS "appName", a."aes_mode" AS "aesMode", a."state", a."create_time" AS "createTime"`;

/**
 * The SQL of the app aggregate (`apps`); its credentials are `CredentialsRepository`'s. A method
 * reads or writes the apps it is given (`AppToken`s) or, for the admin API's cross-app reads,
 * `ALL_APPS` said out loud (docs/contract.md §5, §14).
 */
@Injectable()
export class AppsRepository {
  constructor(private readonly dataSource: DataSource) {}

  @GenerateSql({ name: 'by token', params: ['app-7f3a9c2e41d08b56'] }, { name: 'by token, locked', params: ['app-7f3a9c2e41d08b56', MANAGER, true] })
  async find(appToken: AppToken, em: EntityManager = this.dataSource.manager, lock = false): Promise<AppRecord | null> {
    const rows = (await em.query(`SELECT ${COLUMNS} FROM "apps" a WHERE a."app_token" = $1${lock ? ' FOR UPDATE' : ''}`, [
      appToken,
    ])) as AppRecord[];
    return rows[0] ?? null;
  }

  /** Every app (`ALL_APPS`), or those of `scope`, by creation. */
  @GenerateSql({ name: 'every app', params: [ALL_APPS] }, { name: 'some apps', params: [['app-7f3a9c2e41d08b56', 'app-0b0b0b0b0b0b0b0b']] })
  async list(scope: AllApps | readonly AppToken[]): Promise<AppRecord[]> {
    const all = scope === ALL_APPS;
    return (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM "apps" a ${all ? '' : 'WHERE a."app_token" = ANY($1)'} ORDER BY a."create_time", a."app_token"`,
      all ? [] : [scope],
    )) as AppRecord[];
  }

  /** The tokens among `appTokens` that name an app. */
  @GenerateSql({ name: 'two tokens', params: [['app-7f3a9c2e41d08b56', 'app-0b0b0b0b0b0b0b0b']] }, { name: 'none (no statement)', params: [[]] })
  async existing(appTokens: readonly AppToken[]): Promise<AppToken[]> {
    if (appTokens.length === 0) return [];
    const rows = (await this.dataSource.query(`SELECT "app_token" FROM "apps" WHERE "app_token" = ANY($1)`, [appTokens])) as {
      app_token: AppToken;
    }[];
    return rows.map((r) => r.app_token);
  }

  @GenerateSql({ name: 'a new app', params: [MANAGER, { appToken: 'app-0c0c0c0c0c0c0c0c', appName: 'New app', aesMode: 'gcm' }] })
  async insert(em: EntityManager, app: Pick<AppRecord, 'appToken' | 'appName' | 'aesMode'>): Promise<void> {
    await em.query(`INSERT INTO "apps" ("app_token", "app_name", "aes_mode") VALUES ($1, $2, $3)`, [app.appToken, app.appName, app.aesMode]);
  }

  @GenerateSql({ name: 'name and state', params: [MANAGER, 'app-7f3a9c2e41d08b56', { appName: 'Renamed', state: 'disabled' }] })
  async update(em: EntityManager, appToken: AppToken, app: Pick<AppRecord, 'appName' | 'state'>): Promise<void> {
    await em.query(`UPDATE "apps" SET "app_name" = $2, "state" = $3, "update_time" = now() WHERE "app_token" = $1`, [
      appToken,
      app.appName,
      app.state,
    ]);
  }
}
