import { ValidationTypes, getMetadataStorage } from 'class-validator';

/** A JSON Schema (2020-12, as OpenAPI 3.1 uses it), loosely typed. */
export type JsonSchema = Record<string, unknown>;

/** What the validation rules of one field of a DTO class say, in JSON Schema terms. */
export interface FieldSchema {
  name: string;
  required: boolean;
  schema: JsonSchema;
}

/** Notes for rules that JSON Schema cannot express, by class-validator rule name. */
const RULE_NOTES: Record<string, (constraints: unknown[]) => string> = {
  noNulChar: () => 'no NUL character',
  isCommaList: () => 'comma-separated ids',
  isJsonObjectText: () => 'a JSON object as text',
  isPasswordUnlessDomainUser: () => 'required unless is_domain_user is "1"',
  isDigitsInRange: (c) => `a whole number from ${String(c[0])} to ${String(c[1])}`,
  existingTime: () => 'a date and time that exist (no 30 February, no year 0000)',
};

/**
 * The fields of a class-validator DTO class as JSON Schemas, read from class-validator's own
 * metadata storage: the rules that validate a request are the ones the document shows.
 * A field is required unless it carries `IsOptional` or `ValidateIf` (a conditional rule).
 * Understood rules: `isString`, `isNotEmpty` (minLength 1), `maxLength`, `isIn` (enum),
 * `matches` (pattern); other named rules are listed in the field's description.
 */
export function dtoFields(dto: abstract new (...args: never[]) => unknown): FieldSchema[] {
  const metadata = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const byField = new Map<string, FieldSchema & { notes: string[]; emptySkips: boolean }>();
  for (const meta of metadata) {
    let field = byField.get(meta.propertyName);
    if (!field) {
      field = { name: meta.propertyName, required: true, schema: { type: 'string' }, notes: [], emptySkips: false };
      byField.set(meta.propertyName, field);
    }
    if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      field.required = false;
      // A condition that skips the rules for an empty text (`OptionalField`): "" is accepted as is.
      const condition = meta.constraints?.[0] as ((object: object, value: unknown) => boolean) | undefined;
      if (typeof condition === 'function' && !condition({ [meta.propertyName]: '' }, '')) field.emptySkips = true;
      continue;
    }
    if (meta.type !== ValidationTypes.CUSTOM_VALIDATION) continue;
    const constraints = (meta.constraints ?? []) as unknown[];
    // A rule of each item of an array field (`{ each: true }`) describes its items.
    const target = meta.each && field.schema.type === 'array' ? (field.schema.items as JsonSchema) : field.schema;
    switch (meta.name) {
      case 'isInt':
        field.schema.type = 'integer';
        continue;
      case 'isBoolean':
        field.schema.type = 'boolean';
        continue;
      case 'isArray':
        field.schema.type = 'array';
        field.schema.items = { type: 'string', ...((field.schema.items as JsonSchema | undefined) ?? {}) };
        continue;
      case 'arrayMaxSize':
        field.schema.maxItems = Number(constraints[0]);
        continue;
      case 'min':
        field.schema.minimum = Number(constraints[0]);
        continue;
      case 'max':
        field.schema.maximum = Number(constraints[0]);
        continue;
      case 'minLength':
        target.minLength = Number(constraints[0]);
        continue;
    }
    switch (meta.name) {
      case 'isString':
        break;
      case 'isNotEmpty':
        field.schema.minLength = 1;
        break;
      case 'maxLength':
        target.maxLength = Math.min(Number(constraints[0]), (target.maxLength as number | undefined) ?? Infinity);
        break;
      case 'isIn':
        field.schema.enum = [...(constraints[0] as readonly string[])];
        break;
      case 'matches': {
        const pattern = constraints[0];
        target.pattern = pattern instanceof RegExp ? pattern.source : String(pattern);
        break;
      }
      default: {
        const note = meta.name ? RULE_NOTES[meta.name] : undefined;
        field.notes.push(note ? note(constraints) : (meta.name ?? 'custom rule'));
      }
    }
  }
  return [...byField.values()].map(({ notes, emptySkips, ...field }) => {
    if (emptySkips) {
      // "" passes whatever the other rules say: in the enum, or as an alternative of the pattern.
      if (Array.isArray(field.schema.enum) && !field.schema.enum.includes('')) field.schema.enum = [...(field.schema.enum as string[]), ''];
      if (typeof field.schema.pattern === 'string') field.schema.pattern = `^$|${field.schema.pattern}`;
      delete field.schema.minLength;
      notes.unshift('empty: unset');
    }
    if (notes.length > 0) field.schema.description = `${notes.join('; ')}.`;
    return field;
  });
}

/** A DTO class as an object schema: its fields, the required ones, no other property. */
export function dtoObjectSchema(dto: abstract new (...args: never[]) => unknown): JsonSchema {
  const fields = dtoFields(dto);
  const required = fields.filter((f) => f.required).map((f) => f.name);
  return {
    type: 'object',
    properties: Object.fromEntries(fields.map((f) => [f.name, f.schema])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
