/** Small helpers the microsimulation routes share: checked queries and bodies, ids, 404s. */
import type Koa from 'koa';
import { parseJson, readBody } from '../http/body';
import { ApiError, unprocessable } from '../http/errors';
import { makeQueryValidator, makeValidator, type Validator } from '../http/validate';
import { isUuid } from '../storage/ids';

export interface Checked<T> {
  check: Validator;
  /** Only for the type: `Checked<T>` says what a valid value is. */
  readonly _type?: T;
}

export function queryChecker<T>(schema: object): Checked<T> {
  return { check: makeQueryValidator(schema) };
}

export function bodyChecker<T>(schema: object): Checked<T> {
  return { check: makeValidator(schema) };
}

/** The query string, checked and converted (numbers, booleans, defaults); 422 listing every problem. */
export function checkedQuery<T>(ctx: Koa.Context, checker: Checked<T>): T {
  const query: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(ctx.query)) {
    if (Array.isArray(value)) throw unprocessable('Invalid query', [{ path: `query/${key}`, message: 'is given more than once' }]);
    query[key] = value;
  }
  const problems = checker.check(query);
  if (problems.length > 0) throw unprocessable('Invalid query', problems);
  return query as T;
}

/** The JSON body, size-limited (413), parsed (400 when malformed) and checked (422 with paths). */
export async function checkedBody<T>(ctx: Koa.Context, checker: Checked<T>, limit: number): Promise<T> {
  const type = ctx.get('content-type');
  if (type && !/json/i.test(type)) throw new ApiError(415, `Content-Type must be application/json, got "${type}"`);
  const body = parseJson(await readBody(ctx.req, limit));
  const problems = checker.check(body);
  if (problems.length > 0) throw unprocessable('Invalid request body', problems);
  return body as T;
}

/** The `:id` path parameter; an id that is not a UUID cannot name anything, so it is a 404 too. */
export function idParam(ctx: Koa.Context, what: string): string {
  const id = ctx.params.id as string;
  if (!isUuid(id)) throw notFound(what, id);
  return id.toLowerCase();
}

export function notFound(what: string, id: string): ApiError {
  return new ApiError(404, `No ${what} with id ${id}`);
}

export function created(ctx: Koa.Context, body: unknown, location: string): void {
  ctx.status = 201;
  ctx.set('Location', location);
  ctx.body = body;
}
