/**
 * Statistics over every row of an entity in the population being computed: weighted medians,
 * quantiles and ranks (income deciles, relative poverty lines). They make a kernel "global": its
 * rows depend on other rows, so a plan holding one is never run in chunks.
 */
import { CompileError, KernelBuilder } from './builder';
import type { ExprCompiler, Scope } from './expr';
import { IR } from './ir';
import type { MathNode } from './parser';

export const POPULATION_FUNCTIONS = new Set(['population_median', 'population_quantile', 'population_rank']);

export function compilePopulationStat(c: ExprCompiler, b: KernelBuilder, fn: string, args: MathNode[], scope: Scope): IR {
  const withQ = fn === 'population_quantile';
  const min = withQ ? 2 : 1;
  if (args.length < min || args.length > min + 1) throw new CompileError(`${fn}(x${withQ ? ', q' : ''}[, weight]) takes ${min} or ${min + 1} arguments`);
  let q = 0.5;
  if (withQ) {
    const ir = c.scalar(args[1], scope);
    if (ir.k !== 'const' || typeof ir.v !== 'number' || ir.v < 0 || ir.v > 1) throw new CompileError(`${fn}(): q must be a constant from 0 to 1`);
    q = ir.v;
  }
  const weightArg = args[min];
  const j = b.temp('j');
  const inner: Scope = { entity: scope.entity, idx: j, main: false, locals: scope.locals };
  const value = (a: MathNode) => {
    const r = c.toRow(c.scalar(a, inner), inner);
    if (r.t === 'enum' || r.t === 'str') throw new CompileError(`${fn}() takes numbers, got "${a.toString()}"`);
    return r.code;
  };
  const x = value(args[0]);
  const w = weightArg ? value(weightArg) : '1';
  const n = b.count(scope.entity);
  const xs = b.temp('px');
  const ws = b.temp('pw');
  b.loop([xs, ws], `const ${xs} = ${b.scratch('Float64Array', n, xs)}; const ${ws} = ${b.scratch('Float64Array', n, ws)};`, n, j, `${xs}[${j}] = ${x}; ${ws}[${j}] = ${w};`);
  b.global = true;
  if (fn === 'population_rank') {
    const r = b.temp('pr');
    b.stage([r], `const ${r} = H.weightedRank(${xs}, ${ws}, ${b.scratch('Float64Array', n, r)});`);
    return { k: 'row', code: `${r}[${scope.idx}]`, entity: scope.entity, t: 'num' };
  }
  const v = b.temp('pq');
  b.stage([v], `const ${v} = H.weightedQuantile(${xs}, ${ws}, ${q});`);
  return { k: 'row', code: v, entity: scope.entity, t: 'num' };
}
