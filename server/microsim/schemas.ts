/**
 * JSON Schemas of the microsimulation API: request bodies and queries (checked with ajv) and the
 * records answered. `/specification` publishes these same objects, so the documentation cannot
 * drift from the checks.
 */
import { pagingProperties } from '../http/paging';

const uuid = { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' } as const;
const nullableUuid = { anyOf: [uuid, { type: 'null' }] } as const;
const text = (max: number) => ({ type: 'string', maxLength: max }) as const;
/** A date `YYYY-MM-DD`, or a date-time whose date part is used (PolicyEngine clients send those). */
const dateText = { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9:.]+(Z|[+-][0-9:]+)?)?$' } as const;

export const parameterValueInputSchema = {
  description: 'One value: the parameter (by id or by dotted name), the value, and the dates it applies (end date included; null: open-ended).',
  type: 'object',
  required: ['value_json', 'start_date'],
  properties: {
    parameter_id: uuid,
    parameter_name: text(500),
    value_json: { description: 'The value: a number, true/false, text, or a list of text (as the parameter holds).' },
    start_date: dateText,
    end_date: { anyOf: [dateText, { type: 'null' }] },
  },
  additionalProperties: false,
} as const;

export const parameterSetInputSchema = {
  description: 'A policy (a reform) or a dynamic (behavioural responses: parameters under gov.simulation).',
  type: 'object',
  required: ['name'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { anyOf: [text(5000), { type: 'null' }] },
    tax_benefit_model_name: { type: 'string', maxLength: 100, description: 'The model parameter names refer to (any accepted form: fiscus-uk, fiscus_uk, uk, policyengine_uk); its current version.' },
    tax_benefit_model_version_id: { ...uuid, description: 'The exact model version parameter names refer to.' },
    parameter_values: { type: 'array', maxItems: 5000, items: parameterValueInputSchema },
  },
  additionalProperties: false,
} as const;

export const datasetInputSchema = {
  type: 'object',
  required: ['name', 'filepath'],
  properties: {
    name: { type: 'string', minLength: 1, maxLength: 200 },
    description: { anyOf: [text(5000), { type: 'null' }] },
    filepath: { type: 'string', minLength: 1, maxLength: 1000, description: 'An HDF5 file inside the storage folder (FISCUS_STORAGE), relative to it.' },
    year: { type: 'integer', minimum: 1900, maximum: 2200, description: 'The year the data describes (default: the year the file says, for PolicyEngine files).' },
    tax_benefit_model_name: { type: 'string', maxLength: 100 },
    tax_benefit_model_version_id: uuid,
  },
  additionalProperties: false,
} as const;

export const simulationInputSchema = {
  type: 'object',
  required: ['dataset_id'],
  properties: {
    dataset_id: uuid,
    tax_benefit_model_version_id: { ...uuid, description: "Default: the current version of the dataset's model." },
    policy_id: nullableUuid,
    dynamic_id: nullableUuid,
    region: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }], description: 'A region name from GET /regions: only its households are simulated.' },
    year: { type: 'integer', minimum: 1900, maximum: 2200, description: "Default: the dataset's year." },
  },
  additionalProperties: false,
} as const;

export const economicImpactInputSchema = {
  type: 'object',
  required: ['tax_benefit_model_name', 'dataset_id'],
  properties: {
    tax_benefit_model_name: { type: 'string', maxLength: 100, description: 'fiscus-uk, fiscus_uk, uk, service_uk, policyengine_uk (and the same for other countries).' },
    dataset_id: uuid,
    policy_id: nullableUuid,
    dynamic_id: nullableUuid,
    year: { type: 'integer', minimum: 1900, maximum: 2200 },
    region: { anyOf: [{ type: 'string', maxLength: 100 }, { type: 'null' }] },
  },
  additionalProperties: false,
} as const;

const paging = { type: 'object', properties: { ...pagingProperties }, additionalProperties: false } as const;

export const listQuerySchema = paging;

export const versionsQuerySchema = { ...paging, properties: { ...paging.properties, model_id: uuid, tax_benefit_model_name: text(100) } } as const;

export const catalogueQuerySchema = {
  ...paging,
  properties: {
    ...paging.properties,
    tax_benefit_model_version_id: uuid,
    tax_benefit_model_name: text(100),
    country: text(32),
    search: text(200),
    entity: text(64),
  },
} as const;

export const parameterValuesQuerySchema = {
  ...paging,
  properties: { ...paging.properties, parameter_id: uuid, policy_id: uuid, dynamic_id: uuid, baseline: { type: 'boolean', description: 'Only current-law values (of no policy and no dynamic).' } },
} as const;

