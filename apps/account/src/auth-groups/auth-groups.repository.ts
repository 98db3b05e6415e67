import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AuthEntity } from '../auths/auth.entity';
import { columnList } from '../database/column-list';
import { GenerateSql, MANAGER } from '../database/generate-sql';
import { HotReads } from '../database/hot-read';
import { AuthGroupAuthEntity } from './auth-group-auth.entity';
import { AuthGroupEntity } from './auth-group.entity';
import type { AppToken } from '../common/app-scope';

/** A group's auth, as `auth_group_auths` links them. */
export interface GroupMemberRow {
  groupId: string;
  authId: string;
}

/**
 * The SQL of the auth group aggregate: `auth_groups` and its members (`auth_group_auths`).
 * Reads return rows shaped as entities (or `null` / `[]`); writes run on the manager of the
 * caller's transaction.
 */
@Injectable()
export class AuthGroupsRepository {
  private readonly columns: string;
  private readonly selectOne: string;
  private readonly selectAuths: string;

  private readonly reads: HotReads;

  constructor(private readonly dataSource: DataSource) {
    this.reads = new HotReads(dataSource);
    this.columns = columnList(dataSource.getMetadata(AuthGroupEntity));
    this.selectOne = `SELECT ${this.columns} FROM "auth_groups" WHERE "app_token" = $1 AND "group_id" = $2`;
    this.selectAuths = `SELECT ${columnList(dataSource.getMetadata(AuthEntity), 'a')} FROM "auths" "a"
      JOIN "auth_group_auths" "m" ON "m"."app_token" = "a"."app_token" AND "m"."auth_id" = "a"."auth_id"
      WHERE "m"."app_token" = $1 AND "m"."group_id" = $2`;
  }

  @GenerateSql({ name: 'by id', params: ['app-7f3a9c2e41d08b56', 'G1'] })
  async findOne(appToken: AppToken, groupId: string): Promise<AuthGroupEntity | null> {
    const rows = (await this.dataSource.query(this.selectOne, [appToken, groupId])) as AuthGroupEntity[];
    return rows[0] ?? null;
  }

  /** The group, locked for update until the transaction of `em` ends; `null` when it does not exist. */
  @GenerateSql({ name: 'by id, locked', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'G1'] })
  async findForUpdate(em: EntityManager, appToken: AppToken, groupId: string): Promise<AuthGroupEntity | null> {
    const rows = (await em.query(`${this.selectOne} FOR UPDATE`, [appToken, groupId])) as AuthGroupEntity[];
    return rows[0] ?? null;
  }

  /** The groups of `groupIds` (all when empty), in creation order. */
  @GenerateSql({ name: 'all', params: ['app-7f3a9c2e41d08b56', []] }, { name: 'by ids', params: ['app-7f3a9c2e41d08b56', ['G1', 'G2']] })
  async list(appToken: AppToken, groupIds: string[]): Promise<AuthGroupEntity[]> {
    return (await (groupIds.length > 0
      ? this.dataSource.query(
          `SELECT ${this.columns} FROM "auth_groups" WHERE "app_token" = $1 AND "group_id" = ANY($2) ORDER BY "group_seq_id"`,
          [appToken, groupIds],
        )
      : this.dataSource.query(`SELECT ${this.columns} FROM "auth_groups" WHERE "app_token" = $1 ORDER BY "group_seq_id"`, [
          appToken,
        ]))) as AuthGroupEntity[];
  }

  /** The auths of a group, in no particular order. */
  @GenerateSql({ name: 'of a group', params: ['app-7f3a9c2e41d08b56', 'G1'] })
  async authsOf(appToken: AppToken, groupId: string): Promise<AuthEntity[]> {
    return (await this.dataSource.query(this.selectAuths, [appToken, groupId])) as AuthEntity[];
  }

  /** The member auths of the groups of `groupIds`. */
  @GenerateSql({ name: 'of groups', params: ['app-7f3a9c2e41d08b56', ['G1', 'G2']] })
  async membersOf(appToken: AppToken, groupIds: string[]): Promise<GroupMemberRow[]> {
    if (groupIds.length === 0) return [];
    return this.reads.rows<GroupMemberRow>(
      `SELECT "group_id" AS "groupId", "auth_id" AS "authId" FROM "auth_group_auths" WHERE "app_token" = $1 AND "group_id" = ANY($2)`,
      [appToken, groupIds],
    );
  }

  @GenerateSql({ name: 'required fields', params: [MANAGER, { appToken: 'app-7f3a9c2e41d08b56', groupId: 'G1', groupName: 'Clerks' }] })
  async insert(em: EntityManager, group: Partial<AuthGroupEntity>): Promise<void> {
    await em.insert(AuthGroupEntity, group);
  }

  /** Sets `changes` and the update time. */
  @GenerateSql({ name: 'one field', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'G1', { groupName: 'Clerks 2' }] })
  async update(em: EntityManager, appToken: AppToken, groupId: string, changes: Partial<AuthGroupEntity>): Promise<void> {
    await em.update(AuthGroupEntity, { appToken, groupId }, { ...changes, updateTime: () => 'now()' });
  }

  @GenerateSql({ name: 'of a group', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'G1'] })
  async deleteMembers(em: EntityManager, appToken: AppToken, groupId: string): Promise<void> {
    await em.delete(AuthGroupAuthEntity, { appToken, groupId });
  }

  /** Links the auths of `authIds` that are auths of the app; returns how many were. */
  @GenerateSql({ name: 'existing auths of a list', params: [MANAGER, 'app-7f3a9c2e41d08b56', 'G1', ['A1', 'A2']] })
  async insertMembers(em: EntityManager, appToken: AppToken, groupId: string, authIds: string[]): Promise<number> {
    if (authIds.length === 0) return 0;
    const inserted = (await em.query(
      `INSERT INTO auth_group_auths (app_token, group_id, auth_id)
       SELECT $1::varchar, $2::varchar, a.auth_id FROM auths a WHERE a.app_token = $1 AND a.auth_id = ANY($3::varchar[])
       RETURNING auth_id`,
      [appToken, groupId, authIds],
    )) as unknown[];
    return inserted.length;
  }
}
