/**
 * Formula functions that read other periods, parameters at other instants, lists held in
 * parameters, and enum names as strings. Each returns null for a name it does not handle.
 */
import type { MathNode } from './parser';
import { CompileError, KernelBuilder } from './builder';
import type { CompileEnv, ExprCompiler, Scope } from './expr';
import { ConstIR, IR, ParamIR, RowIR } from './ir';
import { parse } from './parser';
import { asBit, Node } from './syntax';
import { formatPeriod, parsePeriod } from '../periods';
import { strings } from '../strings';
import { branchKey } from '../branches';
import { compilePopulationStat, POPULATION_FUNCTIONS } from './population-stats';

const MONTHLY = new Set(['sum_months', 'any_month', 'all_months', 'count_months']);

export function compileCall(c: ExprCompiler, b: KernelBuilder, env: CompileEnv, name: string, args: MathNode[], scope: Scope): IR | null {
  const arity = (n: number) => {
    if (args.length !== n) throw new CompileError(`${name}() takes ${n} argument${n === 1 ? '' : 's'}, got ${args.length}`);
  };
  switch (name) {
    case 'this_year':
    case 'first_month':
    case 'last_month': {
      arity(1);
      return c.variable(variableName(args[0], env, name), shiftedPeriod(name, env.period), scope);
    }
    case 'param_at': {
      arity(4);
      return paramAt(c, env, args, scope);
    }
    case 'add': {
      arity(1);
      return c.compile(parse(listSum(c, env, args[0], scope)), scope);
    }
    case 'branch':
      return branch(c, env, args, scope);
    case 'concat': {
      if (args.length < 2) throw new CompileError('concat() joins two or more texts');
      const parts = args.map((a) => {
        const ir = c.scalar(a, scope);
        if (ir.k === 'const' && typeof ir.v === 'string') return String(strings.code(ir.v));
        const r = c.toRow(ir, scope);
        if (r.t !== 'str') throw new CompileError(`concat() joins texts: "${a.toString()}" is not one (use name(x) for an enum)`);
        return r.code;
      });
      return { k: 'row', code: `H.concat(${b.constant(new Map<string, number>())}, [${parts.join(', ')}])`, entity: scope.entity, t: 'str' };
    }
    case 'substr': {
      arity(3);
      const x = c.toRow(c.scalar(args[0], scope), scope);
      if (x.t !== 'str') throw new CompileError(`substr() takes a string first, got "${args[0].toString()}"`);
      const [start, length] = args.slice(1).map((a) => {
        const ir = c.scalar(a, scope);
        if (ir.k !== 'const' || typeof ir.v !== 'number' || !Number.isInteger(ir.v) || ir.v < 0) throw new CompileError(`substr(): "${a.toString()}" must be a constant whole number`);
        return ir.v;
      });
      // Results are cached by input code: a column has few distinct texts.
      return { k: 'row', code: `H.substr(${b.constant(new Map<number, number>())}, ${x.code}, ${start}, ${length})`, entity: x.entity, t: 'str' };
    }
    case 'name': {
      arity(1);
      const x = c.toRow(c.scalar(args[0], scope), scope);
      if (x.t !== 'enum') throw new CompileError(`name() takes an enum, got "${args[0].toString()}"`);
      const table = Int32Array.from(x.enumInfo!.values, (v) => strings.code(v));
      return { k: 'row', code: `${b.constant(table)}[${x.code}]`, entity: x.entity, t: 'str' };
    }
    default:
      if (POPULATION_FUNCTIONS.has(name)) return compilePopulationStat(c, b, name, args, scope);
      if (MONTHLY.has(name)) {
        arity(1);
        return overMonths(c, env, name, args[0], scope);
      }
      return null;
  }
}

function variableName(arg: MathNode, env: CompileEnv, fn: string): string {
  const n = arg as unknown as Node;
  if (n.type !== 'SymbolNode' || !env.variables.has(n.name as string)) throw new CompileError(`${fn}() takes a variable name, got "${arg.toString()}"`);
  return n.name as string;
}

