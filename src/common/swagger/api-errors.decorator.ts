import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { ErrorEnvelopeDto } from '../errors/error-envelope.js';

const DESCRIPTIONS: Record<number, string> = {
  400: 'Bad request (`bad_request`): malformed or missing required context',
  401: 'Missing or invalid credentials (`unauthorized`)',
  403: 'The credential may not do this (`forbidden`)',
  404: 'Nothing the caller may see has this id (`not_found`)',
  405: 'The path exists with other methods (`method_not_allowed`, see Allow)',
  409: 'The resource is in a state that forbids this (see the code)',
  413: 'The body exceeds 1 MiB (`payload_too_large`)',
  415: 'The body is not application/json (`unsupported_media_type`)',
  422: 'Invalid input (`validation_error`); `details[].field` names each field',
  429: 'Rate limit of this credential reached (`rate_limited`, see Retry-After)',
  500: 'Unexpected error (`internal_error`)',
  502: 'A dependency could not be reached (`upstream_unavailable`)',
  503: 'Temporarily unavailable (see Retry-After)',
  504: 'A dependency did not answer in time (`upstream_timeout`)',
};

/** Documents error responses with the spec's envelope. */
export const ApiErrors = (...statuses: number[]) =>
  applyDecorators(
    ...statuses.map((status) => ApiResponse({ status, description: DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto })),
  );
