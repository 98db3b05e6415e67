import { Param } from '@nestjs/common';
import { TextParamPipe } from '@geoaccount/http';
import { FIELD_LIMITS as L, recordIdProblem } from './field-rules';

/**
 * A record id of the path (1 to `max` characters as PostgreSQL counts them, `recordIdProblem`:
 * `ID_PATTERN` and `isCanonicalText`), checked by libs/http's fast-path `TextParamPipe`: every
 * read of one record goes through it, and class-transformer with class-validator cost tens of
 * microseconds for one string.
 */
export class RecordIdPipe extends TextParamPipe {
  constructor(max: number) {
    super((value) => recordIdProblem(value, max));
  }
}

/** Longest path ids: `{AUTH_ID}` 16, `{GROUP_ID}` and `{USER_LOGIN_ID}` 64 characters. */
export const ID_LIMITS = { auth_id: L.auth_id, group_id: L.group_id, user_login_id: L.user_login_id } as const;

/** `@PathId('auth_id') auth_id: string`: the path segment `:auth_id`, checked as a record id. */
export const PathId = (name: keyof typeof ID_LIMITS): ParameterDecorator => Param(name, new RecordIdPipe(ID_LIMITS[name]));
