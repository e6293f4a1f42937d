/** The household API's part of the OpenAPI document, built from the schemas that validate requests. */
import * as schemas from './schema';

export interface ApiPart {
  paths: Record<string, unknown>;
  schemas: Record<string, unknown>;
}

export function householdApi(options: { countries: string[]; auth: boolean; tokenEndpoint: boolean }): ApiPart {
  const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
  const error = (description: string) => json({ $ref: '#/components/schemas/Error' }, description);
  const oauthError = (description: string) => json({ $ref: '#/components/schemas/OAuthError' }, description);
  const calculate: Record<string, unknown> = {
    summary: 'Calculate a household',
    description: 'Fills every null `{period: null}` slot of the household with its computed value under the chosen model version and policy.',
    parameters: [{ name: 'country', in: 'path', required: true, schema: { type: 'string', enum: options.countries } }],
    requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/CalculateRequest' } } } },
    responses: {
      200: json({ $ref: '#/components/schemas/CalculateResponse' }, 'The household with every requested value filled in'),
      400: error('Malformed JSON, or a household/policy problem; `errors` lists each problem with its path (e.g. `people/you/age/2025`)'),
      ...(options.auth ? { 401: oauthError('Missing or invalid bearer token') } : {}),
      404: error('The country has no model on this server'),
      413: error('The request body is larger than the limit'),
      422: json({ $ref: '#/components/schemas/UnsupportedVersion' }, 'The requested model version is not served'),
      500: error('The calculation failed'),
    },
  };
  if (options.auth) calculate.security = [{ bearer: [] }];
  const paths: Record<string, unknown> = {
    '/': { get: { summary: 'Service description', responses: { 200: { description: 'Name, version, countries and endpoints' } } } },
    '/liveness_check': { get: { summary: 'The process is up', responses: { 200: { description: 'OK' } } } },
    '/readiness_check': { get: { summary: 'The service can answer calculations', responses: { 200: { description: 'OK' }, 503: { description: 'Not ready' } } } },
    '/specification': { get: { summary: 'This OpenAPI document', responses: { 200: { description: 'OpenAPI 3.1 JSON' } } } },
    '/{country}/calculate': { post: calculate },
  };
  if (options.tokenEndpoint) {
    paths['/oauth/token'] = {
      post: {
        summary: 'Issue an access token (OAuth 2.0 client credentials)',
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/TokenRequest' } } } },
        responses: {
          200: json({ $ref: '#/components/schemas/TokenResponse' }, 'A bearer token'),
          400: oauthError('invalid_request or unsupported_grant_type'),
          401: oauthError('invalid_client'),
          403: oauthError('access_denied: unknown audience'),
        },
      },
    };
  }
  return {
    paths,
    schemas: {
      CalculateRequest: schemas.calculateRequestSchema,
      CalculateResponse: schemas.calculateResponseSchema,
      Household: schemas.householdSchema,
      Policy: schemas.policySchema,
      Axis: schemas.axisSchema,
      Error: schemas.errorResponseSchema,
      UnsupportedVersion: schemas.unsupportedVersionSchema,
      TokenRequest: schemas.tokenRequestSchema,
      TokenResponse: schemas.tokenResponseSchema,
      OAuthError: schemas.oauthErrorSchema,
    },
  };
}
