import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { ApiException, type ResultCode } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { AuditTrail, createdFields, modifiedFields } from '../audit/audit-trail';
import { parseIdList } from '../common/id-list';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { AuthGroupEntity } from './auth-group.entity';
import { AuthGroupsRepository } from './auth-groups.repository';
import { type GroupListItem, type GroupView, toAuthSummary, toGroupListItem } from './auth-group.view';
import type { CreateGroupDto, GroupFieldsDto } from './dto/create-group.dto';
import type { ListGroupsQuery } from './dto/list-groups.query';
import type { ModifyGroupDto } from './dto/modify-group.dto';
import type { AppToken } from '../common/app-scope';

const FIELD_COLUMNS = {
  group_desc: 'groupDesc',
  group_type: 'groupType',
  group_state: 'groupState',
  group_auths: 'groupAuths',
} as const satisfies Record<keyof GroupFieldsDto, keyof AuthGroupEntity>;

/** The rules of auth groups (interfaces 104–107), always within the caller's app. */
@Injectable()
export class AuthGroupsService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly groups: AuthGroupsRepository,
    private readonly audit: AuditTrail,
  ) {}

  /** 10420 when the id exists (race-safe through the primary key); 10422 when an auth of group_auths does not. */
  async create(appToken: AppToken, groupId: string, dto: CreateGroupDto): Promise<void> {
    const authIds = parseIdList(dto.group_auths, 'group_auths');
    try {
      await this.dataSource.transaction(async (em) => {
        const values: Partial<AuthGroupEntity> = { appToken, groupId, groupName: dto.group_name };
        for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
          const value = dto[field as keyof GroupFieldsDto];
          if (value !== undefined) (values as Record<string, string>)[column] = value;
        }
        await this.groups.insert(em, values);
        await this.setMembers(em, appToken, groupId, authIds, AccountCodes.GROUP_AUTH_MISSING);
        await this.audit.record(em, {
          appToken,
          action: 'create',
          resourceType: 'auth_group',
          resourceId: groupId,
          resultCode: AccountCodes.OK_CREATED.code,
          changes: createdFields(dtoFields(dto)),
        });
      });
    } catch (err) {
      if (isUniqueViolation(err, 'auth_groups_pkey')) throw new ApiException(AccountCodes.GROUP_EXISTS);
      if (isForeignKeyViolation(err, 'auth_group_auths_auth_fkey')) throw new ApiException(AccountCodes.GROUP_AUTH_MISSING);
      throw err;
    }
  }

  /** Partial update; 10530 when the group does not exist, 10532 when an auth of group_auths does not. */
  async modify(appToken: AppToken, groupId: string, dto: ModifyGroupDto): Promise<void> {
    const authIds = dto.group_auths === undefined ? undefined : parseIdList(dto.group_auths, 'group_auths');
    try {
      await this.dataSource.transaction(async (em) => {
        const current = await this.groups.findForUpdate(em, appToken, groupId);
        if (!current) throw new ApiException(AccountCodes.GROUP_NOT_FOUND_ON_MODIFY);
        const changes: Record<string, unknown> = {};
        if (dto.group_name !== undefined) changes.groupName = dto.group_name;
        for (const [field, column] of Object.entries(FIELD_COLUMNS)) {
          const value = dto[field as keyof GroupFieldsDto];
          if (value !== undefined) changes[column] = value;
        }
        await this.groups.update(em, appToken, groupId, changes);
        if (authIds !== undefined) {
          await this.groups.deleteMembers(em, appToken, groupId);
          await this.setMembers(em, appToken, groupId, authIds, AccountCodes.GROUP_AUTH_MISSING_ON_MODIFY);
        }
        await this.audit.record(em, {
          appToken,
          action: 'modify',
          resourceType: 'auth_group',
          resourceId: groupId,
          resultCode: AccountCodes.OK_CREATED.code,
          changes: modifiedFields({ ...toGroupListItem(current) }, dtoFields(dto)),
        });
      });
    } catch (err) {
      if (isForeignKeyViolation(err, 'auth_group_auths_auth_fkey')) throw new ApiException(AccountCodes.GROUP_AUTH_MISSING_ON_MODIFY);
      throw err;
    }
  }

  /** The groups named (all when none), in creation order (none: count "0", an empty list). */
  async list(appToken: AppToken, query: ListGroupsQuery): Promise<{ count: string; group_list: GroupListItem[] }> {
    const rows = await this.groups.list(appToken, parseIdList(query.group_ids, 'group_ids'));
    return { count: String(rows.length), group_list: rows.map(toGroupListItem) };
  }

  /** One group with the detail of its auths, in the order of group_auths; 10701 (404) when it does not exist. */
  async get(appToken: AppToken, groupId: string): Promise<GroupView> {
    const group = await this.groups.findOne(appToken, groupId);
    if (!group) throw new ApiException(AccountCodes.GROUP_NOT_FOUND);
    const auths = await this.groups.authsOf(appToken, groupId);
    const order = parseIdList(group.groupAuths ?? '', 'group_auths', true);
    auths.sort((x, y) => order.indexOf(x.authId) - order.indexOf(y.authId));
    return { ...toGroupListItem(group), group_auth_detail: auths.map(toAuthSummary) };
  }

  /** Records the group's auths, refusing with `missing` when one is not an auth of the app. */
  private async setMembers(em: EntityManager, appToken: AppToken, groupId: string, authIds: string[], missing: ResultCode): Promise<void> {
    const linked = await this.groups.insertMembers(em, appToken, groupId, authIds);
    if (linked !== authIds.length) throw new ApiException(missing);
  }
}

/** The form fields of a create or modify, by API name. */
function dtoFields(dto: Partial<CreateGroupDto>): Record<string, unknown> {
  const fields: Record<string, unknown> = { group_name: dto.group_name };
  for (const field of Object.keys(FIELD_COLUMNS) as (keyof GroupFieldsDto)[]) fields[field] = dto[field];
  return fields;
}
