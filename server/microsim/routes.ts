/**
 * Interface B, the microsimulation API (DESIGN §5), registered on the server's router. In hosted
 * mode every route needs a bearer token, as the household routes do.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { bearerAuth } from '../auth/bearer';
import type { AuthConfig } from '../auth/config';
import type { MicrosimContext } from './context';
import { catalogueRoutes } from './routes/catalogue';
import { datasetRoutes } from './routes/datasets';
import { parameterSetRoutes } from './routes/parameter-sets';
import { simulationRoutes } from './routes/simulations';

/** First path segments of the microsimulation API (errors under them use its `{detail}` shape). */
const SEGMENTS = ['tax-benefit-models', 'tax-benefit-model-versions', 'parameters', 'parameter-values', 'variables', 'policies', 'dynamics', 'datasets', 'simulations', 'analysis', 'regions'];

export const MICROSIM_ENDPOINTS = [
  'GET /tax-benefit-models', 'GET /tax-benefit-model-versions', 'GET /parameters', 'GET /parameter-values', 'GET /variables',
  'POST /policies', 'POST /dynamics', 'POST /datasets', 'POST /datasets/upload', 'POST /simulations', 'POST /analysis/economic-impact', 'GET /regions',
];

export function isMicrosimPath(path: string): boolean {
  const first = path.split('/')[1] ?? '';
  return SEGMENTS.includes(first);
}

export function microsimRoutes(router: Router, ctx: MicrosimContext, auth: AuthConfig): void {
  const target = auth.enabled ? guarded(router, bearerAuth(auth)) : router;
  catalogueRoutes(target, ctx);
  parameterSetRoutes(target, ctx, 'policy');
  parameterSetRoutes(target, ctx, 'dynamic');
  datasetRoutes(target, ctx);
  simulationRoutes(target, ctx);
}

/** A router view whose get/post/delete put `guard` in front of every handler. */
function guarded(router: Router, guard: Koa.Middleware): Router {
  const wrap = (method: 'get' | 'post' | 'delete') => (path: string, ...handlers: Koa.Middleware[]) =>
    (router[method] as (p: string, ...h: Koa.Middleware[]) => Router)(path, guard, ...handlers);
  return Object.assign(Object.create(router) as Router, { get: wrap('get'), post: wrap('post'), delete: wrap('delete') });
}
