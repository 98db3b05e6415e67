import { applyDecorators } from '@nestjs/common';
import { IsDefined, IsNotEmpty, IsOptional, IsString, Matches, MaxLength, ValidateBy, type ValidationOptions } from 'class-validator';

/** Decimal degrees as text: an optional sign, digits, an optional fraction. */
export const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** A base-station identifier as text: digits only. */
export const DIGITS_TEXT = /^\d+$/;

/** Required text of at most `max` characters. */
export function RequiredText(max: number): PropertyDecorator {
  return applyDecorators(IsDefined(), IsString(), IsNotEmpty(), MaxLength(max));
}

/** Optional text of at most `max` characters (the business parameters). */
export function OptionalText(max: number): PropertyDecorator {
  return applyDecorators(IsOptional(), IsString(), MaxLength(max));
}

/** Decimal-degree text within [-limit, limit] (longitude 180, latitude 90). */
export function IsDegrees(limit: number, options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    Matches(DECIMAL_TEXT),
    ValidateBy(
      {
        name: 'isDegreesInRange',
        validator: {
          validate: (value: unknown) => typeof value === 'string' && Math.abs(Number(value)) <= limit,
          defaultMessage: () => `$property must be between -${limit} and ${limit}`,
        },
      },
      options,
    ),
  );
}

export function IsDigits(): PropertyDecorator {
  return Matches(DIGITS_TEXT);
}
