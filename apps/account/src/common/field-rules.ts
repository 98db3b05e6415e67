import { applyDecorators } from '@nestjs/common';
import { IsIn, IsNotEmpty, IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

/**
 * An optional form or query field: absent keeps / ignores it, an empty string is a value
 * (PUT sets the field empty), anything else must pass the given rules.
 */
export function OptionalField(...rules: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(
    ValidateIf((_: object, value: unknown) => value !== undefined && value !== ''),
    IsString(),
    ...rules,
  );
}

/** A required, non-empty field of at most `max` characters. */
export function RequiredText(max: number): PropertyDecorator {
  return applyDecorators(IsString(), IsNotEmpty(), MaxLength(max));
}

/** An optional text field of at most `max` characters. */
export function OptionalText(max: number): PropertyDecorator {
  return OptionalField(MaxLength(max));
}

/** An optional field with an enumerated value; empty is allowed (unset). */
export function OptionalEnum(values: readonly string[]): PropertyDecorator {
  return OptionalField(IsIn(values));
}

/** An optional natural number of at most `maxDigits` digits. */
export function OptionalDigits(maxDigits: number): PropertyDecorator {
  return OptionalField(MaxLength(maxDigits), Matches(/^\d+$/));
}

/**
 * Record ids (path ids and the items of id lists): 1 to `max` characters, no comma (the
 * list separator), no control character, no surrounding space.
 */
export const ID_PATTERN = /^(?![\s])[^,\p{Cc}]*(?<![\s])$/u;

export function RecordId(max: number): PropertyDecorator {
  return applyDecorators(IsString(), IsNotEmpty(), MaxLength(max), Matches(ID_PATTERN));
}
