import { parse, MathNode } from './parser';
import type { VariableSpec } from '../types';
import { parsePeriod } from '../periods';
import { CompileError } from './builder';
import { strings } from '../strings';
import type { CompileEnv } from './expr';

const parsed = new Map<string, MathNode>();

/**
 * Newlines are whitespace (YAML folding keeps them before more-indented lines, and mathjs would
 * read them as statement ends): statements end with `;`. `#` starts a comment to the end of a line.
 */
export function normalizeExpression(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/#.*$/, ''))
    .join(' ')
    .trim();
}

export function parseExpression(text: string): MathNode {
  let node = parsed.get(text);
  if (!node) {
    try {
      node = parse(normalizeExpression(text));
    } catch (err) {
      throw new CompileError(`cannot parse "${text}": ${(err as Error).message}`);
    }
    parsed.set(text, node);
  }
  return node;
}

export function outputArrayType(spec: VariableSpec): string {
  if (spec.type === 'float') return 'Float64Array';
  if (spec.type === 'int') return 'Int32Array';
  if (spec.type === 'bool') return 'Uint8Array';
  if (spec.type === 'string') return 'Int32Array';
  return (spec.possible_values?.length ?? 0) > 255 ? 'Int32Array' : 'Uint8Array';
}

/** The default value as stored in a column (enum: its code). */
export function defaultCode(spec: VariableSpec): number {
  if (spec.type === 'enum') return spec.default === undefined ? 0 : spec.possible_values!.indexOf(String(spec.default));
  if (spec.type === 'bool') return spec.default ? 1 : 0;
  if (spec.type === 'string') return strings.code(spec.default === undefined ? '' : String(spec.default));
  return typeof spec.default === 'number' ? spec.default : 0;
}

/** The expression a variable computes at a period, or null when it is an input there. */
export function expressionAt(spec: VariableSpec, period: string, env: CompileEnv): string | null {
  if (spec.formula !== undefined) {
    if (typeof spec.formula === 'string') return spec.formula;
    const p = parsePeriod(period);
    const start = p.unit === 'eternity' ? '0000-01-01' : `${p.year}-${String(p.month || 1).padStart(2, '0')}-01`;
    const dates = Object.keys(spec.formula).filter((d) => d <= start).sort();
    return dates.length ? spec.formula[dates[dates.length - 1]] : null;
  }
  if (spec.adds === undefined && spec.subtracts === undefined) return null;
  // Terms of the variable's own (or a containing) entity are read directly; terms of member
  // entities are summed, one aggregation per member entity so a long list is one pass.
  const direct: string[] = [];
  const byMember = new Map<string, string[]>();
  const add = (list: string[] | string | undefined, sign: string) => {
    for (const name of namesOf(list, env)) {
      const other = env.variables.get(name);
      if (!other) throw new CompileError(`adds/subtracts names unknown variable "${name}"`);
      if (other.entity === spec.entity || env.isWithin(spec.entity, other.entity)) direct.push(`${sign} ${name}`);
      else if (env.isWithin(other.entity, spec.entity)) byMember.set(other.entity, [...(byMember.get(other.entity) ?? []), `${sign} ${name}`]);
      else throw new CompileError(`adds/subtracts: ${name} is a ${other.entity} variable, unrelated to ${spec.entity}`);
    }
  };
  add(spec.adds, '+');
  add(spec.subtracts, '-');
  const parts = [...direct, ...[...byMember.values()].map((terms) => `+ sum(0 ${terms.join(' ')})`)];
  return parts.length ? `0 ${parts.join(' ')}` : '0';
}

function namesOf(list: string[] | string | undefined, env: CompileEnv): string[] {
  if (list === undefined) return [];
  if (Array.isArray(list)) return list;
  const v = env.param(list);
  if (!Array.isArray(v)) throw new CompileError(`parameter ${list} (used in adds/subtracts) is not a list of variables`);
  return v.map(String);
}
