import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import { ParameterError } from './types';
import { derivedSchema } from './derived';

/**
 * JSON Schemas for parameter files. Files are classified first (leaf, scale, node, index), then the
 * matching schema checks their keys and value types; series-level rules (consistent types, ascending
 * thresholds) are checked in code where a schema cannot express them.
 */

/** Metadata keys found in real PolicyEngine parameter files. Anything else is a typo and an error. */
export const KNOWN_METADATA_KEYS: readonly string[] = [
  'unit', 'label', 'description', 'documentation', 'reference', 'references', 'period', 'name', 'type',
  'breakdown', 'breakdowns', 'breakdown_label', 'breakdown_labels', 'uprating', 'propagate_metadata_to_children', 'economy', 'household',
  'threshold_unit', 'rate_unit', 'amount_unit', 'base_unit', 'average_rate_unit',
  'threshold_period', 'amount_period', 'rate_period', 'tests',
  'uprate_thresholds', 'threshold_uprating', 'threshold', 'rate', 'amount', 'base', 'average_rate',
];

const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
const number = { finiteOrInfiniteNumber: true };
const scalarValue = { anyOf: [number, { type: ['boolean', 'string', 'null'] }, { type: 'array', items: { type: ['string', 'number'] } }] };

const uprating = {
  anyOf: [
    { type: 'string' },
    {
      type: 'object',
      required: ['parameter'],
      additionalProperties: false,
      properties: {
        parameter: { type: 'string' },
        rounding: {
          anyOf: [
            number,
            {
              type: 'object',
              required: ['type', 'interval'],
              additionalProperties: false,
              properties: {
                type: { enum: ['downwards', 'upwards', 'nearest'] },
                interval: { type: 'number', exclusiveMinimum: 0 },
              },
            },
          ],
        },
        start_instant: { type: 'string', pattern: DATE_PATTERN },
        at_defined_interval: { type: 'object' },
      },
    },
  ],
};

const upratingRef = { $ref: 'fiscus:uprating' };
const metadataRef = { $ref: 'fiscus:metadata' };
const componentOverride = { type: 'object', additionalProperties: false, properties: { uprating: upratingRef } };

export const upratingSchema = { $id: 'fiscus:uprating', ...uprating };

export const metadataSchema = {
  $id: 'fiscus:metadata',
  type: 'object',
  additionalProperties: false,
  properties: {
    unit: { type: 'string' },
    label: { type: 'string' },
    description: { type: 'string' },
    documentation: { type: 'string' },
    reference: {},
    references: {},
    period: { type: 'string' },
    name: { type: 'string' },
    type: { enum: ['marginal_rate', 'single_amount', 'marginal_amount', 'average_rate'] },
    breakdown: {
      anyOf: [
        { type: 'string' },
        { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }] } },
      ],
    },
    // Found in PolicyEngine's files and ignored by policyengine-core: accepted as notes.
    breakdowns: {
      anyOf: [
        { type: 'string' },
        { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: ['string', 'number', 'boolean'] } }] } },
      ],
    },
    breakdown_label: { anyOf: [{ type: 'string' }, { type: 'array' }] },
    breakdown_labels: { type: 'array' },
    uprating: upratingRef,
    propagate_metadata_to_children: { type: 'boolean' },
    economy: { type: 'boolean' },
    household: { type: 'boolean' },
    threshold_unit: { type: 'string' },
    rate_unit: { type: 'string' },
    amount_unit: { type: 'string' },
    base_unit: { type: 'string' },
    average_rate_unit: { type: 'string' },
    threshold_period: { type: 'string' },
    amount_period: { type: 'string' },
    rate_period: { type: 'string' },
    tests: { type: 'array' },
    uprate_thresholds: { type: 'boolean' },
    threshold_uprating: upratingRef,
    threshold: componentOverride,
    rate: componentOverride,
    amount: componentOverride,
    base: componentOverride,
    average_rate: componentOverride,
  },
};

const common = {
  description: { type: 'string' },
  documentation: { type: 'string' },
  metadata: metadataRef,
};

/** One dated entry: a bare value, or `{value, metadata, reference}`; `expected` entries are notes and skipped. */
function entry(value: object): object {
  return {
    if: { type: 'object', not: { type: 'array' } },
    then: {
      type: 'object',
      additionalProperties: false,
      properties: { value: { anyOf: [value, { type: 'null' }] }, metadata: metadataRef, reference: {}, expected: {} },
    },
    else: { anyOf: [value, { type: 'null' }, { const: 'expected' }] },
  };
}

function datedMap(value: object): object {
  return { type: 'object', propertyNames: { pattern: DATE_PATTERN }, additionalProperties: entry(value) };
}

function leafSchema(value: object, id: string): object {
  return {
    $id: id,
    if: { type: 'object', required: ['values'] },
    then: {
      type: 'object',
      additionalProperties: false,
      properties: { ...common, values: datedMap(value) },
    },
    else: datedMap(value),
  };
}

