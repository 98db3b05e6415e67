import { type ArgumentMetadata, Param, type PipeTransform } from '@nestjs/common';
import { InvalidParameterException } from '@geoaccount/api';
import { FIELD_LIMITS as L, recordIdProblem } from './field-rules';

/**
 * A record id of the path (1 to `max` characters as PostgreSQL counts them, `recordIdProblem`:
 * `ID_PATTERN` and `isCanonicalText`), checked
 * by hand: every read of one record goes through it, and class-transformer with
 * class-validator cost tens of microseconds for one string.
 */
export class RecordIdPipe implements PipeTransform<unknown, string> {
  constructor(private readonly max: number) {}

  transform(value: unknown, { data }: ArgumentMetadata): string {
    const field = data ?? 'id';
    if (value === undefined || value === '') throw new InvalidParameterException(field, 'missing');
    if (typeof value !== 'string') throw new InvalidParameterException(field, 'invalid');
    const problem = recordIdProblem(value, this.max);
    if (problem) throw new InvalidParameterException(field, problem);
    return value;
  }
}

/** Longest path ids: `{AUTH_ID}` 16, `{GROUP_ID}` and `{USER_LOGIN_ID}` 64 characters. */
export const ID_LIMITS = { auth_id: L.auth_id, group_id: L.group_id, user_login_id: L.user_login_id } as const;

/** `@PathId('auth_id') auth_id: string`: the path segment `:auth_id`, checked as a record id. */
export const PathId = (name: keyof typeof ID_LIMITS): ParameterDecorator => Param(name, new RecordIdPipe(ID_LIMITS[name]));