/** The period this_year / first_month / last_month read, from the formula's own period. */
function shiftedPeriod(fn: string, period: string): string {
  const p = parsePeriod(period);
  if (p.unit === 'eternity') throw new CompileError(`${fn}() has no meaning in an eternity formula`);
  if (fn === 'this_year') return String(p.year);
  if (fn === 'first_month') return `${p.year}-01`;
  if (p.unit !== 'month') throw new CompileError('last_month() can only be used in a monthly formula');
  return p.month === 1 ? `${p.year - 1}-12` : formatPeriod({ ...p, month: p.month - 1 });
}

/** sum_months / any_month / all_months / count_months: the expression in each month of the formula's year. */
function overMonths(c: ExprCompiler, env: CompileEnv, fn: string, expr: MathNode, scope: Scope): IR {
  const p = parsePeriod(env.period);
  if (p.unit !== 'year') throw new CompileError(`${fn}() can only be used in a yearly formula`);
  const parts: (ConstIR | RowIR)[] = [];
  for (let m = 1; m <= 12; m++) {
    const ir = c.atPeriod(formatPeriod({ unit: 'month', year: p.year, month: m })).scalar(expr, scope);
    if (ir.k === 'row' && (ir.t === 'enum' || ir.t === 'str')) throw new CompileError(`${fn}() takes a number or a condition, got "${expr.toString()}"`);
    parts.push(ir);
  }
  if (parts.every((x) => x.k === 'const')) {
    const vs = parts.map((x) => Number((x as ConstIR).v));
    const v = fn === 'sum_months' ? vs.reduce((a, x) => a + x, 0) : fn === 'count_months' ? vs.filter((x) => x).length : fn === 'any_month' ? vs.some((x) => x) : vs.every((x) => x);
    return { k: 'const', v };
  }
  const codes = parts.map((x) => c.toRow(x, scope).code);
  const code =
    fn === 'sum_months' ? `(${codes.join(' + ')})`
      : fn === 'count_months' ? `(${codes.map(asBit).join(' + ')})`
        : fn === 'any_month' ? `(${codes.map((x) => `!!${x}`).join(' || ')})`
          : `(${codes.map((x) => `!!${x}`).join(' && ')})`;
  return { k: 'row', code, entity: scope.entity, t: fn === 'any_month' || fn === 'all_months' ? 'bool' : 'num' };
}

