import type { Type } from '@nestjs/common';
import { getSchemaPath } from '@nestjs/swagger';
import type { V1TraceDto } from './v1-trace.dto.js';
import type { V2TraceDto } from './v2-trace.dto.js';

/** A trace on the wire: its shape is selected by `runtime`. */
export type TraceDto = V1TraceDto | V2TraceDto;

/** The OpenAPI schema of a trace: one of the v1 or v2 models, discriminated on `runtime`. */
export function traceSchema(v1: Type<unknown>, v2: Type<unknown>) {
  return {
    oneOf: [{ $ref: getSchemaPath(v1) }, { $ref: getSchemaPath(v2) }],
    discriminator: { propertyName: 'runtime', mapping: { v1: getSchemaPath(v1), v2: getSchemaPath(v2) } },
  };
}
