import { applyDecorators } from '@nestjs/common';
import { IsIn, IsNotEmpty, IsOptional, IsString, Matches, ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

/**
 * The spec's input lengths, in characters as PostgreSQL counts them: the one place the path-id
 * pipes, the DTOs, the OpenAPI document and the entities read them from.
 */
export const FIELD_LIMITS = {
  auth_id: 16,
  group_id: 64,
  user_login_id: 64,
  auth_name: 32,
  auth_desc: 64,
  auth_type: 8,
  auth_level_digits: 2,
  group_name: 32,
  group_desc: 64,
  group_type: 32,
  group_auths: 1024,
  org_id: 16,
  user_pwd: 64,
  user_pwd_encrypt: 256,
  user_name: 64,
  user_short_name: 32,
  cert_id: 32,
  cert_id_encrypt: 16,
  user_mobile: 16,
  user_mobile_encrypt: 16,
  user_auths: 512,
  user_auth_groups: 512,
  user_extends: 512,
  audit_resource_id: 64,
  audit_operator: 256,
} as const;

/*
 * The composed rules of every field kind (`applyDecorators`); the DTOs use only these. A rule
 * list is checked in the order given and stops at its first failure (the global pipe's
 * `stopAtFirstError`), which names the reason of the 400 (`too long`, `invalid`, ...).
 *
 * Two kinds of optional field:
 * - `Optional*`: absent keeps the value (or is no filter), and an empty text is a value
 *   (stored empty), accepted as is;
 * - `*IfSent`: absent keeps the value; sent, even empty, the text must pass the rules.
 */

/** A sent (possibly empty) field must pass `rules`, then be a string; absent skips it. */
export function IfSent(...rules: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...rules, IsString(), IsOptional());
}

/** Text of at most `max` characters when sent, without NUL, passing `rules` first. */
export function TextIfSent(max: number, ...rules: PropertyDecorator[]): PropertyDecorator {
  return IfSent(...rules, MaxChars(max), NoNulChar());
}

/** One of `values` when sent. */
export function EnumIfSent(values: readonly string[]): PropertyDecorator {
  return IfSent(IsIn(values));
}

/** Digits of a value in `[min, max]`, at most `maxChars` of them, when sent. */
export function DigitsIfSent(min: number, max: number, maxChars: number): PropertyDecorator {
  return IfSent(MaxChars(maxChars), IsDigitsInRange(min, max));
}

/** Text matching `pattern` when sent (`message`: what the 400 says it should be). */
export function PatternIfSent(pattern: RegExp, message: string): PropertyDecorator {
  return IfSent(Matches(pattern, { message }));
}

/** Optional, but never emptied when sent (a name): at most `max` characters, no NUL. */
export function NonEmptyIfSent(max: number): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_: object, value: unknown) => value !== undefined),
    MaxChars(max),
    NoNulChar(),
    IsNotEmpty(),
    IsString(),
  );
}

/** A required value of `values`. */
export function RequiredEnum(values: readonly string[]): PropertyDecorator {
  return applyDecorators(IsIn(values), IsString());
}

/** A required, non-empty opaque text (encrypted, encoded) of at most `max` characters: no character rule. */
export function RequiredOpaque(max: number): PropertyDecorator {
  return applyDecorators(MaxChars(max), IsNotEmpty(), IsString());
}

/**
 * A password when registering: required (non-empty) unless the user is a domain account
 * (`is_domain_user` `1`), when it may be left out; at most `max` characters, no NUL.
 */
export function PasswordUnlessDomainUser(max: number): PropertyDecorator {
  return applyDecorators(
    ValidateIf((dto: { is_domain_user?: unknown; user_pwd?: unknown }) => dto.is_domain_user !== '1' || dto.user_pwd !== undefined),
    MaxChars(max),
    NoNulChar(),
    IsPasswordUnlessDomainUser(),
    IsString(),
  );
}

/**
 * An optional form or query field: absent keeps / ignores it, an empty string is a value
 * (PUT sets the field empty), anything else must pass the given rules.
 */
export function OptionalField(...rules: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_: object, value: unknown) => value !== undefined && value !== ''),
    IsString(),
    NoNulChar(),
    ...rules,
  );
}

/**
 * A required, non-empty field of at most `max` characters, without NUL; checked in the order of
 * `NonEmptyIfSent`, so that a name reports the same reason when created and when modified.
 */
export function RequiredText(max: number): PropertyDecorator {
  return applyDecorators(MaxChars(max), NoNulChar(), IsNotEmpty(), IsString());
}

/** An optional text field of at most `max` characters. */
export function OptionalText(max: number): PropertyDecorator {
  return OptionalField(MaxChars(max));
}

/** An optional field with an enumerated value; empty is allowed (unset). */
export function OptionalEnum(values: readonly string[]): PropertyDecorator {
  return OptionalField(IsIn(values));
}

