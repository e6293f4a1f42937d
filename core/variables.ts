import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import { EngineError, PERIOD_UNITS, VariableSpec } from './types';
import { monthsOf, parsePeriod } from './periods';
import { readYaml } from './yaml';

// A formula may be a bare number in YAML (`2030-01-01: 0`); it is read as that expression.
const expression = { type: ['string', 'number'], minLength: 1 };
const variableSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['entity', 'period', 'type'],
  properties: {
    entity: { type: 'string' },
    period: { enum: PERIOD_UNITS },
    type: { enum: ['float', 'int', 'bool', 'enum', 'string'] },
    unit: { type: 'string' },
    label: { type: 'string' },
    documentation: { type: 'string' },
    reference: {},
    default: { type: ['number', 'boolean', 'string'] },
    // Letters of any script: PolicyEngine's county names keep their accents (DOÑA_ANA_COUNTY_NM).
    possible_values: { type: 'array', minItems: 1, items: { type: 'string', pattern: '^[\\p{L}\\p{N}_]+$' } },
    defined_for: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' },
    formula: {
      oneOf: [
        expression,
        { type: 'object', minProperties: 1, propertyNames: { pattern: '^\\d{4}-\\d{2}-\\d{2}$' }, additionalProperties: expression },
      ],
    },
    adds: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    subtracts: { oneOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] },
    params: { type: 'object', additionalProperties: { type: 'string', pattern: '^[a-z_][A-Za-z0-9_.\\[\\]]*$' } },
    quantity_type: { enum: ['flow', 'stock'] },
  },
} as const;

const validateVariable = new Ajv({ allErrors: false, allowUnionTypes: true, unicodeRegExp: true }).compile(variableSchema);

function describeAjvError(e: { instancePath: string; message?: string; params?: Record<string, unknown> }): string {
  const where = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : '';
  const extra = e.params && 'additionalProperty' in e.params ? ` "${e.params.additionalProperty}"` : '';
  const allowed = e.params && 'allowedValues' in e.params ? ` (${(e.params.allowedValues as unknown[]).join(', ')})` : '';
  return `${where ? where + ': ' : ''}${e.message}${extra}${allowed}`;
}

/** Check one spec's shape and internal consistency (entity names are checked by the model). */
export function validateSpec(name: string, raw: unknown, file: string): VariableSpec {
  if (!/^[a-z_][a-z0-9_]*$/i.test(name)) throw new EngineError(`${file}: invalid variable name "${name}"`, file, name);
  if (!validateVariable(raw)) {
    throw new EngineError(`${file}: variable ${name}: ${describeAjvError(validateVariable.errors![0])}`, file, name);
  }
  const spec = { ...(raw as object), name, file } as VariableSpec;
  if (typeof spec.formula === 'number') spec.formula = String(spec.formula);
  else if (spec.formula && typeof spec.formula === 'object') {
    spec.formula = Object.fromEntries(Object.entries(spec.formula).map(([d, f]) => [d, String(f)]));
  }
  const modes = [spec.formula !== undefined, spec.adds !== undefined || spec.subtracts !== undefined].filter(Boolean).length;
  if (modes > 1) throw new EngineError(`${file}: variable ${name}: give either formula or adds/subtracts, not both`, file, name);
  if (spec.type === 'enum') {
    if (!spec.possible_values) throw new EngineError(`${file}: variable ${name}: an enum needs possible_values`, file, name);
    if (new Set(spec.possible_values).size !== spec.possible_values.length) {
      throw new EngineError(`${file}: variable ${name}: possible_values has duplicates`, file, name);
    }
    if (spec.default !== undefined && !spec.possible_values.includes(String(spec.default))) {
      throw new EngineError(`${file}: variable ${name}: default "${spec.default}" is not one of possible_values`, file, name);
    }
  } else if (spec.possible_values) {
    throw new EngineError(`${file}: variable ${name}: possible_values is only for enums`, file, name);
  }
  if (spec.default !== undefined) {
    const t = typeof spec.default;
    const ok = spec.type === 'bool' ? t === 'boolean' : spec.type === 'enum' || spec.type === 'string' ? t === 'string' : t === 'number';
    if (!ok) throw new EngineError(`${file}: variable ${name}: default ${JSON.stringify(spec.default)} does not fit type ${spec.type}`, file, name);
  }
  return spec;
}

/** Read every `*.yaml` under the folders (recursively) as one map of variable name -> spec. */
export function loadVariables(folders: string | string[]): Map<string, VariableSpec> {
  const out = new Map<string, VariableSpec>();
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (/\.ya?ml$/.test(entry.name)) files.push(p);
    }
  };
  for (const folder of typeof folders === 'string' ? [folders] : folders) if (fs.existsSync(folder)) walk(folder);
  for (const file of files) {
    const doc = readYaml(file);
    if (doc === null || doc === undefined) continue;
    if (typeof doc !== 'object' || Array.isArray(doc)) throw new EngineError(`${file}: expected a map of variable name -> spec`, file);
    for (const [name, raw] of Object.entries(doc as Record<string, unknown>)) {
      const prev = out.get(name);
      if (prev) throw new EngineError(`${file}: variable ${name} is already defined in ${prev.file}`, file, name);
      out.set(name, validateSpec(name, raw, file));
    }
  }
  return out;
}

/** The value of an input nobody supplied: `default`, else 0, false, the first enum value or "". */
export function defaultValue(spec: VariableSpec): number | boolean | string {
  if (spec.default !== undefined) return spec.default;
  if (spec.type === 'bool') return false;
  if (spec.type === 'enum') return spec.possible_values?.[0] ?? '';
  if (spec.type === 'string') return '';
  return 0;
}

/** Flows (amounts over a period) are summed or split when periods convert; stocks are copied. */
export function isFlow(spec: VariableSpec): boolean {
  return spec.quantity_type ? spec.quantity_type === 'flow' : spec.type === 'float';
}

/** How a read of `name` at `period` maps onto its definition-period columns (as Simulation.calculate converts). */
export function resolveRead(spec: VariableSpec, period: string): { how: 'exact' | 'sum' | 'twelfth'; periods: string[] } {
  if (spec.period === 'eternity') return { how: 'exact', periods: ['eternity'] };
  const p = parsePeriod(period);
  if (p.unit === 'eternity') throw new EngineError(`${spec.name} is a ${spec.period} variable: ask for a ${spec.period}, not eternity`);
  if (spec.period === p.unit) return { how: 'exact', periods: [period] };
  if (spec.period === 'year') return { how: isFlow(spec) ? 'twelfth' : 'exact', periods: [String(p.year)] };
  const months = monthsOf(p.year);
  return isFlow(spec) ? { how: 'sum', periods: months } : { how: 'exact', periods: [months[11]] };
}
