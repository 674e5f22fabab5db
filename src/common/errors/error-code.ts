/** Wire error codes. Clients branch on these; the set may grow. */
export enum ErrorCode {
  BadRequest = 'bad_request',
  Unauthorized = 'unauthorized',
  Forbidden = 'forbidden',
  NotFound = 'not_found',
  MethodNotAllowed = 'method_not_allowed',
  Conflict = 'conflict',
  PayloadTooLarge = 'payload_too_large',
  UnsupportedMediaType = 'unsupported_media_type',
  HeadersTooLarge = 'headers_too_large',
  RequestTimeout = 'request_timeout',
  ValidationError = 'validation_error',
  RateLimited = 'rate_limited',
  InternalError = 'internal_error',
  UpstreamUnavailable = 'upstream_unavailable',
  NotReady = 'not_ready',
}
