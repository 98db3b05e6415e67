import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { AccountCodes, ApiException, InvalidParameterException } from '@geoaccount/api';
import { AuditTrail, createdFields, modifiedFields } from '../audit/audit-trail';
import { parseIdList } from '../common/id-list';
import { isUniqueViolation } from '../common/pg-errors';
import { TimestampFormatter } from '../common/timestamp';
import { AccountConfig } from '../config/account.config';
import type { AuthEntity } from './auth.entity';
import { AuthsRepository } from './auths.repository';
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
  /** Most levels of one hierarchy (`AUTH_MAX_DEPTH`). */
  private readonly maxDepth: number;

  constructor(
    private readonly dataSource: DataSource,
    private readonly auths: AuthsRepository,
    private readonly time: TimestampFormatter,
    config: AccountConfig,
    private readonly audit: AuditTrail,
  ) {
    this.maxDepth = config.AUTH_MAX_DEPTH;
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
        await this.auths.insert(em, values);
        if (dto.parent_auth_id) {
          // docs/contract.md §13: the parent does not exist yet when the auth names itself.
          if (dto.parent_auth_id === authId) throw new ApiException(AccountCodes.AUTH_PARENT_MISSING);
          // With the parent changes of the app (modify): a concurrent re-parenting cannot make
          // this chain deeper between the check and the commit.
          await this.auths.lockHierarchy(em, appToken);
          const chain = await this.chainOf(em, appToken, dto.parent_auth_id);
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
      if (parent) await this.auths.lockHierarchy(em, appToken);
      const current = await this.auths.findForUpdate(em, appToken, authId);
      if (!current) throw new ApiException(AccountCodes.AUTH_NOT_FOUND_ON_MODIFY);
      if (parent) {
        const chain = await this.chainOf(em, appToken, parent);
        if (chain.length === 0) throw new ApiException(AccountCodes.AUTH_PARENT_MISSING_ON_MODIFY);
        if (chain.includes(authId)) throw new InvalidParameterException('parent_auth_id', 'cyclic');
        if (
          current.parentAuthId !== parent &&
          chain.length + (await this.auths.height(em, appToken, authId, this.maxDepth)) > this.maxDepth
        ) {
          throw new InvalidParameterException('parent_auth_id', 'too deep');
        }
      }
      const changes: Record<string, unknown> = {};
      if (dto.auth_name !== undefined) changes.authName = dto.auth_name;
      for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
        const value = dto[field as keyof AuthFieldsDto];
        if (value !== undefined) changes[column] = value;
      }
      await this.auths.update(em, appToken, authId, changes);
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
    const rows: (AuthEntity | undefined)[] = await this.auths.list(appToken, {
      authIds: parseIdList(query.auth_ids, 'auth_ids'),
      authState: query.auth_state,
      authType: query.auth_type,
      authLevel: query.auth_level,
      parentAuthId: query.parent_auth_id,
    });
    if (rows.length === 0) throw new ApiException(AccountCodes.AUTH_LIST_EMPTY, undefined, { count: '0', list: [] });
    return { count: String(rows.length), list: listItems(rows, this.time) };
  }

  /** One auth; 10301 (404) when it does not exist. */
  async get(appToken: string, authId: string): Promise<AuthView> {
    const auth = await this.auths.findOne(appToken, authId);
    if (!auth) throw new ApiException(AccountCodes.AUTH_NOT_FOUND);
    return toAuthView(auth);
  }

  /**
   * The ids of `authId` and its ancestors (empty when `authId` does not exist), read up to one
   * past the deepest chain allowed: enough to tell a cycle and a chain too deep.
   */
  private async chainOf(em: EntityManager, appToken: string, authId: string): Promise<string[]> {
    return (await this.auths.ancestry(appToken, authId, this.maxDepth, em)).map((row) => row.authId);
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
