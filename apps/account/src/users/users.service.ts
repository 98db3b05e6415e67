import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ApiException, InvalidParameterException } from '@geoaccount/api';
import { AccountCodes } from '../common/account-codes';
import { AuditTrail, createdFields, modifiedFields } from '../audit/audit-trail';
import { FIELD_LIMITS } from '../common/field-rules';
import { parseIdList } from '../common/id-list';
import { PiiCipher, PiiDecryptError, type PiiField } from '../pii/pii-cipher';
import { PiiKeyCheck } from '../pii/pii-key-check';
import { isForeignKeyViolation, isUniqueViolation } from '../common/pg-errors';
import type { ListUsersQuery } from './dto/list-users.query';
import { PAGE_SIZE_DEFAULT } from './dto/list-users.query';
import type { ModifyUserDto } from './dto/modify-user.dto';
import type { RegisterUserDto } from './dto/register-user.dto';
import { PasswordHasher } from './password-hasher';
import type { UserEntity } from './user.entity';
import { type ClaimSql, type UserFields, UsersRepository } from './users.repository';
import { type UserView, toUserView } from './user.view';
import type { AppToken } from '../common/app-scope';

/** Most login ids one list query may name. */
export const LIST_LOGIN_IDS_MAX = 1000;
/** Tries at a fresh random `user_id` when one collides (2^-64 per try). */
const USER_ID_TRIES = 5;

export interface UserPage {
  /** Matching users in all pages. */
  total: number;
  users: UserView[];
}

/** Reason of the 400 for a `user_pwd` sent for a domain user: "domain user takes no user_pwd". */
const DOMAIN_USER_PWD = 'domain user takes no';

/**
 * Users of an app (interfaces 200-203). Every query is scoped to the calling app: another
 * app's users do not exist here (docs/contract.md §5).
 */

@Injectable()
export class UsersService {
  constructor(
    private readonly users: UsersRepository,
    private readonly hasher: PasswordHasher,
    private readonly pii: PiiCipher,
    private readonly audit: AuditTrail,
    private readonly piiKeys: PiiKeyCheck,
  ) {}

  /**
   * Registers a user; returns the `user_id` assigned. 409 20020 when the login id exists; 400
   * 90100 when an auth or group of the lists is not one of the app's (the foreign keys of the
   * links decide, in the same statement as the user and its audit event).
   */
  async register(appToken: AppToken, userLoginId: string, dto: RegisterUserDto): Promise<string> {
    // A domain user's password is the directory's (docs/contract.md §9).
    if (dto.is_domain_user === '1' && dto.user_pwd !== undefined) throw new InvalidParameterException('user_pwd', DOMAIN_USER_PWD);
    const auths = referencedIds(dto.user_auths, 'user_auths', FIELD_LIMITS.auth_id);
    const groups = referencedIds(dto.user_auth_groups, 'user_auth_groups', FIELD_LIMITS.group_id);
    // A password costs a hash: an existing login id is refused before one is made. Without
    // one, the primary key alone decides (no extra round trip).
    if (dto.user_pwd && (await this.users.exists(appToken, userLoginId))) throw new ApiException(AccountCodes.USER_EXISTS);

    const fields: UserFields = {
      ...this.fieldsOf(userLoginId, appToken, dto),
      isDomainUser: dto.is_domain_user ?? '0',
      userPwdHash: dto.user_pwd ? await this.hasher.hash(dto.user_pwd) : null,
    };
    const event = this.audit.rowOf({
      appToken,
      action: 'create',
      resourceType: 'user',
      resourceId: userLoginId,
      resultCode: AccountCodes.OK_CREATED.code,
      changes: createdFields({ ...dto }),
    });
    for (let attempt = 1; ; attempt++) {
      const userId = randomBytes(8).toString('hex');
      try {
        // One statement, its own transaction: the user, its links and the event.
        await this.users.register({ ...fields, appToken, userLoginId, userId }, { authIds: auths, groupIds: groups }, event);
        return userId;
      } catch (err) {
        // The primary key decides concurrent registrations: exactly one wins.
        if (isUniqueViolation(err, 'users_pkey')) throw new ApiException(AccountCodes.USER_EXISTS);
        if (isUniqueViolation(err, 'users_app_token_user_id_key') && attempt < USER_ID_TRIES) continue;
        throw this.translateLinkError(err);
      }
    }
  }

  /**
   * Partial modification: omitted fields keep their value. 404 20130 when the login id is
   * unknown; 400 90100 when an auth or group of the lists is not one of the app's.
   */
  async modify(appToken: AppToken, userLoginId: string, dto: ModifyUserDto): Promise<void> {
    const current = await this.users.findOne(appToken, userLoginId);
    if (!current) throw new ApiException(AccountCodes.USER_NOT_FOUND_ON_MODIFY);
    if (dto.user_pwd !== undefined && current.isDomainUser === '1') throw new InvalidParameterException('user_pwd', DOMAIN_USER_PWD);
    if (dto.user_pwd === '') throw new InvalidParameterException('user_pwd', 'missing');
    const auths = dto.user_auths === undefined ? undefined : referencedIds(dto.user_auths, 'user_auths', FIELD_LIMITS.auth_id);
    const groups =
      dto.user_auth_groups === undefined ? undefined : referencedIds(dto.user_auth_groups, 'user_auth_groups', FIELD_LIMITS.group_id);

    const fields: UserFields = this.fieldsOf(userLoginId, appToken, dto);
    if (dto.user_pwd !== undefined) fields.userPwdHash = dto.user_pwd === '' ? null : await this.hasher.hash(dto.user_pwd);
    const event = this.audit.rowOf({
      appToken,
      action: 'modify',
      resourceType: 'user',
      resourceId: userLoginId,
      resultCode: AccountCodes.OK_CREATED.code,
      changes: modifiedFields(this.previousFields(current), { ...dto }),
    });
    let modified: boolean;
    try {
      // One statement, its own transaction: the row, the links given and the event.
      modified = await this.users.modify(appToken, userLoginId, fields, { authIds: auths, groupIds: groups }, event);
    } catch (err) {
      throw this.translateLinkError(err);
    }
    // Removed since it was read: nothing was written.
    if (!modified) throw new ApiException(AccountCodes.USER_NOT_FOUND_ON_MODIFY);
  }