/** An optional natural number of at most `maxDigits` digits. */
export function OptionalDigits(maxDigits: number): PropertyDecorator {
  return OptionalField(MaxChars(maxDigits), Matches(/^\d+$/));
}

/** An optional record id of at most `max` characters (`IsRecordId`); empty: none. */
export function OptionalRecordId(max: number): PropertyDecorator {
  return OptionalField(MaxChars(max), IsRecordId());
}

/**
 * Record ids (path ids and the items of id lists): 1 to `max` characters, no comma (the
 * list separator), no control character, no surrounding space. See also `isCanonicalText`.
 */
export const ID_PATTERN = /^(?![\s])[^,\p{Cc}]*(?<![\s])$/u;

/** Only printable ASCII: NFKC, and no format or default-ignorable character, by construction. */
const PRINTABLE_ASCII = /^[\x20-\x7e]*$/;

/**
 * Characters that show nothing, or change how their neighbours show, without being text of
 * their own: format characters (`\p{Cf}`: zero-width space and joiners, bidirectional
 * controls, soft hyphen, byte order mark, tags) and the other default-ignorable code points
 * (variation selectors, Hangul fillers, combining grapheme joiner); and lone surrogates
 * (`\p{Cs}`), which are not text and would reach PostgreSQL as U+FFFD.
 */
const INVISIBLE_CHAR = /[\p{Cf}\p{Cs}\p{Default_Ignorable_Code_Point}]/u;

/**
 * Whether `text` can identify a record: without invisible characters (`INVISIBLE_CHAR`), and in Unicode NFKC, so that two ids that look the
 * same are the same string (`admin` and `admin\u200b`, NFC and NFD `josé`, `ａｄｍｉｎ` and
 * `admin` cannot both exist). The one rule of ids, path ids and id-like fields (`org_id`).
 */
export function isCanonicalText(text: string): boolean {
  if (PRINTABLE_ASCII.test(text)) return true;
  return !INVISIBLE_CHAR.test(text) && text.normalize('NFKC') === text;
}

/** Whether `text` is a record id of at most `max` characters, or why not (`too long`, `invalid`). */
export function recordIdProblem(text: string, max: number): 'too long' | 'invalid' | undefined {
  if (!fitsChars(text, max)) return 'too long';
  if (!ID_PATTERN.test(text) || !isCanonicalText(text)) return 'invalid';
  return undefined;
}

/** A record id (`ID_PATTERN`, `isCanonicalText`); the length is checked by `MaxChars`. */
export function IsRecordId(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isRecordId',
      validator: { validate: (value: unknown) => typeof value === 'string' && ID_PATTERN.test(value) && isCanonicalText(value) },
    },
    options,
  );
}

/** Id-like text (`isCanonicalText`) that is not a record id, e.g. `org_id`. */
export function IsCanonicalText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'isCanonicalText', validator: { validate: (value: unknown) => typeof value === 'string' && isCanonicalText(value) } },
    options,
  );
}

/**
 * A comma-separated list of record ids (`''` is the empty list): spaces around an item are
 * ignored, an empty item or one that is not a record id is refused. The whole text is
 * checked by `isCanonicalText`, so an invisible character next to an item (a byte order mark,
 * which `trim` takes for a space) is refused too.
 */
export function IsIdList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isIdList',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          (value === '' ||
            (isCanonicalText(value) &&
              value.split(',').every((item) => {
                const id = item.trim();
                return id.length > 0 && ID_PATTERN.test(id);
              }))),
      },
    },
    options,
  );
}

/** Whether `text` has at most `max` characters as PostgreSQL counts them (code points). */
export function fitsChars(text: string, max: number): boolean {
  if (text.length <= max) return true;
  let count = 0;
  for (const _ of text) if (++count > max) return false;
  return true;
}

/**
 * At most `max` characters, counted as PostgreSQL counts them (code points), so that what
 * passes here always fits its `varchar(max)` column. Reported as a `maxLength` failure.
 */
export function MaxChars(max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxLength',
      constraints: [max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && fitsChars(value, max),
      },
    },
    options,
  );
}

/** No NUL character (PostgreSQL text cannot hold one). */
export function NoNulChar(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    { name: 'noNulChar', validator: { validate: (value: unknown) => typeof value === 'string' && !value.includes('\u0000') } },
    options,
  );
}

/** Non-empty, unless the object being validated is a domain account (`is_domain_user` `1`). */
export function IsPasswordUnlessDomainUser(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isPasswordUnlessDomainUser',
      validator: {
        validate: (value: unknown, args) =>
          (args?.object as { is_domain_user?: unknown } | undefined)?.is_domain_user === '1' ||
          (typeof value === 'string' && value.length > 0),
      },
    },
    options,
  );
}

/** Decimal digits only, whose value lies in `[min, max]`. */
export function IsDigitsInRange(min: number, max: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDigitsInRange',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => typeof value === 'string' && /^\d+$/.test(value) && Number(value) >= min && Number(value) <= max,
      },
    },
    options,
  );
}
