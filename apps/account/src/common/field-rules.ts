import { applyDecorators } from '@nestjs/common';
import { IsIn, IsNotEmpty, IsString, Matches, ValidateBy, ValidateIf, type ValidationOptions } from 'class-validator';

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

/** A required, non-empty field of at most `max` characters. */
export function RequiredText(max: number): PropertyDecorator {
  return applyDecorators(IsString(), IsNotEmpty(), NoNulChar(), MaxChars(max));
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
