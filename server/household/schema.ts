/**
 * JSON Schemas of the household API. The same objects validate requests (ajv) and are published
 * in the OpenAPI document (`GET /specification`), so the documentation cannot drift from the checks.
 */

/** A value in a `{period: value}` map: an input, or null for an output to compute. */
const periodValue = {
  description: 'An input value (number, boolean, enum name or string), or null to ask for it to be computed.',
  type: ['number', 'string', 'boolean', 'null'],
};

export const PERIOD_PATTERN = '^[0-9]{4}(-(0[1-9]|1[0-2]))?$';

export const periodMapSchema = {
  description: 'Values by period: a year (`2025`) or a month (`2025-01`).',
  type: 'object',
  propertyNames: { pattern: PERIOD_PATTERN },
  additionalProperties: periodValue,
};

export const entityInstanceSchema = {
  description: 'One person or group: variables as `{period: value}` maps; groups list their `members` by person id.',
  type: 'object',
  properties: {
    members: { type: 'array', items: { type: 'string' }, maxItems: 1000 },
  },
  additionalProperties: periodMapSchema,
};

export const axisSchema = {
  description: 'Vary one input linearly over a range: every requested output becomes an array with one value per point.',
  type: 'object',
  required: ['name', 'count', 'min', 'max'],
  properties: {
    name: { type: 'string', description: 'Variable to vary.' },
    count: { type: 'integer', minimum: 1, description: 'Number of points, min and max included.' },
    min: { type: 'number' },
    max: { type: 'number' },
    period: { type: ['string', 'integer'], description: 'Period to vary (default: the first period of the household).' },
    index: { type: 'integer', minimum: 0, description: 'Which instance of the variable\'s entity to vary (default 0).' },
  },
  additionalProperties: false,
};

export const axesSchema = {
  description: 'A list of perpendicular axis sets; the axes inside one set vary together (same count).',
  type: 'array',
  items: { type: 'array', minItems: 1, items: axisSchema },
};

export const householdSchema = {
  description: 'Groups by plural name (UK: people, benunits, households; US: people, households, families, tax_units, marital_units, spm_units), each mapping instance ids to instances.',
  type: 'object',
  required: ['people'],
  properties: { people: { type: 'object', additionalProperties: entityInstanceSchema }, axes: axesSchema },
  additionalProperties: { type: 'object', additionalProperties: entityInstanceSchema },
};

export const policySchema = {
  description: 'A reform: parameter path -> {"YYYY-MM-DD.YYYY-MM-DD": value} (or a single start date).',
  type: 'object',
  additionalProperties: {
    type: 'object',
    propertyNames: { pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}(\\.[0-9]{4}-[0-9]{2}-[0-9]{2})?$' },
    additionalProperties: {},
  },
};

export const calculateRequestSchema = {
  type: 'object',
  required: ['household'],
  properties: {
    household: householdSchema,
    policy: policySchema,
    version: { type: 'string', description: '`current` (default), `frontier`, or an exact active model version.' },
  },
  additionalProperties: false,
};

export const serviceBundleSchema = {
  type: 'object',
  required: ['model_version', 'data_version', 'dataset'],
  properties: {
    model_version: { type: 'string' },
    data_version: { type: 'null' },
    dataset: { type: 'null' },
  },
};

export const calculateResponseSchema = {
  type: 'object',
  required: ['status', 'message', 'result', 'service_bundle'],
  properties: {
    status: { const: 'ok' },
    message: { type: 'null' },
    result: householdSchema,
    service_bundle: serviceBundleSchema,
    warnings: {
      description: 'What the answer does not cover: variables of the reference model this one lacks, households the rules cover in part',
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'period', 'message'],
        properties: { path: { type: 'string' }, period: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

export const errorResponseSchema = {
  type: 'object',
  required: ['status', 'message'],
  properties: {
    status: { const: 'error' },
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['path', 'message'],
        properties: { path: { type: 'string' }, message: { type: 'string' } },
      },
    },
  },
};

export const unsupportedVersionSchema = {
  type: 'object',
  required: ['status', 'code', 'message', 'requested_version', 'country_id', 'available_versions'],
  properties: {
    status: { const: 'error' },
    code: { const: 'unsupported_version' },
    message: { type: 'string' },
    requested_version: { type: 'string' },
    country_id: { type: 'string' },
    available_versions: {
      type: 'object',
      properties: { current: { type: 'string' }, frontier: { type: 'string' } },
    },
  },
};

export const tokenRequestSchema = {
  type: 'object',
  required: ['client_id', 'client_secret', 'audience', 'grant_type'],
  properties: {
    client_id: { type: 'string', minLength: 1, maxLength: 200 },
    client_secret: { type: 'string', minLength: 1, maxLength: 500 },
    audience: { type: 'string', minLength: 1, maxLength: 500 },
    grant_type: { type: 'string' },
  },
  additionalProperties: true,
};

export const tokenResponseSchema = {
  type: 'object',
  required: ['access_token', 'token_type', 'expires_in'],
  properties: {
    access_token: { type: 'string' },
    token_type: { const: 'Bearer' },
    expires_in: { type: 'integer' },
  },
};

export const oauthErrorSchema = {
  type: 'object',
  required: ['error', 'error_description'],
  properties: { error: { type: 'string' }, error_description: { type: 'string' } },
};
