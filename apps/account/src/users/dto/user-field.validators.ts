import { ValidateBy, type ValidationOptions } from 'class-validator';

export { MaxChars, NoNulChar } from '../../common/field-rules';

/** Spec lengths of the user fields (input). */
export const USER_LIMITS = {
  user_login_id: 64,
  org_id: 16,
  user_pwd: 64,
  user_name: 64,
  user_short_name: 32,
  cert_id: 32,
  cert_id_encrypt: 16,
  user_mobile: 16,
  user_mobile_encrypt: 16,
  user_auths: 512,
  user_auth_groups: 512,
  user_extends: 512,
} as const;

export const USER_TYPES = ['C', 'B'] as const;
export const DOMAIN_FLAGS = ['0', '1'] as const;
/** `cert_type` values; empty sets the field empty. */
export const CERT_TYPES = ['00', '10', '11', ''] as const;

/** A comma-separated list of identifiers, none empty or blank (`''` is the empty list). */
export function IsCommaList(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isCommaList',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && (value === '' || value.split(',').every((item) => item.trim().length > 0)),
      },
    },
    options,
  );
}

/** The text of a JSON object (`''` sets the field empty). */
export function IsJsonObjectText(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isJsonObjectText',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          if (value === '') return true;
          try {
            const parsed: unknown = JSON.parse(value);
            return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed);
          } catch {
            return false;
          }
        },
      },
    },
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
