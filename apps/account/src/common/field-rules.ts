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
 * list separator), no control character, no surrounding space.
 */
export const ID_PATTERN = /^(?![\s])[^,\p{Cc}]*(?<![\s])$/u;

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
