import { ValidationPipe } from '@nestjs/common';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError, type ErrorDetail } from '../errors/app-error.js';

/** Flattens class-validator's tree into `details[]` with wire paths: `agent_variables.static`, `tags[2]`. */
export function toErrorDetails(errors: ClassValidatorError[], parent = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const field = /^\d+$/.test(error.property) ? `${parent}[${error.property}]` : parent ? `${parent}.${error.property}` : error.property;
    for (const message of Object.values(error.constraints ?? {})) {
      details.push({ field, message: message.replace(/^property (\S+) should not exist$/, '$1 is not allowed') });
    }
    if (error.children?.length) details.push(...toErrorDetails(error.children, field));
  }
  return details;
}

/** The one validation pipe: whitelisting, rejecting unknown fields, and 422 `validation_error` with field paths. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    stopAtFirstError: true,
    exceptionFactory: (errors) => new ValidationError(toErrorDetails(errors)),
  });
}
