import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { DataSource, type EntityManager, Repository } from 'typeorm';
import { AccountCodes, ApiException, InvalidParameterException } from '@geoaccount/api';
import { AuditTrail, createdFields, modifiedFields } from '../audit/audit-trail';
import { parseIdList } from '../common/id-list';
import { isUniqueViolation } from '../common/pg-errors';
import { TimestampFormatter } from '../common/timestamp';
import { AccountConfig } from '../config/account.config';
import { AuthEntity } from './auth.entity';
import { type AuthListItem, type AuthView, toAuthListItem, toAuthView } from './auth.view';
import type { AuthFieldsDto, CreateAuthDto } from './dto/create-auth.dto';
import type { ListAuthsQuery } from './dto/list-auths.query';
import type { ModifyAuthDto } from './dto/modify-auth.dto';

/** Entity properties of the optional form fields. */
const FIELD_COLUMNS = {
  auth_desc: 'authDesc',
  auth_state: 'authState',
  auth_type: 'authType',
  auth_level: 'authLevel',
  parent_auth_id: 'parentAuthId',
  sub_auth_flag: 'subAuthFlag',
} as const satisfies Record<keyof AuthFieldsDto, keyof AuthEntity>;

/** The rules of auths (spec endpoints 1–4), always within the caller's app. */
@Injectable()
export class AuthsService {
  /** Every column under its entity property name, for lists read without TypeORM's hydration. */
  private readonly columns: string;
  /** Most levels of one hierarchy (`AUTH_MAX_DEPTH`). */
  private readonly maxDepth: number;

  constructor(
    private readonly dataSource: DataSource,
    @InjectRepository(AuthEntity) private readonly auths: Repository<AuthEntity>,
    private readonly time: TimestampFormatter,
    config: AccountConfig,
    private readonly audit: AuditTrail,
  ) {
    this.maxDepth = config.AUTH_MAX_DEPTH;
    this.columns = dataSource
      .getMetadata(AuthEntity)
      .columns.map((c) => `"${c.databaseName}" AS "${c.propertyName}"`)
      .join(', ');
  }