/** param_at(PATH, Y, M, D): the parameter at a date given by constant expressions. */
function paramAt(c: ExprCompiler, env: CompileEnv, args: MathNode[], scope: Scope): ParamIR {
  const text = args[0].toString().replace(/\s+/g, '');
  if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z0-9_]+|\[\d+\])*$/.test(text)) throw new CompileError(`param_at() takes a parameter path first, got "${text}"`);
  const first = text.split(/[.[]/)[0];
  const path = env.aliases[first] !== undefined ? env.aliases[first] + text.slice(first.length) : text;
  const parts = args.slice(1).map((a) => {
    const ir = c.scalar(a, scope);
    if (ir.k !== 'const' || typeof ir.v !== 'number' || !Number.isInteger(ir.v)) {
      throw new CompileError(`param_at(): the date must be made of constant whole numbers ("${a.toString()}" is not)`);
    }
    return ir.v;
  });
  const [y, m, d] = parts;
  if (m < 1 || m > 12 || d < 1 || d > 31) throw new CompileError(`param_at(): ${y}-${m}-${d} is not a date`);
  const instant = `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  return { k: 'param', path: `${path}@${instant}`, leaves: [env.paramAt(path, instant)], dims: [] };
}

/** add(LIST): the variables a list parameter names, summed as `adds` sums them, as formula text. */
function listSum(c: ExprCompiler, env: CompileEnv, arg: MathNode, scope: Scope): string {
  const ir = c.compile(arg, scope);
  const list = ir.k === 'param' && ir.dims.length === 0 ? ir.leaves[0] : null;
  if (!Array.isArray(list)) throw new CompileError(`add() takes a parameter holding a list of variable names ("${arg.toString()}" is not one)`);
  const direct: string[] = [];
  const byMember = new Map<string, string[]>();
  for (const item of list) {
    const name = String(item);
    const spec = env.variables.get(name);
    if (!spec) throw new CompileError(`add(${arg.toString()}): unknown variable "${name}"`);
    if (spec.entity === scope.entity || env.isWithin(scope.entity, spec.entity)) direct.push(name);
    else if (env.isWithin(spec.entity, scope.entity)) byMember.set(spec.entity, [...(byMember.get(spec.entity) ?? []), name]);
    else throw new CompileError(`add(${arg.toString()}): ${name} is a ${spec.entity} variable, unrelated to ${scope.entity}`);
  }
  const terms = [...direct, ...[...byMember.values()].map((names) => `sum(${names.join(' + ')})`)];
  return terms.length ? terms.join(' + ') : '0';
}

/** branch(VAR, NAME = VALUE, ..., rules = "SET"): VAR from the branch where those hold. */
function branch(c: ExprCompiler, env: CompileEnv, args: MathNode[], scope: Scope): IR {
  if (args.length < 2) throw new CompileError('branch(VAR, NAME = VALUE, ..., rules = "SET") needs at least one change');
  const target = variableName(args[0], env, 'branch');
  let rules: string | null = null;
  const set: [string, number][] = [];
  const from: [string, string][] = [];
  for (const a of args.slice(1)) {
    const n = a as unknown as Node;
    if (n.type !== 'AssignmentNode') throw new CompileError(`branch(): write each change as NAME = VALUE ("${a.toString()}" is not)`);
    const name = (n.object as Node).name as string;
    const valueNode = n.value as unknown as Node;
    if (name !== 'rules' && valueNode.type === 'SymbolNode' && env.variables.has(valueNode.name as string) && !scope.locals.has(valueNode.name as string)) {
      // NAME = OTHER: NAME takes OTHER's values, as the enclosing simulation computes them.
      const spec = env.variables.get(name);
      const source = env.variables.get(valueNode.name as string)!;
      if (!spec) throw new CompileError(`branch(): unknown variable "${name}"`);
      if (source.entity !== spec.entity || source.type !== spec.type || source.period !== spec.period) {
        throw new CompileError(`branch(): ${name} can take the values of a ${spec.period} ${spec.entity} ${spec.type} variable, not ${source.name}`);
      }
      if (from.some(([k]) => k === name) || set.some(([k]) => k === name)) throw new CompileError(`branch(): ${name} is set twice`);
      from.push([name, source.name]);
      continue;
    }
    const value = c.scalar(n.value as MathNode, scope);
    if (value.k !== 'const') throw new CompileError(`branch(): the value of ${name} must be a constant or a variable`);
    if (name === 'rules') {
      if (typeof value.v !== 'string' || !env.hasRuleSet(value.v)) throw new CompileError(`branch(): rules = ${JSON.stringify(value.v)} is not "baseline" or a rule set of the country`);
      rules = value.v;
      continue;
    }
    const spec = env.variables.get(name);
    if (!spec) throw new CompileError(`branch(): unknown variable "${name}"`);
    if (set.some(([k]) => k === name) || from.some(([k]) => k === name)) throw new CompileError(`branch(): ${name} is set twice`);
    set.push([name, storedValue(name, spec.type, spec.possible_values, value.v)]);
  }
  return c.variable(target, env.period, scope, branchKey({ rules, set, from }));
}

/** A constant as a column of the variable stores it. */
function storedValue(name: string, type: string, values: string[] | undefined, v: number | boolean | string): number {
  if (type === 'enum') {
    const code = typeof v === 'string' ? values!.indexOf(v) : -1;
    if (code < 0) throw new CompileError(`branch(): ${JSON.stringify(v)} is not a value of ${name} (${values!.join(', ')})`);
    return code;
  }
  if (type === 'string') {
    if (typeof v !== 'string') throw new CompileError(`branch(): ${name} is a string variable: give a text`);
    return strings.code(v);
  }
  if (typeof v === 'string') throw new CompileError(`branch(): ${name} is a ${type} variable: give a ${type === 'bool' ? 'true or false' : 'number'}`);
  if (type === 'bool') return v ? 1 : 0;
  return type === 'int' ? Number(v) | 0 : Number(v);
}
