import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { InvalidParameterException } from './api-exception';

/** Fields every signed request may carry besides its DTO's: the signature's own (docs/contract.md §2). */
export const SIGNATURE_FIELD_NAMES: readonly string[] = ['app_token', 'signature', 'timestamp', 'nonce'];

export interface ValidationPipeOptions {
  /**
   * Fields a body or query may carry besides its DTO's and the signature's: the service's path
   * ids, which a request may repeat (the signature guard refuses a different value).
   */
  readonly envelopeFields?: readonly string[];
}

/** A query that takes no field of its own (reads by path id): any other field is unknown. */
export class NoFieldsQuery {}

const declaredCache = new WeakMap<object, ReadonlySet<string>>();

/** The properties a DTO class declares through class-validator decorators. */
function declaredFields(metatype: new () => unknown): ReadonlySet<string> {
  let fields = declaredCache.get(metatype);
  if (!fields) {
    const metadatas = getMetadataStorage().getTargetValidationMetadatas(metatype, '', true, false);
    fields = new Set(metadatas.map((m) => m.propertyName));
    declaredCache.set(metatype, fields);
  }
  return fields;
}

/**
 * docs/contract.md §13: an unknown field is refused, naming it ("unknown field X"), instead of being
 * stripped; then class-validator checks the declared ones.
 */
class RefusingValidationPipe extends ValidationPipe {
  private readonly envelopeFields: ReadonlySet<string>;

  constructor(options: ConstructorParameters<typeof ValidationPipe>[0], envelopeFields: readonly string[]) {
    super(options);
    this.envelopeFields = new Set([...SIGNATURE_FIELD_NAMES, ...envelopeFields]);
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    const { metatype, type } = metadata;
    if ((type === 'body' || type === 'query') && typeof metatype === 'function' && value !== null && typeof value === 'object') {
      const declared = declaredFields(metatype as new () => unknown);
      const own: Record<string, unknown> = {};
      for (const name of Object.keys(value)) {
        if (declared.has(name)) own[name] = (value as Record<string, unknown>)[name];
        else if (!this.envelopeFields.has(name)) throw new InvalidParameterException(name, 'unknown field');
      }
      if (declared.size === 0) return own;
      return super.transform(own, metadata);
    }
    return super.transform(value, metadata);
  }
}

/** What a failed constraint says about the field, in the words of the message. */
function reasonOf(error: ValidationError): string {
  if (error.value === undefined || error.value === '') return 'missing';
  if (typeof error.value !== 'string') return 'invalid';
  const failed = Object.keys(error.constraints ?? {});
  if (failed.some((c) => c === 'isDefined' || c === 'isNotEmpty')) return 'missing';
  if (failed.some((c) => c === 'maxLength' || c === 'isLength' || c === 'arrayMaxSize')) return 'too long';
  if (failed.some((c) => c === 'isIn' || c === 'isEnum')) return 'bad value of';
  return 'invalid';
}

function firstLeaf(errors: ValidationError[], prefix = ''): { field: string; reason: string } {
  const error = errors[0];
  if (!error) return { field: 'request', reason: 'invalid' };
  const field = prefix + error.property;
  if (!error.constraints && error.children && error.children.length > 0) return firstLeaf(error.children, `${field}.`);
  return { field, reason: reasonOf(error) };
}

/**
 * The global pipe: refuses unknown fields, transforms to DTO classes, and turns the first
 * class-validator error into 90100 naming the field.
 */
export function createValidationPipe(options: ValidationPipeOptions = {}): ValidationPipe {
  return new RefusingValidationPipe(
    {
      whitelist: true,
      transform: true,
      stopAtFirstError: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => {
        const { field, reason } = firstLeaf(errors);
        return new InvalidParameterException(field, reason);
      },
    },
    options.envelopeFields ?? [],
  );
}
