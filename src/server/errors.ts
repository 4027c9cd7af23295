/**
 * Errors are values with a spec code (STYLE.md habit 1). Anything may throw an
 * ApiError; only src/server/respond.ts turns it into the spec's envelope.
 */
export const ERROR_CODES = {
  API_KEY_REQUIRED: 401,
  API_KEY_INVALID: 401,
  RATE_LIMIT_EXCEEDED: 429,
  QUERY_REQUIRED: 400,
  QUERY_TOO_SHORT: 400,
  QUERY_TOO_LONG: 400,
  INVALID_PARAM: 400,
  PARAM_REQUIRED: 400,
  SLUG_DUPLICATE: 400,
  PROVIDER_NOT_FOUND: 404,
  BUSINESS_NOT_FOUND: 404,
  CATEGORY_NOT_FOUND: 404,
  REPORT_NOT_FOUND: 404,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  FORBIDDEN_ORIGIN: 403,
  // Transport limits (docs/operations.md, "Limits and abuse"): answered before any route runs.
  BAD_REQUEST: 400,
  REQUEST_TIMEOUT: 408,
  BODY_TOO_LARGE: 413,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** Authentication and rate-limit errors omit `details` (spec, Errors). */
const WITHOUT_DETAILS: ReadonlySet<ErrorCode> = new Set(['API_KEY_REQUIRED', 'API_KEY_INVALID', 'RATE_LIMIT_EXCEEDED']);

export class ApiError extends Error {
  readonly status: number;
  readonly code: ErrorCode;
  readonly headers: Record<string, string>;
  constructor(
    code: ErrorCode,
    message: string,
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.code = code;
    this.headers = headers;
    this.name = 'ApiError';
    this.status = ERROR_CODES[code];
  }

  /** The spec's envelope: {error: {code, message, details: null}}. */
  toBody(): { error: { code: ErrorCode; message: string; details?: null } } {
    return WITHOUT_DETAILS.has(this.code)
      ? { error: { code: this.code, message: this.message } }
      : { error: { code: this.code, message: this.message, details: null } };
  }
}
