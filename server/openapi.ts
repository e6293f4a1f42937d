/** The OpenAPI document of the whole server: both interfaces, from the schemas that check requests. */
import { householdApi } from './household/openapi';
import { microsimApi } from './microsim/openapi';

export function openApiDocument(options: { version: string; countries: string[]; auth: boolean; tokenEndpoint: boolean; microsim: boolean }): Record<string, unknown> {
  const household = householdApi(options);
  const microsim = options.microsim ? microsimApi(options) : { paths: {}, schemas: {} };
  return {
    openapi: '3.1.0',
    info: {
      title: 'Fiscus tax-benefit API',
      version: options.version,
      description: 'Household calculations compatible with PolicyEngine household API payloads, and the microsimulation API (datasets, models, policies, simulations, economic impact).',
    },
    paths: { ...household.paths, ...microsim.paths },
    components: {
      schemas: { ...household.schemas, ...microsim.schemas },
      ...(options.auth ? { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } } : {}),
    },
  };
}
