import { ValidationPipe, type ValidationError } from '@nestjs/common';
import { InvalidParameterException } from './api-exception';

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
 * The global pipe: strips unknown fields, transforms to DTO classes, and turns the first
 * class-validator error into 90100 (account) / 099 (location) naming the field.
 */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    transform: true,
    stopAtFirstError: true,
    validationError: { target: false, value: true },
    exceptionFactory: (errors) => {
      const { field, reason } = firstLeaf(errors);
      return new InvalidParameterException(field, reason);
    },
  });
}
