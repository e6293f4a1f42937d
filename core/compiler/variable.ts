import { parse, MathNode } from './parser';
import type { Column, VariableSpec } from '../types';
import { EngineError } from '../types';
import { parsePeriod } from '../periods';
import { CompileError, KernelBuilder, KernelDep, KernelFactory, NeedMaterialize, PopulationView } from './builder';
import { CompileEnv, ExprCompiler, Scope } from './expr';
import { EnumInfo, IR, literal } from './ir';
import { runtime } from './runtime';

export interface Kernel {
  variable: string;
  period: string;
  entity: string;
  deps: KernelDep[];
  /** Generated JavaScript (kept for debugging and `fiscus explain`). */
  source: string;
  run(cols: Column[], pop: PopulationView): Column;
}

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

function parseExpression(text: string): MathNode {
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
  if (spec.type === 'string') return 0;
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
  return v;
}

function compileWith(spec: VariableSpec, period: string, env: CompileEnv, text: string, inline: boolean): Kernel {
  const b = new KernelBuilder();
  const c = new ExprCompiler(b, env, inline);
  const scope: Scope = { entity: spec.entity, idx: 'i', main: true, locals: new Map() };
  const hint: EnumInfo | undefined = spec.type === 'enum' ? { variable: spec.name, values: spec.possible_values! } : undefined;
  let mask: string | null = null;
  if (spec.defined_for) {
    const m = env.variables.get(spec.defined_for);
    if (!m) throw new CompileError(`defined_for names unknown variable "${spec.defined_for}"`);
    if (m.type !== 'bool') throw new CompileError(`defined_for variable ${spec.defined_for} must be bool`);
    mask = c.toRow(c.compile(parse(spec.defined_for), scope), scope).code;
  }
  const result: IR = c.compileBody(parseExpression(text), scope, hint);
  const row = c.toRow(result, scope);
  if (spec.type === 'enum') {
    if (row.t !== 'enum') throw new CompileError(`an enum formula must give a value name such as "${spec.possible_values![0]}"`);
    if (row.enumInfo!.values.join() !== spec.possible_values!.join()) {
      throw new CompileError(`the formula gives values of ${row.enumInfo!.variable}, whose possible values differ from ${spec.name}'s`);
    }
  } else if (row.t === 'enum') {
    throw new CompileError(`the formula gives an enum value but ${spec.name} is ${spec.type}`);
  }
  const value = spec.type === 'bool' ? `((${row.code}) ? 1 : 0)` : row.code;
  const source = b.source(spec.entity, outputArrayType(spec), mask, literal(defaultCode(spec)), value);
  let fn: (C: Column[], P: PopulationView) => Column;
  try {
    // The source URL names the kernel in profiles, stack traces and V8 traces.
    fn = (new Function('K', 'H', `${source}\n//# sourceURL=fiscus:${spec.name}@${period}`) as KernelFactory)(b.consts, runtime);
  } catch (err) {
    throw new CompileError(`internal code generation error: ${(err as Error).message}`);
  }
  return {
    variable: spec.name,
    period,
    entity: spec.entity,
    deps: b.deps,
    source,
    run: fn,
  };
}

/** Compile one variable for one period; null when it has no formula there (an input). */
export function compileVariable(spec: VariableSpec, period: string, env: CompileEnv): Kernel | null {
  try {
    const text = expressionAt(spec, period, env);
    if (text === null) return null;
    try {
      return compileWith(spec, period, env, text, true);
    } catch (err) {
      if (!(err instanceof NeedMaterialize)) throw err;
      return compileWith(spec, period, env, text, false);
    }
  } catch (err) {
    if (err instanceof EngineError) throw err;
    const msg = err instanceof CompileError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
    throw new EngineError(`${spec.file}: variable ${spec.name} (${period}): ${msg}`, spec.file, spec.name);
  }
}
