import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import type { OperatorRecord } from './operator.record';

/** The lockout of operator sign-ins is kept under the app `""` (docs/contract.md §14). */
export const OPERATOR_LOCKOUT_APP = '';

const COLUMNS = `o."login", o."role", o."apps", o."state", o."password_hash" AS "passwordHash", o."directory",
  o."create_time" AS "createTime", o."update_time" AS "updateTime",
  EXISTS (SELECT 1 FROM "login_failures" f WHERE f."app_token" = '' AND f."user_login_id" = o."login" AND f."locked_until" > now()) AS "locked"`;

/** The SQL of the operator aggregate (`operators`). */
@Injectable()
export class OperatorsRepository {
  constructor(private readonly dataSource: DataSource) {}

  @GenerateSql({ name: 'by login', params: ['admin'] }, { name: 'by login, locked', params: ['admin', MANAGER, true] })
  async find(login: string, em: EntityManager = this.dataSource.manager, lock = false): Promise<OperatorRecord | null> {
    const rows = (await em.query(`SELECT ${COLUMNS} FROM "operators" o WHERE o."login" = $1${lock ? ' FOR UPDATE OF o' : ''}`, [
      login,
    ])) as OperatorRecord[];
    return rows[0] ?? null;
  }

  @GenerateSql({ name: 'every operator', params: [] })
  async list(): Promise<OperatorRecord[]> {
    return (await this.dataSource.query(`SELECT ${COLUMNS} FROM "operators" o ORDER BY o."login"`)) as OperatorRecord[];
  }

  /** Inserts an operator; `false` when the login exists. */
  @GenerateSql({
    name: 'a new operator',
    params: [MANAGER, { login: 'ops', role: 'app_admin', apps: ['app-7f3a9c2e41d08b56'], passwordHash: '$argon2id$…', directory: false }],
  })
  async insert(
    em: EntityManager,
    op: Pick<OperatorRecord, 'login' | 'role' | 'apps' | 'passwordHash' | 'directory'>,
  ): Promise<boolean> {
    const rows = (await em.query(
      `INSERT INTO "operators" ("login", "role", "apps", "password_hash", "directory") VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT ("login") DO NOTHING RETURNING 1`,
      [op.login, op.role, op.apps, op.passwordHash, op.directory],
    )) as unknown[];
    return rows.length === 1;
  }

  @GenerateSql({
    name: 'every field',
    params: [MANAGER, 'ops', { role: 'auditor', apps: [], state: 'disabled', passwordHash: null, directory: true }],
  })
  async update(
    em: EntityManager,
    login: string,
    op: Pick<OperatorRecord, 'role' | 'apps' | 'state' | 'passwordHash' | 'directory'>,
  ): Promise<void> {
    await em.query(
      `UPDATE "operators" SET "role" = $2, "apps" = $3, "state" = $4, "password_hash" = $5, "directory" = $6, "update_time" = now()
        WHERE "login" = $1`,
      [login, op.role, op.apps, op.state, op.passwordHash, op.directory],
    );
  }
}