export const datasetsQuerySchema = { ...paging, properties: { ...paging.properties, tax_benefit_model_name: text(100) } } as const;

export const simulationsQuerySchema = {
  ...paging,
  properties: { ...paging.properties, status: { enum: ['pending', 'running', 'completed', 'failed'] }, dataset_id: uuid },
} as const;

export const regionsQuerySchema = { type: 'object', properties: { tax_benefit_model_name: text(100), country: text(32) }, additionalProperties: false } as const;

export const detailErrorSchema = {
  type: 'object',
  required: ['detail'],
  properties: {
    detail: { type: 'string' },
    errors: {
      type: 'array',
      items: { type: 'object', required: ['path', 'message'], properties: { path: { type: 'string' }, message: { type: 'string' }, index: { type: 'integer' } } },
    },
  },
} as const;

const nullable = (type: string) => ({ type: [type, 'null'] });
const record = (properties: Record<string, unknown>) => ({ type: 'object', required: Object.keys(properties), properties });

export const recordSchemas = {
  TaxBenefitModel: record({ id: uuid, name: { type: 'string' }, country: { type: 'string' }, description: nullable('string'), created_at: { type: 'string' } }),
  TaxBenefitModelVersion: record({ id: uuid, model_id: uuid, version: { type: 'string' }, hash: { type: 'string' }, source: { enum: ['bundle', 'working tree'] }, description: nullable('string'), created_at: { type: 'string' } }),
  Parameter: record({ id: uuid, tax_benefit_model_version_id: uuid, name: { type: 'string' }, label: nullable('string'), description: nullable('string'), unit: nullable('string'), data_type: nullable('string'), period: nullable('string'), created_at: { type: 'string' } }),
  ParameterValue: record({ id: uuid, parameter_id: uuid, policy_id: nullableUuid, dynamic_id: nullableUuid, value_json: {}, start_date: { type: 'string' }, end_date: nullable('string'), created_at: { type: 'string' } }),
  Variable: record({ id: uuid, tax_benefit_model_version_id: uuid, name: { type: 'string' }, entity: { type: 'string' }, period: { type: 'string' }, data_type: { type: 'string' }, unit: nullable('string'), label: nullable('string'), description: nullable('string'), possible_values: { type: ['array', 'null'] }, default_value: {}, is_input: { type: 'boolean' }, defined_for: nullable('string'), adds: {}, subtracts: {}, created_at: { type: 'string' } }),
  ParameterSet: record({ id: uuid, name: { type: 'string' }, description: nullable('string'), tax_benefit_model_version_id: nullableUuid, parameter_values: { type: 'array', items: { $ref: '#/components/schemas/ParameterValue' } }, created_at: { type: 'string' }, updated_at: { type: 'string' } }),
  Dataset: record({ id: uuid, name: { type: 'string' }, description: nullable('string'), filepath: { type: 'string' }, year: nullable('integer'), tax_benefit_model_id: uuid, tax_benefit_model_name: nullable('string'), tax_benefit_model_version_id: nullableUuid, layout: nullable('string'), counts: { type: ['object', 'null'] }, warnings: { type: 'array' }, weighted_households: nullable('number'), size_bytes: nullable('integer'), is_default: { type: 'boolean' }, created_at: { type: 'string' }, updated_at: { type: 'string' } }),
  Simulation: record({ id: uuid, dataset_id: uuid, tax_benefit_model_version_id: uuid, policy_id: nullableUuid, dynamic_id: nullableUuid, region: nullable('string'), year: { type: 'integer' }, status: { enum: ['pending', 'running', 'completed', 'failed'] }, progress: { type: 'number', minimum: 0, maximum: 1 }, error_message: nullable('string'), attempts: { type: 'integer' }, output_file: nullable('string'), created_at: { type: 'string' }, updated_at: { type: 'string' }, started_at: nullable('string'), completed_at: nullable('string') }),
  EconomicImpact: {
    type: 'object',
    required: ['report_id', 'status', 'error_message', 'baseline_simulation', 'reform_simulation'],
    properties: {
      report_id: uuid,
      status: { enum: ['pending', 'running', 'completed', 'failed'] },
      error_message: nullable('string'),
      baseline_simulation: { $ref: '#/components/schemas/Simulation' },
      reform_simulation: { $ref: '#/components/schemas/Simulation' },
      decile_impacts: { type: 'array' },
      program_statistics: { type: 'array' },
      budget_summary: { type: 'object' },
      inequality: { type: 'object' },
      poverty: { type: ['object', 'array'] },
      intra_decile: { type: ['object', 'array'] },
    },
  },
  Region: record({ name: { type: 'string' }, label: { type: 'string' }, type: { type: 'string' }, country: { type: 'string' } }),
};
