import { CompileError, KernelBuilder } from './builder';
import type { CompileEnv, ExprCompiler, Scope } from './expr';
import { arrayType, IR, ScalarType } from './ir';
import type { MathNode } from './parser';
import { asBit, type Node } from './syntax';

/** Aggregate over the members of `target` (a group containing the scope's entity, or the scope's own group). */
export function compileAggregate(c: ExprCompiler, b: KernelBuilder, env: CompileEnv, fn: string, target: string, args: MathNode[], scope: Scope): IR {
  const te = env.entities.get(target)!;
  if (te.isPerson) throw new CompileError(`${fn}() aggregates over a group's members: in a ${target} formula name the group, e.g. benunit.${fn}(...)`);
  if (target !== scope.entity && !env.isWithin(scope.entity, target)) {
    throw new CompileError(`${target}.${fn}() cannot be used in a ${scope.entity} formula: ${scope.entity} is not inside ${target}`);
  }
  const limits: Record<string, [number, number]> = { sum: [1, 2], count: [0, 1], any: [1, 1], all: [1, 1], max: [1, 2], min: [1, 2], first: [1, 1], rank: [1, 2] };
  const [lo, hi] = limits[fn];
  if (args.length < lo || args.length > hi) throw new CompileError(`${fn}() takes ${lo === hi ? lo : `${lo} or ${hi}`} argument(s), got ${args.length}`);
  const members = new Set<string>();
  for (const a of args) c.forceLocals(a, scope);
  for (const a of args) for (const e of memberLevel(env, a, { ...scope, entity: target })) members.add(e);
  const person = [...env.entities.values()].find((e) => e.isPerson)!.key;
  const member = members.size === 1 ? [...members][0] : person;
  if (fn === 'rank' && member !== person) throw new CompileError('rank() orders the persons of a group');
  const inner: Scope = { entity: member, idx: b.temp('j'), main: false, locals: scope.locals };
  const n = b.count(member);
  const m = b.map(member, target);
  const nT = b.count(target);
  const out = b.temp('a');
  const j = inner.idx;
  // Each argument is compiled once (compiling registers its columns and pre-loops).
  const compiled = new Map<MathNode, ReturnType<ExprCompiler['scalar']>>();
  const scalarOf = (a: MathNode) => compiled.get(a) ?? compiled.set(a, c.scalar(a, inner)).get(a)!;
  const arg0 = args.length > 0 ? scalarOf(args[0]) : null;
  const rowOf = (a: MathNode) => c.toRow(scalarOf(a), inner);
  // Aggregates of a constant that is the empty group's value too need no loop (plans make many
  // inputs nobody gave, all zeros, into constants).
  // A sum, max or min of zeros is zero whatever the condition: members it skips add nothing, and
  // a group with none has zero too.
  if (fn !== 'first' && fn !== 'rank' && (args.length === 1 || fn === 'sum' || fn === 'max' || fn === 'min')) {
    const only = arg0!;
    if (only.k === 'const') {
      const v = Number(only.v);
      if ((fn === 'sum' || fn === 'max' || fn === 'min') && v === 0) return { k: 'const', v: 0 };
      if ((fn === 'any' || fn === 'count') && !v && args.length === 1) return { k: 'const', v: 0 };
      if (fn === 'all' && v && args.length === 1) return { k: 'const', v: 1 };
    }
  }
  // A condition no member meets (a constant false) leaves every group empty: its sum, max or min is 0.
  if ((fn === 'sum' || fn === 'max' || fn === 'min') && args.length === 2) {
    const cond = scalarOf(args[1]);
    if (cond.k === 'const' && !cond.v) return { k: 'const', v: 0 };
  }
  const condOf = (a: MathNode | undefined) => (a ? `(${rowOf(a).code})` : 'true');
  // sum, count, any, all, max and min: one accumulator array, filled by a loop over the members.
  // The same aggregate twice in a formula (count(is_adult) in two places) is computed once.
  const simple = (t: ScalarType, type: string, fill: string, body: (acc: string) => string, post?: (acc: string) => string): IR => {
    const key = `${fn}|${m}|${body('@').replace(new RegExp(`\\b${j}\\b`, 'g'), '#')}`;
    let acc = b.aggregates.get(key);
    if (acc === undefined) {
      acc = out;
      b.aggregates.set(key, acc);
      b.loop([acc], `const ${acc} = ${b.scratch(type, nT, acc, fill)};`, n, j, body(acc), post?.(acc) ?? '', { entity: target, map: m });
    }
    return { k: 'row', code: c.project(acc, target, scope, `${fn}()`), entity: scope.entity, t };
  };
  switch (fn) {
    case 'sum': {
      const cond = condOf(args[1]), x = rowOf(args[0]).code;
      return simple('num', 'Float64Array', '0', (a) => `if (${cond}) ${a}[${m}[${j}]] += ${x};`);
    }
    case 'count': {
      const cond = condOf(args[0]);
      return simple('num', 'Float64Array', '0', (a) => `if (${cond}) ${a}[${m}[${j}]] += 1;`);
    }
    case 'any': {
      const cond = condOf(args[0]);
      return simple('bool', 'Uint8Array', '0', (a) => `if (${cond}) ${a}[${m}[${j}]] = 1;`);
    }
    case 'all': {
      const cond = condOf(args[0]);
      return simple('bool', 'Uint8Array', '1', (a) => `if (!${cond}) ${a}[${m}[${j}]] = 0;`);
    }
    case 'max':
    case 'min': {
      const x = rowOf(args[0]).code, cond = condOf(args[1]);
      const init = fn === 'max' ? '-Infinity' : 'Infinity';
      const better = fn === 'max' ? '>' : '<';
      const v = b.temp('v');
      const k = b.temp('k');
      return simple(
        'num',
        'Float64Array',
        init,
        (a) => `if (${cond}) { const ${v} = ${x}; if (${v} ${better} ${a}[${m}[${j}]]) ${a}[${m}[${j}]] = ${v}; }`,
        // A group with no (matching) member aggregates to 0, as PolicyEngine's group max/min do on empty groups.
        (a) => `for (let ${k} = 0; ${k} < ${nT}; ${k}++) if (${a}[${k}] === ${init}) ${a}[${k}] = 0;`,
      );
    }
    case 'first': {
      const x = rowOf(args[0]);
      const t = x.t;
      const seen = b.temp('s');
      b.loop(
        [out, seen],
        `const ${out} = ${b.scratch(arrayType(x.t, x.enumInfo), nT, out, '0')}; const ${seen} = ${b.scratch('Uint8Array', nT, seen, '0')};`,
        n,
        j,
        `const g = ${m}[${j}]; if (!${seen}[g]) { ${seen}[g] = 1; ${out}[g] = ${x.t === 'bool' ? asBit(x.code) : x.code}; }`,
      );
      return { k: 'row', code: c.project(out, target, scope, `${fn}()`), entity: scope.entity, t, enumInfo: x.enumInfo };
    }
    case 'rank': {
      if (scope.entity !== person) throw new CompileError('rank() gives a position per person: use it in a person formula');
      const key = arg0!;
      if (key.k === 'const') {
        // Equal keys rank by row order: a running count of qualifying members per group, one pass.
        const seen = b.temp('r');
        b.loop(
          [seen, out],
          `const ${seen} = ${b.scratch('Int32Array', nT, seen, '0')};\nconst ${out} = ${b.scratch('Int32Array', n, out)};`,
          n,
          j,
          `${out}[${j}] = ${condOf(args[1])} ? ${seen}[${m}[${j}]]++ : -1;`,
        );
      } else {
        const keys = b.temp('r'), cond = b.temp('r');
        b.loop(
          [keys, cond],
          `const ${keys} = ${b.scratch('Float64Array', n, keys)};\nconst ${cond} = ${args[1] ? b.scratch('Uint8Array', n, cond) : 'null'};`,
          n,
          j,
          `${keys}[${j}] = ${rowOf(args[0]).code};${args[1] ? ` ${cond}[${j}] = ${asBit(condOf(args[1]))};` : ''}`,
        );
        b.stage([out], `const ${out} = H.rank(${keys}, ${cond}, ${m}, P.ordered(), ${b.scratch('Int32Array', n, out)});`);
      }
      return { k: 'row', code: `${out}[${scope.idx}]`, entity: scope.entity, t: 'num' };
    }
    default:
      throw new CompileError(`unknown aggregation ${fn}`);
  }
}

