/**
 * One error handler for the whole server. Household routes answer `{status: "error", message,
 * errors?}` (PolicyEngine's household API shape); microsimulation routes answer `{detail,
 * errors?}` (DESIGN §5). Which one is decided by the path, so a 404 under `/policies/...` has the
 * microsimulation shape too.
 */
import type Koa from 'koa';
import { ApiError, detailBody, OAuthError } from './errors';

export type ErrorStyle = 'household' | 'detail';

export function errorHandler(styleOf: (path: string) => ErrorStyle, log: (message: string) => void): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) throw new ApiError(404, `No route ${ctx.method} ${ctx.path}: see GET /specification`);
      if (ctx.body == null && (ctx.status === 405 || ctx.status === 501)) {
        const allowed = ctx.response.get('Allow');
        throw new ApiError(ctx.status, `${ctx.method} is not allowed on ${ctx.path}${allowed ? ` (allowed: ${allowed})` : ''}`);
      }
    } catch (error) {
      const style = styleOf(ctx.path);
      if (error instanceof ApiError) {
        if (error.status >= 500) log(`${ctx.method} ${ctx.path}: ${error.message}`);
        ctx.status = error.status;
        ctx.body = style === 'detail' ? detailBody(error) : error.body();
      } else if (error instanceof OAuthError) {
        ctx.status = error.status;
        ctx.body = error.body();
        const challenge = (error as OAuthError & { wwwAuthenticate?: string }).wwwAuthenticate;
        if (challenge) ctx.set('WWW-Authenticate', challenge);
      } else if (isHttpError(error) && error.status < 500) {
        // Koa/router errors such as 405 Method Not Allowed.
        ctx.status = error.status;
        ctx.body = style === 'detail' ? { detail: error.message } : { status: 'error', message: error.message };
        if (error.headers) ctx.set(error.headers);
      } else {
        log(`${ctx.method} ${ctx.path}: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
        ctx.status = 500;
        const message = `Internal error: ${(error as Error)?.message ?? String(error)}`;
        ctx.body = style === 'detail' ? { detail: message } : { status: 'error', message };
      }
    }
  };
}

function isHttpError(error: unknown): error is { status: number; message: string; headers?: Record<string, string> } {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}
