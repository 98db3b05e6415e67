import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import type { OperatorRole } from './admin-principal';

/** A live session with its operator as it is now (role and apps read at every request). */
export interface SessionRow {
  login: string;
  csrfToken: string;
  role: OperatorRole;
  apps: string[];
  /** Seconds since the session was last seen. */
  idleSeconds: number;
}

/**
 * The SQL of admin sessions (`admin_sessions`), in PostgreSQL so that every account instance
 * sees them; a session is found by the SHA-256 of its token.
 */
@Injectable()
export class AdminSessionsRepository {
  constructor(private readonly dataSource: DataSource) {}

  @GenerateSql({
    name: 'a new session',
    params: [MANAGER, 'a'.repeat(64), 'admin', 'csrf-token'],
    seed: [`INSERT INTO "operators" ("login", "role", "directory") VALUES ('admin', 'admin', true)`],
  })
  async insert(em: EntityManager, tokenHash: string, login: string, csrfToken: string): Promise<void> {
    await em.query(`INSERT INTO "admin_sessions" ("token_hash", "login", "csrf_token") VALUES ($1, $2, $3)`, [tokenHash, login, csrfToken]);
  }

  /** The session of `tokenHash` if it was seen within `idleSeconds` and its operator is enabled. */
  @GenerateSql({ name: 'seen within 30 minutes', params: ['a'.repeat(64), 1800] })
  async findLive(tokenHash: string, idleSeconds: number): Promise<SessionRow | null> {
    const rows = (await this.dataSource.query(
      `SELECT s."login", s."csrf_token" AS "csrfToken", o."role", o."apps",
              extract(epoch FROM now() - s."last_seen_time")::float8 AS "idleSeconds"
         FROM "admin_sessions" s JOIN "operators" o ON o."login" = s."login"
        WHERE s."token_hash" = $1 AND o."state" = 'enabled' AND s."last_seen_time" > now() - make_interval(secs => $2::float8)`,
      [tokenHash, idleSeconds],
    )) as SessionRow[];
    return rows[0] ?? null;
  }

  @GenerateSql({ name: 'by token hash', params: ['a'.repeat(64)] })
  async touch(tokenHash: string): Promise<void> {
    await this.dataSource.query(`UPDATE "admin_sessions" SET "last_seen_time" = now() WHERE "token_hash" = $1`, [tokenHash]);
  }

  @GenerateSql({ name: 'by token hash', params: ['a'.repeat(64)] })
  async delete(tokenHash: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM "admin_sessions" WHERE "token_hash" = $1`, [tokenHash]);
  }

  /** Ends every session of an operator (disabled, or its password changed). */
  @GenerateSql({ name: 'every session of an operator', params: [MANAGER, 'admin'] })
  async deleteOf(em: EntityManager, login: string): Promise<void> {
    await em.query(`DELETE FROM "admin_sessions" WHERE "login" = $1`, [login]);
  }

  /** Removes sessions idle past `idleSeconds`; returns how many. */
  @GenerateSql({ name: 'idle past 30 minutes', params: [1800] })
  async purge(idleSeconds: number): Promise<number> {
    const [, n] = (await this.dataSource.query(
      `DELETE FROM "admin_sessions" WHERE "last_seen_time" < now() - make_interval(secs => $1::float8)`,
      [idleSeconds],
    )) as [unknown, number];
    return n;
  }
}
