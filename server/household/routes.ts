/**
 * Interface A, the household API: `POST /{country}/calculate`. Registered on the server's one
 * router by `server/app.ts`; nothing here knows about the microsimulation API.
 */
import type Router from '@koa/router';
import type Koa from 'koa';
import { bearerAuth } from '../auth/bearer';
import type { AuthConfig } from '../auth/config';
import { readBody } from '../http/body';
import type { ModelRegistry } from '../models/registry';
import { DEFAULT_LIMITS, HouseholdCalculator, type CalculableModel, type HouseholdLimits } from './calculate';
import type { EnginePort } from './compute';

export interface HouseholdOptions<M extends CalculableModel> {
  registry: ModelRegistry<M>;
  engine: EnginePort<M>;
  auth: AuthConfig;
  limits?: Partial<HouseholdLimits>;
}

export function householdRoutes<M extends CalculableModel>(router: Router, options: HouseholdOptions<M>): void {
  const limits: HouseholdLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const calculator = new HouseholdCalculator(options.registry, options.engine, limits);
  const route: Koa.Middleware[] = [];
  if (options.auth.enabled) route.push(bearerAuth(options.auth));
  route.push(async (ctx) => {
    const country = ctx.params.country as string;
    if (!options.registry.available(country)) options.registry.resolve(country); // throws the 404 naming the countries we have
    const text = await readBody(ctx.req, limits.maxBodyBytes);
    ctx.body = calculator.calculate(country, text);
  });
  router.post('/:country/calculate', ...(route as Parameters<typeof router.post>[1][]));
}
