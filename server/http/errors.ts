/**
 * Errors the HTTP layer turns into JSON answers. Every problem a client caused names the place
 * in its request (`people/you/age/2025`), so clients can fix payloads without reading our code.
 */

export interface ProblemDetail {
  /** Slash-separated place in the request body: `people/you/age/2025`, `policy/gov.x.y`. */
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
    public readonly errors?: ProblemDetail[],
    /** Extra top-level fields of the answer (e.g. `code`, `available_versions`). */
    public readonly extra?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  body(): Record<string, unknown> {
    const body: Record<string, unknown> = { status: 'error', message: this.message };
    if (this.errors && this.errors.length > 0) body.errors = this.errors;
    return { ...body, ...(this.extra ?? {}) };
  }
}

/** A 400 listing every problem found (we collect them all rather than stopping at the first). */
export function invalidRequest(summary: string, errors: ProblemDetail[]): ApiError {
  const shown = errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join('; ');
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return new ApiError(400, `${summary}: ${shown}${more}`, errors);
}

/** Thrown by OAuth endpoints and bearer checks: answered as `{error, error_description}` (RFC 6749/6750). */
export class OAuthError extends Error {
  constructor(public readonly status: number, public readonly code: string, description: string) {
    super(description);
    this.name = 'OAuthError';
  }

  body(): Record<string, unknown> {
    return { error: this.code, error_description: this.message };
  }
}

/**
 * The microsimulation API's error body (DESIGN §5, FastAPI's shape): `{detail: message}`, with
 * `errors: [{path, message}]` when a body or query had problems (every one listed, each with the
 * place it is at), and any extra fields of the error (e.g. `used_by`).
 */
export function detailBody(error: ApiError): Record<string, unknown> {
  const body: Record<string, unknown> = { detail: error.message };
  if (error.errors && error.errors.length > 0) body.errors = error.errors;
  return { ...body, ...(error.extra ?? {}) };
}

/** A 422 listing every problem of a microsimulation request body or query. */
export function unprocessable(summary: string, errors: ProblemDetail[]): ApiError {
  const shown = errors.slice(0, 3).map((e) => `${e.path}: ${e.message}`).join('; ');
  const more = errors.length > 3 ? ` (and ${errors.length - 3} more)` : '';
  return new ApiError(422, `${summary}: ${shown}${more}`, errors);
}
