import { type PipeTransform, applyDecorators } from '@nestjs/common';
import { ApiQuery } from '@nestjs/swagger';
import { maxLength } from 'class-validator';
import { InvalidParameterException } from '@geoaccount/api';

/** Decimal degrees as text: an optional sign, digits, an optional fraction. */
export const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;
/** A base-station identifier as text: digits only. */
export const DIGITS_TEXT = /^\d+$/;

/** Parameters of every operation besides its own: the caller and the signature (checked by the guard). */
const SIGNATURE_PARAMS: ReadonlySet<string> = new Set(['userToken', 'signature']);

/** The pattern of a free-text parameter in the OpenAPI document: no ':' (CONTRACT §3). */
const NO_COLON = '^[^:]*$';

/** What one `param.` query parameter must be. */
export interface ParamRule {
  required: boolean;
  /** Longest accepted text (characters as class-validator's `maxLength` counts them). */
  max: number;
  /** Text it must match. */
  pattern?: RegExp;
  /** Absolute value it may not exceed, as a number (degrees). */
  limit?: number;
  /** For the OpenAPI document. */
  description: string;
  example?: string;
}

/** The rules of an operation's parameters, by query name (`param.longitude`), in the order they are checked. */
export type ParamRules = Readonly<Record<string, ParamRule>>;

type RequiredOf<R> = { [K in keyof R]: R[K] extends { required: true } ? K : never }[keyof R];

/** The checked parameters of `R`: the required ones as text, the optional ones as text or absent. */
export type Params<R extends ParamRules> = { [K in RequiredOf<R>]: string } & { [K in Exclude<keyof R, RequiredOf<R>>]?: string };

/**
 * Checks a query against its rules and returns only the named parameters. A parameter the
 * rules do not name is refused as `unknown parameter`; then the first
 * parameter that fails is refused as `missing` (absent or empty and required), `too long`,
 * `':' in` (a colon, CONTRACT §3), or `invalid` (a repeated parameter, a wrong form, out of
 * range), like the validation pipe
 * refuses a DTO. The three operations are the hot paths of the service: this check costs
 * about a microsecond where class-transformer and class-validator cost tens.
 */
export function checkParams<R extends ParamRules>(rules: R, query: Readonly<Record<string, unknown>>): Params<R> {
  // CONTRACT §13: a parameter the operation does not take is refused, naming it.
  for (const name in query) {
    if (!(name in rules) && !SIGNATURE_PARAMS.has(name)) throw new InvalidParameterException(name, 'unknown parameter');
  }
  const out: Record<string, string> = {};
  for (const name of Object.keys(rules)) {
    const rule = rules[name]!;
    const value = query[name];
    if (value === undefined || (value === '' && rule.required)) {
      if (rule.required) throw new InvalidParameterException(name, 'missing');
      continue;
    }
    if (typeof value !== 'string') throw new InvalidParameterException(name, 'invalid');
    // maxLength counts at most value.length characters: only a longer text needs counting.
    if (value.length > rule.max && !maxLength(value, rule.max)) throw new InvalidParameterException(name, 'too long');
    // The signed plaintext joins the values with ':' unescaped (CONTRACT §3): a value holding
    // one could pass text to its neighbour under the same signature.
    if (value.includes(':')) throw new InvalidParameterException(name, "':' in");
    if (rule.pattern && !rule.pattern.test(value)) throw new InvalidParameterException(name, 'invalid');
    if (rule.limit !== undefined && !(Math.abs(Number(value)) <= rule.limit)) throw new InvalidParameterException(name, 'invalid');
    out[name] = value;
  }
  return out as Params<R>;
}

/** `@Query(new ParamsPipe(rules))`: the query, checked by `checkParams`. */
export class ParamsPipe<R extends ParamRules> implements PipeTransform<Record<string, unknown>, Params<R>> {
  constructor(private readonly rules: R) {}

  transform(query: Record<string, unknown>): Params<R> {
    return checkParams(this.rules, query ?? {});
  }
}

/** The parameters of `rules` in the OpenAPI document of the route. */
export function ApiParams(rules: ParamRules): MethodDecorator {
  return applyDecorators(
    ...Object.entries(rules).map(([name, rule]) =>
      ApiQuery({
        name,
        required: rule.required,
        description: rule.description,
        // Without a pattern of its own, the value may hold anything but ':' (CONTRACT §3).
        schema: { type: 'string', maxLength: rule.max, pattern: rule.pattern ? rule.pattern.source : NO_COLON },
        ...(rule.example !== undefined ? { example: rule.example } : {}),
      }),
    ),
  );
}