/** Entities strictly below the scope's entity read (unaggregated) by an expression. */
export function memberLevel(env: CompileEnv, n: MathNode, scope: Scope): string[] {
  const found = new Set<string>();
  const visit = (node: Node, skip: boolean) => {
    if (node.type === 'FunctionNode') {
      const fn = node.fn as Node;
      const isAgg = (fn.type === 'SymbolNode' && ['sum', 'count', 'any', 'all', 'first'].includes(fn.name as string)) || fn.type === 'AccessorNode';
      for (const a of node.args as Node[]) visit(a, skip || isAgg);
      return;
    }
    if (node.type === 'SymbolNode' && !skip) {
      const name = node.name as string;
      const local = scope.locals.get(name);
      let entity: string | undefined;
      if (local) entity = local.kind === 'ir' || local.kind === 'lazy' ? undefined : local.entity;
      else if (!(name in env.aliases)) entity = env.variables.get(name)?.entity;
      if (entity && entity !== scope.entity && env.isWithin(entity, scope.entity)) found.add(entity);
      return;
    }
    if (node.type === 'AccessorNode') {
      visit(node.object as Node, skip);
      for (const d of (node.index as Node).dimensions as Node[]) visit(d, skip);
      return;
    }
    for (const key of ['args', 'content', 'condition', 'trueExpr', 'falseExpr']) {
      const v = node[key];
      if (Array.isArray(v)) v.forEach((c) => visit(c as Node, skip));
      else if (v && typeof v === 'object') visit(v as Node, skip);
    }
  };
  visit(n as unknown as Node, false);
  return [...found];
}
