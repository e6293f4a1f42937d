import type { Column, VariableSpec } from '../types';
import { EngineError } from '../types';
import { expressionAt, outputArrayType } from './formula';
import { bodyBounds, compileVariableBody } from './body';
import type { Bounds } from './ir';
import { CompileError, KernelBuilder, KernelDep, KernelFactory, NeedMaterialize, PopulationView } from './builder';
import { CompileEnv, ExprCompiler, Fusion, Scope } from './expr';
import { literal } from './ir';
import { runtime } from './runtime';

export interface Kernel {
  variable: string;
  period: string;
  entity: string;
  deps: KernelDep[];
  /** The value on every row when the formula does not depend on the row (else null). */
  constant: number | null;
  /** Generated JavaScript (kept for debugging and `fiscus explain`). */
  source: string;
  /** Reads statistics of the whole population: its values change if the rows are split. */
  global: boolean;
  /** The constant tables the source refers to (K[i]): with the source, what the kernel computes. */
  consts: readonly unknown[];
  /** Bounds every row's value keeps, where the formula shows them (`max(0, x)`): readers fold with them. */
  bounds: Bounds;
  /** Flows it adds up from their months in its loop (`name@year`): a plan may give it the year's column instead. */
  sums: string[];
  run(cols: Column[], pop: PopulationView): Column;
}

/**
 * Kernel factories by generated code. A reform changes a few parameters, so most of its kernels
 * have the baseline's code with other constants (K): they reuse the baseline's factory, and V8 its
 * parsed and optimised code, instead of compiling the whole model again (a reformed UK model's
 * first run cost about 0.4 s more than the baseline's). The months of a monthly variable do the
 * same. Bounded: cleared when it grows large.
 */
const factories = new Map<string, KernelFactory>();
const MAX_FACTORIES = 20000;

function factoryOf(code: string): KernelFactory {
  let f = factories.get(code);
  if (!f) {
    f = new Function('K', 'H', code) as KernelFactory;
    if (factories.size >= MAX_FACTORIES) factories.clear();
    factories.set(code, f);
  }
  return f;
}

function compileWith(spec: VariableSpec, period: string, env: CompileEnv, text: string, arrays: ReadonlySet<string>, fusion: Fusion | null): Kernel {
  const b = new KernelBuilder((inner, outer) => env.isWithin(inner, outer));
  const c = new ExprCompiler(b, env, arrays, fusion);
  const scope: Scope = { entity: spec.entity, idx: 'i', main: true, locals: new Map() };
  const body = compileVariableBody(c, b, env, spec, text, scope);
  const value = body.row === null ? literal(body.constant!) : body.row.code;
  const source = b.source(spec.entity, outputArrayType(spec), body.mask, body.maskEnd, literal(body.maskDefault), value);
  let fn: (C: Column[], P: PopulationView) => Column;
  try {
    // The source URL names the variable in profiles, stack traces and V8 traces. It leaves the
    // period out: a monthly variable whose months compile to the same code (other constants in K)
    // then shares one factory, and V8 parses and optimises its loops once, not once a month
    // (US household_net_income, 1M people: 3.0-3.6 s -> 2.8 s).
    const code = `${source}\n//# sourceURL=fiscus:${spec.name}`;
    fn = factoryOf(code)(b.consts, runtime);
  } catch (err) {
    throw new CompileError(`internal code generation error: ${(err as Error).message}`);
  }
  return {
    variable: spec.name,
    period,
    entity: spec.entity,
    deps: b.deps,
    constant: body.constant,
    source,
    global: b.global,
    consts: b.consts,
    bounds: bodyBounds(body, spec),
    sums: [...b.sums],
    run: fn,
  };
}

/**
 * Compile one variable for one period; null when it has no formula there (an input). With
 * `fusion` (from an execution plan) known-constant references become literals and single-reader
 * variables are computed inline.
 */
export function compileVariable(spec: VariableSpec, period: string, env: CompileEnv, fusion: Fusion | null = null): Kernel | null {
  try {
    const text = expressionAt(spec, period, env);
    if (text === null) return null;
    // Locals are main-loop values unless a pre-loop (an aggregate's loop) reads them: those are
    // found one at a time and compiled again as arrays filled by pre-loops of their own.
    const arrays = new Set<string>();
    for (;;) {
      try {
        return compileWith(spec, period, env, text, arrays, fusion);
      } catch (err) {
        if (!(err instanceof NeedMaterialize) || arrays.has(err.message)) throw err;
        arrays.add(err.message);
      }
    }
  } catch (err) {
    if (err instanceof EngineError) throw err;
    const msg = err instanceof CompileError ? err.message : `${(err as Error).name}: ${(err as Error).message}`;
    throw new EngineError(`${spec.file}: variable ${spec.name} (${period}): ${msg}`, spec.file, spec.name);
  }
}