  /**
   * 10010 when the id exists (checked first, race-safe through the primary key); 10021 when the
   * parent does not; 90100 (parent_auth_id) when the new auth would be deeper than
   * `AUTH_MAX_DEPTH`. `auth_seq_id` is the app's next number (a trigger, see the migration).
   */
  async create(appToken: string, authId: string, dto: CreateAuthDto): Promise<void> {
    try {
      await this.dataSource.transaction(async (em) => {
        const values: Partial<AuthEntity> = { appToken, authId, authName: dto.auth_name };
        for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
          const value = dto[field as keyof AuthFieldsDto];
          if (value !== undefined) (values as Record<string, string>)[column] = value;
        }
        await em.insert(AuthEntity, values);
        if (dto.parent_auth_id) {
          if (dto.parent_auth_id === authId) throw new InvalidParameterException('parent_auth_id', 'cyclic');
          // With the parent changes of the app (modify): a concurrent re-parenting cannot make
          // this chain deeper between the check and the commit.
          await this.lockHierarchy(em, appToken);
          const chain = await this.ancestry(em, appToken, dto.parent_auth_id);
          if (chain.length === 0) throw new ApiException(AccountCodes.AUTH_PARENT_MISSING);
          if (chain.length + 1 > this.maxDepth) throw new InvalidParameterException('parent_auth_id', 'too deep');
        }
        await this.audit.record(em, {
          appToken,
          action: 'create',
          resourceType: 'auth',
          resourceId: authId,
          resultCode: AccountCodes.OK_CREATED.code,
          changes: createdFields(dtoFields(dto)),
        });
      });
    } catch (err) {
      if (isUniqueViolation(err, 'auths_pkey')) throw new ApiException(AccountCodes.AUTH_EXISTS);
      throw err;
    }
  }

  /**
   * Partial update. 10130 when the auth does not exist; 10131 when the new parent does not;
   * 90100 (parent_auth_id) when the auth would become its own ancestor, or when it or one of
   * its descendants would be deeper than `AUTH_MAX_DEPTH`. Parent changes of one app (and
   * creates with a parent) are serialised so that concurrent changes cannot build a cycle or
   * a chain too deep together.
   */
  async modify(appToken: string, authId: string, dto: ModifyAuthDto): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const parent = dto.parent_auth_id;
      if (parent) await this.lockHierarchy(em, appToken);
      const current = await em
        .createQueryBuilder(AuthEntity, 'a')
        .setLock('pessimistic_write')
        .where('a.appToken = :appToken AND a.authId = :authId', { appToken, authId })
        .getOne();
      if (!current) throw new ApiException(AccountCodes.AUTH_NOT_FOUND_ON_MODIFY);
      if (parent) {
        const chain = await this.ancestry(em, appToken, parent);
        if (chain.length === 0) throw new ApiException(AccountCodes.AUTH_PARENT_MISSING_ON_MODIFY);
        if (chain.includes(authId)) throw new InvalidParameterException('parent_auth_id', 'cyclic');
        if (current.parentAuthId !== parent && chain.length + (await this.height(em, appToken, authId)) > this.maxDepth) {
          throw new InvalidParameterException('parent_auth_id', 'too deep');
        }
      }
      const changes: Record<string, unknown> = { updateTime: () => 'now()' };
      if (dto.auth_name !== undefined) changes.authName = dto.auth_name;
      for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
        const value = dto[field as keyof AuthFieldsDto];
        if (value !== undefined) changes[column] = value;
      }
      await em
        .createQueryBuilder()
        .update(AuthEntity)
        .set(changes)
        .where('app_token = :appToken AND auth_id = :authId', { appToken, authId })
        .execute();
      await this.audit.record(em, {
        appToken,
        action: 'modify',
        resourceType: 'auth',
        resourceId: authId,
        resultCode: AccountCodes.OK_CREATED.code,
        changes: modifiedFields({ ...toAuthView(current) }, dtoFields(dto)),
      });
    });
  }

  /**
   * The auths matching every filter given, in creation order; 10201 (200, count "0") when none.
   * `list` makes each item only when it is read, letting its row go (see `listItems`).
   */
  async list(appToken: string, query: ListAuthsQuery): Promise<{ count: string; list: Iterable<AuthListItem> }> {
    const ids = parseIdList(query.auth_ids, 'auth_ids');
    const params: unknown[] = [appToken];
    const where = ['"app_token" = $1'];
    const filter = (condition: (param: string) => string, value: unknown) => {
      params.push(value);
      where.push(condition(`$${params.length}`));
    };
    if (ids.length > 0) filter((p) => `"auth_id" = ANY(${p})`, ids);
    if (query.auth_state) filter((p) => `"auth_state" = ${p}`, query.auth_state);
    if (query.auth_type) filter((p) => `"auth_type" = ${p}`, query.auth_type);
    if (query.auth_level) filter((p) => `"auth_level" = ${p}`, query.auth_level);
    if (query.parent_auth_id) filter((p) => `"parent_auth_id" = ${p}`, query.parent_auth_id);
    else if (query.parent_auth_id === '') where.push(`("parent_auth_id" IS NULL OR "parent_auth_id" = '')`);
    // A list may hold thousands of rows: one SQL text, rows already shaped as entities (TypeORM's
    // query building and hydration cost more than the query itself).
    const rows = (await this.dataSource.query(
      `SELECT ${this.columns} FROM "auths" WHERE ${where.join(' AND ')} ORDER BY "auth_seq_id" ASC`,
      params,
    )) as AuthEntity[];
    if (rows.length === 0) throw new ApiException(AccountCodes.AUTH_LIST_EMPTY, undefined, { count: '0', list: [] });
    return { count: String(rows.length), list: listItems(rows, this.time) };
  }

  /** One auth; 10301 (404) when it does not exist. */
  async get(appToken: string, authId: string): Promise<AuthView> {
    const auth = await this.auths.findOneBy({ appToken, authId });
    if (!auth) throw new ApiException(AccountCodes.AUTH_NOT_FOUND);
    return toAuthView(auth);
  }

  /** Serialises the hierarchy changes of one app until the transaction ends. */
  private async lockHierarchy(em: EntityManager, appToken: string): Promise<void> {
    await em.query(`SELECT pg_advisory_xact_lock(hashtextextended('auths:' || $1, 0))`, [appToken]);
  }

  /**
   * Levels of the subtree of `authId` (1: no children), counted down to one level past the
   * limit at most: enough to tell whether a re-parenting goes too deep.
   */
  private async height(em: EntityManager, appToken: string, authId: string): Promise<number> {
    const rows = (await em.query(
      `WITH RECURSIVE sub (auth_id, level) AS (
         SELECT auth_id, 1 FROM auths WHERE app_token = $1 AND auth_id = $2
         UNION ALL
         SELECT a.auth_id, s.level + 1 FROM auths a JOIN sub s ON a.app_token = $1 AND a.parent_auth_id = s.auth_id
          WHERE s.level <= $3
       )
       SELECT max(level)::int AS height FROM sub`,
      [appToken, authId, this.maxDepth],
    )) as { height: number }[];
    return rows[0]?.height ?? 1;
  }

  /** `authId` and its ancestors (empty when `authId` does not exist). */
  private async ancestry(em: EntityManager, appToken: string, authId: string): Promise<string[]> {
    const rows = (await em.query(
      `WITH RECURSIVE chain (auth_id, parent_auth_id) AS (
         SELECT auth_id, parent_auth_id FROM auths WHERE app_token = $1 AND auth_id = $2
         UNION
         SELECT a.auth_id, a.parent_auth_id FROM auths a JOIN chain c ON a.app_token = $1 AND a.auth_id = c.parent_auth_id
       )
       SELECT auth_id FROM chain`,
      [appToken, authId],
    )) as { auth_id: string }[];
    return rows.map((r) => r.auth_id);
  }
}

/** The form fields of a create or modify (or of a stored auth), by API name. */
function dtoFields(dto: Partial<CreateAuthDto>): Record<string, unknown> {
  const fields: Record<string, unknown> = { auth_name: dto.auth_name };
  for (const field of Object.keys(FIELD_COLUMNS) as (keyof AuthFieldsDto)[]) fields[field] = dto[field];
  return fields;
}

/**
 * The answer items of `rows`, made one at a time as they are written, each row dropped from
 * the array once made: a list of 10,000 auths never holds its rows, its answer objects and
 * its JSON text all at once.
 */
function* listItems(rows: (AuthEntity | undefined)[], time: TimestampFormatter): Generator<AuthListItem> {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    rows[i] = undefined;
    yield toAuthListItem(row, time);
  }
}
