/**
 * Branches: a variable evaluated inside one simulation as if some variables had other values
 * (`branch(x, tax_unit_itemizes = true)`) or under other rules (`branch(eitc, rules = "pre_arpa")`).
 * A branch is named by a canonical key, so every formula asking for the same branch shares it.
 *
 * Rule sets are YAML files in a country's `rule_sets/` folder: parameters pinned to their value at
 * a date over a period, then explicit values, both applied on top of the simulation's own rules.
 * `baseline` is the country's baseline law (no reform).
 */
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import type { ParameterTree } from '../parameters/tree';
import { valueAt } from '../parameters/series';
import type { Reform } from '../parameters/types';
import { EngineError } from './types';
import { readYaml } from './yaml';

export interface BranchSpec {
  /** A rule set name (`baseline` or a file in rule_sets/), or null for the simulation's own rules. */
  rules: string | null;
  /** Variables with one value (as stored: enum code, 1/0, string code, number) on every row and period. */
  set: [string, number][];
  /** Variables taking another variable's values from the enclosing simulation ([name, source]). */
  from: [string, string][];
}

/** The canonical key of a branch: same spec, same key. */
export function branchKey(spec: BranchSpec): string {
  const byName = <T>(xs: [string, T][]) => [...xs].sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return JSON.stringify({ rules: spec.rules, set: byName(spec.set), from: byName(spec.from) });
}

const parsed = new Map<string, BranchSpec>();
export function parseBranchKey(key: string): BranchSpec {
  let spec = parsed.get(key);
  if (!spec) {
    const raw = JSON.parse(key) as Partial<BranchSpec>;
    spec = { rules: raw.rules ?? null, set: raw.set ?? [], from: raw.from ?? [] };
    parsed.set(key, spec);
  }
  return spec;
}

/** The names a branch changes, by a constant or by another variable's values. */
export function changedNames(spec: BranchSpec): Set<string> {
  return new Set([...spec.set.map(([n]) => n), ...spec.from.map(([n]) => n)]);
}

/** Overrides of a branch taken from inside another branch: the inner ones win. */
export function mergeOverrides(outer: ReadonlyMap<string, number>, inner: [string, number][]): Map<string, number> {
  const out = new Map(outer);
  for (const [name, value] of inner) out.set(name, value);
  return out;
}

export interface RuleSet {
  name: string;
  file: string;
  description: string;
  pin: { path: string; at: string; from: string; to: string }[];
  set: Reform;
}

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';
const ruleSetSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['description'],
  properties: {
    description: { type: 'string' },
    reference: {},
    pin: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['path', 'at', 'from', 'to'],
        properties: { path: { type: 'string' }, at: { type: 'string', pattern: DATE }, from: { type: 'string', pattern: DATE }, to: { type: 'string', pattern: DATE } },
      },
    },
    set: { type: 'object' },
  },
} as const;
const validateRuleSet = new Ajv({ allErrors: false }).compile(ruleSetSchema);

/** The rule sets of the country folder and its modules (`rule_sets/*.yaml`), by file name. */
export function loadRuleSets(folders: string[]): Map<string, RuleSet> {
  const out = new Map<string, RuleSet>();
  for (const folder of folders) {
    const dir = path.join(folder, 'rule_sets');
    if (!fs.existsSync(dir)) continue;
    for (const entry of fs.readdirSync(dir).sort()) {
      if (!/\.ya?ml$/.test(entry)) continue;
      const file = path.join(dir, entry);
      const name = entry.replace(/\.ya?ml$/, '');
      if (name === 'baseline') throw new EngineError(`${file}: "baseline" is the name of the baseline law and cannot be a rule set`, file);
      const prev = out.get(name);
      if (prev) throw new EngineError(`${file}: rule set ${name} is already defined in ${prev.file}`, file);
      const raw = readYaml(file);
      if (!validateRuleSet(raw)) {
        const e = validateRuleSet.errors![0];
        throw new EngineError(`${file}: ${e.instancePath || '/'} ${e.message}`, file);
      }
      const r = raw as { description: string; pin?: RuleSet['pin']; set?: Reform };
      for (const p of r.pin ?? []) if (p.to < p.from) throw new EngineError(`${file}: pin of ${p.path} ends (${p.to}) before it starts (${p.from})`, file);
      out.set(name, { name, file, description: r.description, pin: r.pin ?? [], set: r.set ?? {} });
    }
  }
  return out;
}

/** The parameters of a rule set applied to a tree: pinned leaves first, then explicit values. */
export function applyRuleSet(tree: ParameterTree, rules: RuleSet): ParameterTree {
  const reform: Reform = {};
  for (const pin of rules.pin) {
    if (!tree.has(pin.path)) throw new EngineError(`${rules.file}: pin: no parameter ${pin.path}`, rules.file);
    for (const [leafPath] of tree.leaves()) {
      if (leafPath !== pin.path && !leafPath.startsWith(`${pin.path}.`) && !leafPath.startsWith(`${pin.path}[`)) continue;
      const value = valueAt(tree.seriesOf(leafPath), pin.at);
      if (value !== undefined) reform[leafPath] = { [`${pin.from}.${pin.to}`]: value };
    }
  }
  for (const [p, changes] of Object.entries(rules.set)) {
    const isMap = typeof changes === 'object' && changes !== null && !Array.isArray(changes);
    reform[p] = isMap ? { ...(reform[p] ?? {}), ...changes } : (changes as Reform[string]);
  }
  try {
    return tree.withReform(reform);
  } catch (err) {
    throw new EngineError(`${rules.file}: ${(err as Error).message}`, rules.file);
  }
}
