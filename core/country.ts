import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import { CountryDef, CoverageRule, EngineError, PERIOD_UNITS, type PeriodUnit } from './types';
import { readYaml } from './yaml';

const schema = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'label', 'version', 'currency', 'year_instant', 'entities'],
  properties: {
    id: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
    label: { type: 'string' },
    version: { type: 'string', pattern: '^\\d+\\.\\d+\\.\\d+([-+].*)?$' },
    currency: { type: 'string' },
    year_instant: { type: 'string', pattern: '^(0[1-9]|1[0-2])-(0[1-9]|[12]\\d|3[01])$' },
    description: { type: 'string' },
    modules: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z0-9_][A-Za-z0-9_./*-]*$' } },
    coverage: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['variable', 'message'],
        properties: { variable: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' }, message: { type: 'string', minLength: 1 } },
      },
    },
    reference_variables: {
      type: 'object',
      additionalProperties: false,
      required: ['model', 'file'],
      properties: { model: { type: 'string', minLength: 1 }, file: { type: 'string', pattern: '^[A-Za-z0-9_][A-Za-z0-9_./-]*$' } },
    },
    entities: {
      type: 'array',
      minItems: 1,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['key', 'plural'],
        properties: {
          key: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
          plural: { type: 'string', pattern: '^[a-z][a-z0-9_]*$' },
          label: { type: 'string' },
          person: { type: 'boolean' },
          within: { type: 'array', items: { type: 'string' } },
          description: { type: 'string' },
        },
      },
    },
  },
} as const;

const validate = new Ajv({ allErrors: true }).compile(schema);

export function loadCountry(folder: string): CountryDef {
  const file = path.join(folder, 'country.yaml');
  if (!fs.existsSync(file)) throw new EngineError(`${file}: country.yaml not found`, file);
  const raw = readYaml(file);
  if (!validate(raw)) {
    const e = validate.errors![0];
    throw new EngineError(`${file}: ${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : ''}`, file);
  }
  const r = raw as unknown as {
    id: string; label: string; version: string; currency: string; year_instant: string; modules?: string[];
    coverage?: CoverageRule[];
    reference_variables?: { model: string; file: string };
    entities: { key: string; plural: string; label?: string; person?: boolean; within?: string[] }[];
  };
  const persons = r.entities.filter((e) => e.person);
  if (persons.length !== 1) throw new EngineError(`${file}: exactly one entity must have person: true (found ${persons.length})`, file);
  const keys = new Set<string>();
  for (const e of r.entities) {
    for (const k of [e.key, e.plural]) {
      if (keys.has(k)) throw new EngineError(`${file}: entity name "${k}" is used twice`, file);
      keys.add(k);
    }
  }
  const groupKeys = new Set(r.entities.filter((e) => !e.person).map((e) => e.key));
  for (const e of r.entities) {
    for (const w of e.within ?? []) {
      if (!groupKeys.has(w) || w === e.key) throw new EngineError(`${file}: entity ${e.key}: within names "${w}", which is not another group entity`, file);
    }
  }
  return {
    id: r.id,
    label: r.label,
    version: r.version,
    currency: r.currency,
    yearInstant: r.year_instant,
    entities: r.entities.map((e) => ({ key: e.key, plural: e.plural, label: e.label, isPerson: !!e.person, within: e.person ? [] : e.within ?? [] })),
    folder,
    modules: (r.modules ?? []).flatMap((pattern) => expandModule(folder, pattern, file)),
    coverage: r.coverage ?? [],
    reference: { model: r.reference_variables?.model ?? '', variables: r.reference_variables ? readReference(folder, r.reference_variables.file, groupKeys, persons[0].key, file) : new Map() },
  };
}

/** The reference model's variables: a TSV of name, entity and period (lines starting with # are notes). */
function readReference(folder: string, name: string, groups: Set<string>, person: string, file: string): CountryDef['reference']['variables'] {
  stayInside(name, `reference_variables file "${name}"`, file);
  const tsv = path.join(folder, name);
  if (!fs.existsSync(tsv)) throw new EngineError(`${file}: reference_variables file "${name}" not found`, file);
  const out: CountryDef['reference']['variables'] = new Map();
  const lines = fs.readFileSync(tsv, 'utf8').split('\n').filter((l) => l.trim() !== '' && !l.startsWith('#'));
  lines.slice(1).forEach((line, i) => {
    const [variable, entity, period] = line.split('\t');
    if (!(entity === person || groups.has(entity)) || !PERIOD_UNITS.includes(period as PeriodUnit)) {
      throw new EngineError(`${tsv}: row ${i + 1} ("${line}"): the entity must be one of the country's and the period year, month or eternity`, tsv);
    }
    out.set(variable, { entity, period: period as PeriodUnit });
  });
  return out;
}

/**
 * Module folders named by a pattern relative to the country folder: a plain path, or a path whose
 * last step is `*` (every sub-folder, in name order). `..` is refused so a module stays inside.
 */
function expandModule(folder: string, pattern: string, file: string): string[] {
  stayInside(pattern, `module "${pattern}"`, file);
  if (!pattern.endsWith('/*')) {
    const dir = path.join(folder, pattern);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) throw new EngineError(`${file}: module folder "${pattern}" not found`, file);
    return [dir];
  }
  const parent = path.join(folder, pattern.slice(0, -2));
  if (!fs.existsSync(parent)) return [];
  return fs.readdirSync(parent, { withFileTypes: true })
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => path.join(parent, e.name))
    .sort();
}

/** A path named in country.yaml must not climb out of the country folder (`..`). */
function stayInside(relative: string, what: string, file: string): void {
  if (relative.split('/').includes('..')) throw new EngineError(`${file}: ${what} must stay inside the country folder`, file);
}
