import type { components } from './schema.js';

type ErrorBody = components['schemas']['ErrorBodyDto'];
type ErrorDetail = components['schemas']['ErrorDetailDto'];

/**
 * A failure the service answered, from its error envelope `{error: {code, message, request_id, details}}` (or the
 * token endpoint's OAuth body `{error, error_description}`, whose `error` becomes `code`). Branch on `code`.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';

  constructor(
    /** HTTP status; 0 for an `error` event in a stream that had already begun. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly requestId?: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }

  /** From a parsed error body, whichever of the two shapes it has. */
  static fromBody(status: number, body: unknown): ApiError {
    const error = (body as { error?: unknown } | null)?.error;
    if (error && typeof error === 'object') {
      const e = error as ErrorBody;
      return new ApiError(status, e.code, e.message, e.request_id, e.details ?? []);
    }
    if (typeof error === 'string') {
      const description = (body as { error_description?: string }).error_description;
      return new ApiError(status, error, description ?? error);
    }
    return new ApiError(status, 'unexpected_response', `HTTP ${status} without an error body`);
  }

  /** From a non-2xx response (reads its body). */
  static async fromResponse(response: Response): Promise<ApiError> {
    const text = await response.text();
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return new ApiError(response.status, 'unexpected_response', text.slice(0, 200) || `HTTP ${response.status}`);
    }
    return ApiError.fromBody(response.status, body);
  }
}

/**
 * The data of an openapi-fetch result, or the service's error as an `ApiError`:
 * `const project = unwrap(await api.POST('/management/v1/projects', { body }))`.
 */
export function unwrap<D>(result: { data?: D; error?: unknown; response: Response }): D {
  if (result.response.ok) return result.data as D;
  throw ApiError.fromBody(result.response.status, result.error);
}