export const leafFileSchema = leafSchema(scalarValue, 'fiscus:leaf');
const numberLeafSchema = leafSchema(number, 'fiscus:number-leaf');
const amountLeafSchema = leafSchema({ anyOf: [number, { type: 'boolean' }] }, 'fiscus:amount-leaf');

const bracketSchema = {
  type: 'object',
  required: ['threshold'],
  additionalProperties: false,
  properties: {
    ...common,
    threshold: { $ref: 'fiscus:number-leaf' },
    rate: { $ref: 'fiscus:number-leaf' },
    amount: { $ref: 'fiscus:amount-leaf' },
    average_rate: { $ref: 'fiscus:number-leaf' },
    base: { $ref: 'fiscus:number-leaf' },
  },
};

export const scaleFileSchema = {
  type: 'object',
  required: ['brackets'],
  additionalProperties: false,
  properties: { ...common, brackets: { type: 'array', items: bracketSchema } },
};

/** A node's own keys; every other key is a child and must be a mapping. */
export const nodeFileSchema = {
  type: 'object',
  properties: { ...common, reference: {} },
  additionalProperties: { type: 'object', not: { type: 'array' } },
};

export const derivedFileSchema = {
  type: 'object',
  required: ['derived'],
  additionalProperties: false,
  properties: { ...common, reference: {}, derived: derivedSchema },
};

export const indexFileSchema = {
  type: ['object', 'null'],
  additionalProperties: false,
  properties: common,
};

// Shared sub-schemas are compiled once and referenced (inlining them made compiling take ~0.5 s).
const ajv = new Ajv({ allErrors: false, strict: false, inlineRefs: false });
ajv.addKeyword({
  keyword: 'finiteOrInfiniteNumber',
  // YAML's .inf and -.inf are legitimate thresholds; the built-in "number" type rejects them.
  validate: (_schema: unknown, data: unknown) => typeof data === 'number' && !Number.isNaN(data),
  errors: false,
});

ajv.addSchema(upratingSchema);
ajv.addSchema(metadataSchema);
ajv.addSchema(numberLeafSchema);
ajv.addSchema(amountLeafSchema);

export type SchemaName = 'leaf' | 'scale' | 'node' | 'index' | 'derived';

const validators: Record<SchemaName, ValidateFunction> = {
  leaf: ajv.compile(leafFileSchema),
  scale: ajv.compile(scaleFileSchema),
  node: ajv.compile(nodeFileSchema),
  index: ajv.compile(indexFileSchema),
  derived: ajv.compile(derivedFileSchema),
};

/** "/values/2021-04-06" -> ".values.2021-04-06"; bracket items become "[i]". */
function suffix(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, '/').replace(/~0/g, '~')}`))
    .join('');
}

function describe(error: ErrorObject): { where: string; message: string } {
  const where = suffix(error.instancePath);
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return { where: `${where}.${String(p.additionalProperty)}`, message: `unknown key "${String(p.additionalProperty)}"` };
    case 'required':
      return { where, message: `missing key "${String(p.missingProperty)}"` };
    case 'pattern':
      if (error.propertyName !== undefined) {
        return { where: `${where}.${error.propertyName}`, message: `bad date key "${error.propertyName}" (expected YYYY-MM-DD)` };
      }
      return { where, message: `must be a date YYYY-MM-DD` };
    case 'finiteOrInfiniteNumber':
      return { where, message: 'must be a number' };
    case 'anyOf':
      return { where, message: 'has a value of the wrong type or shape' };
    case 'type':
      if (p.type === 'object') return { where, message: 'must be a mapping' };
      return { where, message: `must be ${String(p.type).replace('string', 'text').replace(',', ' or ')}` };
    case 'enum':
      return { where, message: `must be one of ${(p.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}` };
    default:
      return { where, message: error.message ?? 'is invalid' };
  }
}

/** The most useful of ajv's errors: the deepest one, preferring a concrete error over anyOf/if. */
function pick(errors: ErrorObject[]): ErrorObject {
  const rank = (e: ErrorObject): number =>
    e.instancePath.length * 4 + (e.propertyName !== undefined ? 2 : 0) + (e.keyword === 'anyOf' || e.keyword === 'if' ? 0 : 1);
  return errors.reduce((best, e) => (rank(e) > rank(best) ? e : best));
}

/** Throws a ParameterError naming the file and the dotted key if `data` does not match the schema. */
export function validate(name: SchemaName, data: unknown, file: string, path: string): void {
  const fn = validators[name];
  if (fn(data)) return;
  const { where, message } = describe(pick(fn.errors ?? []));
  const at = `${path}${where}` || '(root)';
  throw new ParameterError(`${file}: ${at}: ${message}`, file, path);
}
