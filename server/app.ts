/**
 * The server's one Koa app: both interfaces on one port. Interface A (household calculations,
 * `household/`) and interface B (the microsimulation API, `microsim/`) register their routes on
 * one router; what they share (service routes, auth, the error handler, the OpenAPI document)
 * lives here and in `http/`.
 */
import Koa from 'koa';
import Router from '@koa/router';
import type { ClientStore } from './auth/client-store';
import type { AuthConfig } from './auth/config';
import { tokenEndpoint } from './auth/token';
import { OAuthError } from './http/errors';
import { errorHandler } from './http/respond';
import type { CalculableModel } from './household/calculate';
import { householdRoutes, type HouseholdOptions } from './household/routes';
import type { MicrosimContext } from './microsim/context';
import { isMicrosimPath, microsimRoutes, MICROSIM_ENDPOINTS } from './microsim/routes';
import { openApiDocument } from './openapi';

export interface AppOptions<M extends CalculableModel> extends HouseholdOptions<M> {
  /** Required when auth is enabled with the local token endpoint. */
  clients?: ClientStore;
  serviceVersion: string;
  /** The microsimulation API; without it the server is the household API alone. */
  microsim?: MicrosimContext;
  /** Where unexpected errors are reported (default: stderr). */
  log?: (message: string) => void;
}

export function createApp<M extends CalculableModel>(options: AppOptions<M>): Koa {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const auth: AuthConfig = options.auth;
  if (auth.enabled && auth.mode === 'local' && !options.clients) throw new Error('createApp: hosted mode with local tokens needs a client store');

  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.use(errorHandler((path) => (options.microsim && isMicrosimPath(path) ? 'detail' : 'household'), log));

  const router = new Router();
  serviceRoutes(router, options);
  householdRoutes(router, options);
  if (options.microsim) microsimRoutes(router, options.microsim, auth);
  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

function serviceRoutes<M extends CalculableModel>(router: Router, options: AppOptions<M>): void {
  const auth = options.auth;
  const tokens = auth.enabled && auth.mode === 'local';
  router.get('/', (ctx) => {
    ctx.body = {
      name: 'fiscus',
      description: 'Tax-benefit calculations: households (PolicyEngine household API compatible) and microsimulation',
      version: options.serviceVersion,
      auth: auth.enabled ? { type: 'bearer', token_endpoint: tokens ? '/oauth/token' : null, issuer: auth.issuer, audience: auth.audience } : { type: 'none' },
      countries: options.registry.countries().map((id) => ({ id, versions: options.registry.available(id) })),
      endpoints: ['POST /{country}/calculate', ...(options.microsim ? MICROSIM_ENDPOINTS : []), 'GET /specification', 'GET /liveness_check', 'GET /readiness_check', ...(tokens ? ['POST /oauth/token'] : [])],
    };
  });
  router.get('/liveness_check', (ctx) => {
    ctx.type = 'text/plain';
    ctx.body = 'OK';
  });
  router.get('/readiness_check', (ctx) => {
    // Ready when at least one country can be served: a server with no models answers nothing useful.
    const countries = options.registry.countries();
    ctx.type = 'text/plain';
    if (countries.length === 0) {
      ctx.status = 503;
      ctx.body = 'NOT READY: no country models found';
    } else {
      ctx.body = 'OK';
    }
  });
  router.get('/specification', (ctx) => {
    ctx.body = openApiDocument({ version: options.serviceVersion, countries: options.registry.countries(), auth: auth.enabled, tokenEndpoint: tokens, microsim: options.microsim !== undefined });
  });
  if (tokens) {
    router.post('/oauth/token', tokenEndpoint(auth, options.clients!));
  } else if (auth.enabled) {
    router.post('/oauth/token', () => {
      throw new OAuthError(404, 'not_found', `this server does not issue tokens; get one from the issuer ${auth.issuer} (audience ${auth.audience})`);
    });
  }
}