  /** One user, or 404 20301. */
  async get(appToken: AppToken, userLoginId: string): Promise<UserView> {
    const user = await this.users.findOne(appToken, userLoginId);
    if (!user) throw new ApiException(AccountCodes.USER_NOT_FOUND);
    return this.view(user);
  }

  /**
   * The fields before a modification, for its audit event. A personal value that no longer
   * decrypts (altered in the database) shows as `null`: the modification may replace it.
   */
  private previousFields(user: UserEntity): Record<string, unknown> {
    const open = (field: PiiField, stored: string | null) => {
      try {
        return this.pii.decrypt(user.appToken, user.userLoginId, field, stored);
      } catch (err) {
        if (err instanceof PiiDecryptError) return null;
        throw err;
      }
    };
    return { ...toUserView({ ...user, certId: open('cert_id', user.certId), userMobile: open('user_mobile', user.userMobile) }) };
  }

  loginReader(claim: ClaimSql): ReturnType<UsersRepository['loginReader']> {
    return this.users.loginReader(claim);
  }

  /**
   * The answer view of a stored user: personal data decrypted. A value that does not decrypt
   * fails the request with 503 90503 (docs/contract.md §6), logged with its row and key id.
   */
  view(user: UserEntity): UserView {
    return toUserView({
      ...user,
      certId: this.piiKeys.open(user.appToken, user.userLoginId, 'cert_id', user.certId),
      userMobile: this.piiKeys.open(user.appToken, user.userLoginId, 'user_mobile', user.userMobile),
    });
  }

  /** Stores a new hash of the same password (rehash after a parameter change). */
  async replacePasswordHash(appToken: AppToken, userLoginId: string, previous: string, next: string): Promise<void> {
    // Only if the hash is still the one verified: a concurrent password change wins.
    await this.users.replacePasswordHash(appToken, userLoginId, previous, next);
  }

  /** A page of users in creation order, and the number of matches in all pages (`UsersRepository.page`). */
  async list(appToken: AppToken, query: ListUsersQuery): Promise<UserPage> {
    const pageNumber = Number(query.page_number ?? 1);
    const pageSize = Number(query.page_size ?? PAGE_SIZE_DEFAULT);
    const loginIds = parseIdList(query.user_login_ids, 'user_login_ids');
    if (loginIds.length > LIST_LOGIN_IDS_MAX) throw new InvalidParameterException('user_login_ids', 'too many in');

    const { total, rows } = await this.users.page(appToken, { orgId: query.org_id, loginIds }, (pageNumber - 1) * pageSize, pageSize);
    return { total, users: rows.map((row) => this.view(row)) };
  }

  /** The entity values of the form's fields, personal data encrypted for this (app, login id). */
  private fieldsOf(userLoginId: string, appToken: AppToken, dto: RegisterUserDto | ModifyUserDto): UserFields {
    const fields: UserFields = {
      orgId: dto.org_id,
      userName: dto.user_name,
      userShortName: dto.user_short_name,
      userType: dto.user_type,
      certType: dto.cert_type,
      certId: this.pii.encrypt(appToken, userLoginId, 'cert_id', dto.cert_id),
      certIdEncrypt: dto.cert_id_encrypt,
      userMobile: this.pii.encrypt(appToken, userLoginId, 'user_mobile', dto.user_mobile),
      userMobileEncrypt: dto.user_mobile_encrypt,
      userAuths: dto.user_auths,
      userAuthGroups: dto.user_auth_groups,
      userExtends: dto.user_extends,
    };
    for (const key of Object.keys(fields) as (keyof UserFields)[]) if (fields[key] === undefined) delete fields[key];
    return fields;
  }

  /** 400 90100 naming the list whose item is not an auth / group of the app (a link's foreign key). */
  private translateLinkError(err: unknown): unknown {
    if (isForeignKeyViolation(err, 'user_auth_links_auth_fkey')) return new InvalidParameterException('user_auths', 'unknown item in');
    if (isForeignKeyViolation(err, 'user_group_links_group_fkey'))
      return new InvalidParameterException('user_auth_groups', 'unknown item in');
    return err;
  }
}

/**
 * The ids of a grant list. One longer than an auth / group id can be is no auth / group of the
 * app: 400 90100 "unknown item in", as the links' foreign keys answer for an unknown one (the
 * link's column would refuse it with a type error instead).
 */
function referencedIds(value: string | undefined, field: 'user_auths' | 'user_auth_groups', max: number): string[] {
  const ids = parseIdList(value, field);
  if (ids.some((id) => id.length > max)) throw new InvalidParameterException(field, 'unknown item in');
  return ids;
}
