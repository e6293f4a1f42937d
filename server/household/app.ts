/**
 * The household API as a Koa app. Built from a model registry, an engine port and the auth
 * settings, so tests can run the real app over fixture countries.
 */
import Koa from 'koa';
import Router from '@koa/router';
import { bearerAuth } from '../auth/bearer';
import type { ClientStore } from '../auth/client-store';
import type { AuthConfig } from '../auth/config';
import { tokenEndpoint } from '../auth/token';
import { readBody } from '../http/body';
import { ApiError, OAuthError } from '../http/errors';
import type { ModelRegistry } from '../models/registry';
import { DEFAULT_LIMITS, HouseholdCalculator, type CalculableModel, type HouseholdLimits } from './calculate';
import type { EnginePort } from './compute';
import { openApiDocument } from './spec';

export interface AppOptions<M extends CalculableModel> {
  registry: ModelRegistry<M>;
  engine: EnginePort<M>;
  auth: AuthConfig;
  /** Required when auth is enabled with the local token endpoint. */
  clients?: ClientStore;
  limits?: Partial<HouseholdLimits>;
  serviceVersion: string;
  /** Where unexpected errors are reported (default: stderr). */
  log?: (message: string) => void;
}

export function createHouseholdApp<M extends CalculableModel>(options: AppOptions<M>): Koa {
  const limits: HouseholdLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const calculator = new HouseholdCalculator(options.registry, options.engine, limits);
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const auth = options.auth;
  if (auth.enabled && auth.mode === 'local' && !options.clients) throw new Error('createHouseholdApp: hosted mode with local tokens needs a client store');

  const app = new Koa();
  app.proxy = false;
  app.silent = true;
  app.use(errorHandler(log));

  const router = new Router();
  router.get('/', (ctx) => {
    ctx.body = {
      name: 'fiscus',
      description: 'Household tax-benefit calculations (PolicyEngine household API compatible)',
      version: options.serviceVersion,
      auth: auth.enabled ? { type: 'bearer', token_endpoint: auth.mode === 'local' ? '/oauth/token' : null, issuer: auth.issuer, audience: auth.audience } : { type: 'none' },
      countries: options.registry.countries().map((id) => ({ id, versions: options.registry.available(id) })),
      endpoints: ['POST /{country}/calculate', 'GET /specification', 'GET /liveness_check', 'GET /readiness_check', ...(auth.enabled && auth.mode === 'local' ? ['POST /oauth/token'] : [])],
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
    ctx.body = openApiDocument({
      version: options.serviceVersion,
      countries: options.registry.countries(),
      auth: auth.enabled,
      tokenEndpoint: auth.enabled && auth.mode === 'local',
    });
  });
  if (auth.enabled && auth.mode === 'local') {
    router.post('/oauth/token', tokenEndpoint(auth, options.clients!));
  } else if (auth.enabled) {
    router.post('/oauth/token', () => {
      throw new OAuthError(404, 'not_found', `this server does not issue tokens; get one from the issuer ${auth.issuer} (audience ${auth.audience})`);
    });
  }
  const calculateRoute: Koa.Middleware[] = [];
  if (auth.enabled) calculateRoute.push(bearerAuth(auth));
  calculateRoute.push(async (ctx) => {
    const country = ctx.params.country as string;
    if (!options.registry.available(country)) options.registry.resolve(country); // throws the 404 naming the countries we have
    const text = await readBody(ctx.req, limits.maxBodyBytes);
    ctx.body = calculator.calculate(country, text);
  });
  router.post('/:country/calculate', ...(calculateRoute as Parameters<typeof router.post>[1][]));

  app.use(router.routes());
  app.use(router.allowedMethods());
  return app;
}

function errorHandler(log: (message: string) => void): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      if (ctx.body == null && ctx.status === 404) throw new ApiError(404, `No route ${ctx.method} ${ctx.path}: see GET /specification`);
      if (ctx.body == null && (ctx.status === 405 || ctx.status === 501)) {
        ctx.body = { status: 'error', message: `${ctx.method} is not allowed on ${ctx.path}${ctx.response.get('Allow') ? ` (allowed: ${ctx.response.get('Allow')})` : ''}` };
      }
    } catch (error) {
      if (error instanceof ApiError) {
        if (error.status >= 500) log(`${ctx.method} ${ctx.path}: ${error.message}`);
        ctx.status = error.status;
        ctx.body = error.body();
      } else if (error instanceof OAuthError) {
        ctx.status = error.status;
        ctx.body = error.body();
        const challenge = (error as OAuthError & { wwwAuthenticate?: string }).wwwAuthenticate;
        if (challenge) ctx.set('WWW-Authenticate', challenge);
      } else if (isHttpError(error) && error.status < 500) {
        // Koa/router errors such as 405 Method Not Allowed.
        ctx.status = error.status;
        ctx.body = { status: 'error', message: error.message };
        if (error.headers) ctx.set(error.headers);
      } else {
        log(`${ctx.method} ${ctx.path}: unexpected error: ${(error as Error)?.stack ?? String(error)}`);
        ctx.status = 500;
        ctx.body = { status: 'error', message: `Internal error: ${(error as Error)?.message ?? String(error)}` };
      }
    }
  };
}

function isHttpError(error: unknown): error is { status: number; message: string; headers?: Record<string, string> } {
  return typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number';
}
