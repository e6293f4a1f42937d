/**
 * Loading PolicyEngine-format YAML test files. A file is a list of cases or a single mapping.
 * Nothing here throws for bad content: a file that cannot be read or parsed becomes one failed
 * case, and a case that breaks the schema is a failed case whose message names file, case and key.
 */
import * as fs from 'fs';
import { parseYaml11 as parseYaml } from '../../parameters/yaml';
import Ajv, { ErrorObject, ValidateFunction } from 'ajv';
import type { LoadedCase, RawCase } from './types';

/** The keys PolicyEngine's runner accepts in a case; anything else is an error there too. */
export const CASE_KEYS: readonly string[] = [
  'name', 'period', 'input', 'output', 'absolute_error_margin', 'relative_error_margin',
  'reforms', 'keywords', 'description', 'extensions', 'ignore_variables', 'only_variables',
];

const nullableNumber = { type: ['number', 'null'] };
const stringList = { type: 'array', items: { type: 'string' } };

const CASE_SCHEMA = {
  type: 'object',
  required: ['output'],
  additionalProperties: false,
  properties: {
    name: { type: ['string', 'number'] },
    period: { type: ['integer', 'string'] },
    input: { type: ['object', 'null'] },
    output: { type: 'object', minProperties: 1 },
    absolute_error_margin: nullableNumber,
    relative_error_margin: nullableNumber,
    reforms: { type: ['string', 'array', 'null'], items: { type: 'string' } },
    keywords: { anyOf: [{ type: 'string' }, stringList, { type: 'null' }] },
    description: { type: ['string', 'null'] },
    extensions: { type: ['string', 'array', 'null'], items: { type: 'string' } },
    ignore_variables: stringList,
    only_variables: stringList,
  },
};

let validator: ValidateFunction | undefined;
function validateCase(value: unknown): ErrorObject[] {
  if (!validator) validator = new Ajv({ allErrors: true, allowUnionTypes: true }).compile(CASE_SCHEMA);
  return validator(value) ? [] : [...(validator.errors ?? [])];
}

/** Test files keep the last of repeated keys, as PolicyEngine's runner (PyYAML) does. */
export function parseYaml11(text: string): unknown {
  return parseYaml(text, { uniqueKeys: false });
}

function describeSchemaError(error: ErrorObject): string {
  const where = error.instancePath ? `'${error.instancePath.slice(1).replace(/\//g, '.')}'` : 'the case';
  switch (error.keyword) {
    case 'additionalProperties':
      return `unexpected key '${String(error.params.additionalProperty)}' (allowed: ${CASE_KEYS.join(', ')})`;
    case 'required':
      return `missing key '${String(error.params.missingProperty)}'`;
    case 'minProperties':
      return `${where} is empty: a case must check at least one variable`;
    case 'type':
      return `${where} must be ${String(error.params.type).replace(/,/g, ' or ')}`;
    default:
      return `${where} ${error.message ?? 'is invalid'}`;
  }
}

function caseLabel(value: unknown, index: number): string {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const name = (value as Record<string, unknown>).name;
    if (typeof name === 'string' || typeof name === 'number') return String(name);
  }
  return `#${index + 1}`;
}

function keywordsOf(raw: RawCase): string[] {
  if (typeof raw.keywords === 'string') return [raw.keywords];
  return Array.isArray(raw.keywords) ? raw.keywords.map(String) : [];
}

/** Validates the cases of an already parsed document. */
export function casesFromDocument(file: string, document: unknown): LoadedCase[] {
  if (document === null || document === undefined) {
    return [{ file, index: 0, name: '(file)', keywords: [], errors: [`${file}: the file holds no test case`] }];
  }
  const items: unknown[] = Array.isArray(document) ? document : [document];
  return items.map((item, index): LoadedCase => {
    const name = caseLabel(item, index);
    const prefix = `${file}: case '${name}'`;
    if (!item || typeof item !== 'object' || Array.isArray(item)) {
      return { file, index, name, keywords: [], errors: [`${prefix}: a case must be a mapping, got ${describeType(item)}`] };
    }
    const problems = validateCase(item);
    if (problems.length > 0) {
      return { file, index, name, keywords: [], errors: problems.map((p) => `${prefix}: ${describeSchemaError(p)}`) };
    }
    const raw = item as RawCase;
    return { file, index, name, keywords: keywordsOf(raw), raw, errors: [] };
  });
}

/** Parses YAML text; a syntax error becomes one failed pseudo-case named `(file)`. */
export function loadTestText(file: string, text: string): LoadedCase[] {
  let document: unknown;
  try {
    document = parseYaml11(text);
  } catch (error) {
    const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
    return [{ file, index: 0, name: '(file)', keywords: [], errors: [`${file}: invalid YAML: ${message}`] }];
  }
  return casesFromDocument(file, document);
}

/** Reads a test file; `label` (default: the path) is how results and messages name it. */
export function loadTestFile(file: string, label: string = file): LoadedCase[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return [{ file: label, index: 0, name: '(file)', keywords: [], errors: [`${label}: cannot read the file: ${message}`] }];
  }
  return loadTestText(label, text);
}

export function describeType(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}
