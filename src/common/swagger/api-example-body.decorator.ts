import { applyDecorators, type Type } from '@nestjs/common';
import { ApiBody, ApiExtraModels, getSchemaPath } from '@nestjs/swagger';

/** A named request example: sent as written (after filling path ids and credentials) it succeeds. */
export interface RequestExample {
  summary: string;
  value: Record<string, unknown>;
}

/**
 * Documents a request body by its DTO with named examples. test/e2e/openapi-examples.e2e-spec.ts sends every
 * example of every operation and expects the documented success status, so an example that stops working fails CI.
 */
export const ApiExampleBody = (type: Type<unknown>, examples: Record<string, RequestExample>, description?: string) =>
  applyDecorators(ApiExtraModels(type), ApiBody({ schema: { $ref: getSchemaPath(type) }, examples, description }));
