import type { Reform } from '../parameters/types';
import { CompiledModel, CountryModel } from './model';
import { defaultCode, outputArrayType } from './compiler/formula';
import { monthsOf, parsePeriod } from './periods';
import { isFlow, resolveRead } from './variables';
import { PopulationIndex } from './population-index';
import { COLUMN_TYPES } from './buffer-pool';
import { ColumnStore } from './column-store';
import { Column, EngineError, InputValues, Population, VariableSpec } from './types';
import { convertRead, Plan, runPlan } from './plan';
import { chunkRanges, runPlanInChunks } from './chunked';
import { strings } from './strings';
import { mergeOverrides } from './branches';

/**
 * Persons per chunk. Memory holds one chunk's intermediates at a time; each chunk costs every
 * kernel a call, and a kernel reused from its twin month a population of the changed households.
 * About 32k: the US household_net_income on 1M people ran 6% faster than with 16k (out-of-process
 * pairs, 28 November 2026; smaller chunks' better cache use did not make up for their calls), the
 * UK the same, and the bench's peak RSS did not move.
 */
export const DEFAULT_CHUNK_PEOPLE = 32768;

export interface SimulationOptions {
  reform?: Reform;
}

/** Branches within branches beyond this depth are a formula that never stops branching. */
export const MAX_BRANCH_DEPTH = 8;

/** What a branch shares with the simulation it comes from. */
interface BranchOrigin {
  compiled: CompiledModel;
  index: PopulationIndex;
  inputs: ColumnStore;
  overrides: Map<string, number>;
  sources: Map<string, Source>;
  depth: number;
}

/** A variable of a branch that takes another variable's values from an enclosing simulation. */
interface Source {
  variable: string;
  from: Simulation;
}


const codesBySpec = new WeakMap<VariableSpec, Map<string, number>>();

/** Code of each possible value of an enum variable. */
function enumCodes(spec: VariableSpec): Map<string, number> {
  let codes = codesBySpec.get(spec);
  if (!codes) {
    codes = new Map(spec.possible_values!.map((v, i) => [v, i]));
    codesBySpec.set(spec, codes);
  }
  return codes;
}


/**
 * One population under one model (and reform). Columns are computed on demand in dependency
 * order and memoised per (variable, period); supplied inputs replace formulas.
 */
export class Simulation {
  readonly compiled: CompiledModel;
  readonly index: PopulationIndex;
  private readonly inputs: ColumnStore;
  private readonly computed = new ColumnStore();
  private readonly inProgress = new Set<string>();
  /** Variables a branch fixes (value as stored) on every row and period; empty for a simulation itself. */
  private readonly overrides: Map<string, number>;
  private readonly sources: Map<string, Source>;
  private readonly depth: number;
  private readonly branches = new Map<string, Simulation>();

  constructor(
    readonly model: CountryModel,
    readonly population: Population,
    options: SimulationOptions = {},
    origin?: BranchOrigin,
  ) {
    this.compiled = origin?.compiled ?? model.compiled(options.reform);
    this.index = origin?.index ?? new PopulationIndex(population, model.personEntity().key);
    this.inputs = origin?.inputs ?? new ColumnStore();
    this.overrides = origin?.overrides ?? new Map();
    this.sources = origin?.sources ?? new Map();
    this.depth = origin?.depth ?? 0;
  }

  /**
   * The branch of this simulation named by `key` (core/branches.ts): the same population and
   * inputs, its own computed values, some variables fixed and possibly other rules. Kept while
   * the inputs stay the same, so every formula asking for it shares its work.
   */
  branch(key: string): Simulation {
    let b = this.branches.get(key);
    if (!b) {
      if (this.depth >= MAX_BRANCH_DEPTH) {
        throw new EngineError(`branches nested ${MAX_BRANCH_DEPTH} deep: a branch whose formula asks for the same branch again never ends (${key})`);
      }
      const { source, spec } = this.compiled.branch(key);
      // The baseline law inside a baseline simulation, with nothing fixed: the simulation itself.
      if (source === this.compiled && spec.set.length === 0 && spec.from.length === 0) return this;
      // The inner branch's changes win over the enclosing ones, whichever kind they are.
      const overrides = mergeOverrides(this.overrides, spec.set);
      const sources = new Map(this.sources);
      for (const [name] of spec.set) sources.delete(name);
      for (const [name, variable] of spec.from) {
        overrides.delete(name);
        sources.set(name, { variable, from: this });
      }
      b = new Simulation(this.model, this.population, {}, { compiled: source, index: this.index, inputs: this.inputs, overrides, sources, depth: this.depth + 1 });
      this.branches.set(key, b);
    }
    return b;
  }

  count(entity: string): number {
    return this.index.count(entity);
  }

  /** Turn external values (numbers, booleans, enum names) into a column of the variable's type. */
  encode(name: string, values: InputValues): Column {
    const spec = this.model.variable(name);
    const n = this.count(spec.entity);
    if (values.length !== n) throw new EngineError(`${name}: ${values.length} values given for ${n} ${spec.entity} rows`);
    const Type = COLUMN_TYPES[outputArrayType(spec)];
    // Numeric columns from typed arrays (microdata, chunks): one of the column's own type is used as
    // it is (kernels never write their inputs), others convert in one native copy.
    if ((spec.type === 'float' || spec.type === 'int') && ArrayBuffer.isView(values)) {
      const col = values instanceof Type ? (values as Column) : new Type(n);
      if (col !== values) col.set(values as ArrayLike<number>);
      if (spec.type === 'float') for (let i = 0; i < n; i++) if (Number.isNaN(col[i])) throw new EngineError(`${name}: expected a number, got NaN`);
      return col;
    }
    // Enum codes and booleans already in the column's own type (microdata prepared once and
    // shared between threads) are checked and used as they are.
    if ((spec.type === 'enum' || spec.type === 'bool') && values instanceof Type) {
      const limit = spec.type === 'bool' ? 2 : spec.possible_values!.length;
      const col = values as Column;
      for (let i = 0; i < n; i++) if (!(col[i] >= 0 && col[i] < limit)) throw new EngineError(`${name}: ${col[i]} is not a valid ${spec.type === 'bool' ? 'boolean' : 'code'} (0 to ${limit - 1})`);
      return col;
    }
    // One loop per type: a million rows of text (a state per household) are looked up without
    // deciding the type again on each.
    const col = new Type(n);
    if (spec.type === 'string') {
      for (let i = 0; i < n; i++) {
        const v = values[i] as unknown;
        if (typeof v !== 'string' && typeof v !== 'number') throw new EngineError(`${name}: expected text, got ${JSON.stringify(v)}`);
        col[i] = strings.code(String(v));
      }
    } else if (spec.type === 'enum') {
      const codes = enumCodes(spec);
      for (let i = 0; i < n; i++) {
        const v = values[i] as unknown;
        const code = typeof v === 'string' ? codes.get(v) ?? -1 : -1;
        if (code < 0) throw new EngineError(`${name}: ${JSON.stringify(v)} is not one of ${spec.possible_values!.join(', ')}`);
        col[i] = code;
      }
    } else if (spec.type === 'bool') {
      for (let i = 0; i < n; i++) {
        const v = values[i] as unknown;
        if (typeof v !== 'boolean' && v !== 0 && v !== 1) throw new EngineError(`${name}: expected true or false, got ${JSON.stringify(v)}`);
        col[i] = v ? 1 : 0;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const v = values[i] as unknown;
        const x = typeof v === 'number' ? v : typeof v === 'boolean' ? Number(v) : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
        if (Number.isNaN(x)) throw new EngineError(`${name}: expected a number, got ${JSON.stringify(v)}`);
        col[i] = x;
      }
    }
    return col;
  }

  /**
   * Supply a variable's values for a period. A year given for a monthly variable is spread over its
   * months (flows) or copied to each (stocks); a month given for a yearly variable sets that year.
   * A typed array of the column's own type (Float64Array for floats, Int32Array for ints) is kept,
   * not copied: do not change it while the simulation is in use.
   */
  setInput(name: string, period: string, values: InputValues): void {
    if (this.depth > 0) throw new EngineError('inputs are set on a simulation, not on one of its branches');
    const spec = this.model.variable(name);
    const p = parsePeriod(period);
    const col = this.encode(name, values);
    this.computed.clear();
    this.branches.clear();
    if (spec.period === 'eternity') this.inputs.set(name, 'eternity', col);
    else if (p.unit === 'eternity') throw new EngineError(`${name} is a ${spec.period} variable: give a ${spec.period}, not eternity`);
    else if (spec.period === 'year') this.inputs.set(name, String(p.year), col);
    else if (p.unit === 'month') this.inputs.set(name, period, col);
    else {
      const perMonth = isFlow(spec) ? Float64Array.from(col, (x) => x / 12) : col;
      for (const m of monthsOf(p.year)) this.inputs.set(name, m, perMonth);
    }
  }

  /** Values of a variable for a period, converted as PolicyEngine does when the period differs from its definition. */
  calculate(name: string, period: string): Column {
    const spec = this.model.variable(name);
    const read = resolveRead(spec, period);
    if (read.how === 'exact') return this.exact(spec, read.periods[0]);
    // Converted reads (months summed for a year, a year split into months) are kept beside the exact ones.
    const key = `${period}~`;
    let c = this.computed.get(name, key);
    if (!c) {
      const cols = read.periods.map((p) => this.exact(spec, p));
      c = convertRead(read.how, cols, new Float64Array(this.count(spec.entity)));
      this.computed.set(name, key, c);
    }
    return c;
  }

  private exact(spec: VariableSpec, period: string): Column {
    const name = spec.name;
    const fixed = this.overrides.get(name);
    const source = fixed === undefined ? this.sources.get(name) : undefined;
    if (source) return source.from.calculate(source.variable, period);
    if (fixed === undefined) {
      const given = this.inputs.get(name, period);
      if (given) return given;
    }
    const done = this.computed.get(name, period);
    if (done) return done;
    if (fixed !== undefined) {
      const col = new COLUMN_TYPES[outputArrayType(spec)](this.count(spec.entity)).fill(fixed);
      this.computed.set(name, period, col);
      return col;
    }
    const key = `${name}@${period}`;
    if (this.inProgress.has(key)) {
      const stack = [...this.inProgress];
      const chain = [...stack.slice(stack.indexOf(key)), key].map((k) => k.split('@')[0]);
      throw new EngineError(`${spec.file}: dependency cycle: ${chain.join(' -> ')}`, spec.file, spec.name);
    }
    const kernel = this.compiled.kernel(spec.name, period);
    let col: Column;
    if (!kernel) {
      col = new COLUMN_TYPES[outputArrayType(spec)](this.count(spec.entity));
      const d = defaultCode(spec);
      if (d !== 0) col.fill(d);
    } else {
      this.inProgress.add(key);
      try {
        const deps = kernel.deps;
        const cols: Column[] = new Array(deps.length);
        for (let i = 0; i < deps.length; i++) {
          const d = deps[i];
          cols[i] = d.branch ? this.branch(d.branch).calculate(d.name, d.period) : this.calculate(d.name, d.period);
        }
        col = kernel.run(cols, this.index);
      } finally {
        this.inProgress.delete(key);
      }
    }
    this.computed.set(name, period, col);
    return col;
  }

  /** The execution plan for `names` at `period` given this simulation's inputs. */
  plan(names: string[], period: string): Plan {
    return this.compiled.plan(names, period, this.inputs.keys());
  }

  /** A column given with setInput (at the variable's own period), if any. */
  input(name: string, period: string): Column | undefined {
    return this.inputs.get(name, period);
  }

  /**
   * Compute several variables through an execution plan (core/plan.ts): constants folded,
   * single-reader formulas fused into their readers, every intermediate column recycled as soon
   * as the last formula reading it has run. A population larger than two chunks whose groups are
   * contiguous runs chunk by chunk (`chunkPeople` persons, cut at household boundaries; 0: never),
   * which keeps each formula's columns in cache and memory to one chunk's intermediates. Returns
   * the requested columns; intermediates are not kept (use calculate for memoised access).
   */
  computeReleasing(names: string[], period: string, options: { chunkPeople?: number } = {}): Map<string, Column> {
    const plan = this.plan(names, period);
    const inputs = plan.inputs.map((i) => this.inputs.get(i.name, i.period)!);
    const chunkPeople = options.chunkPeople ?? DEFAULT_CHUNK_PEOPLE;
    const persons = this.count(this.model.personEntity().key);
    // Population statistics (deciles, medians) need every row at once.
    const ranges = !plan.global && chunkPeople > 0 && persons > 2 * chunkPeople ? chunkRanges(this.model, this.population, chunkPeople) : null;
    return ranges ? runPlanInChunks(plan, this.model, this.population, inputs, ranges) : runPlan(plan, this.index, inputs);
  }

  /**
   * Several variables at one period, as calculate gives them. A computation this compiled model has
   * seen a few times (same targets, period and given inputs: the household API's repeated request
   * shapes) runs through a cached execution plan (constants folded, most formulas fused); others
   * are evaluated lazily. Both give the same values (test/core/plan.test.ts).
   */
  calculateMany(names: string[], period: string): Map<string, Column> {
    const plan = this.depth === 0 ? this.compiled.warmPlan(names, period, this.inputs.keys()) : null;
    if (!plan) return new Map(names.map((n) => [n, this.calculate(n, period)]));
    return runPlan(plan, this.index, plan.inputs.map((i) => this.inputs.get(i.name, i.period)!));
  }

  /** Column values as JSON-ready values: enum names, booleans, numbers. */
  decode(name: string, column: Column): (number | boolean | string)[] {
    const spec = this.model.variable(name);
    if (spec.type === 'enum') return Array.from(column, (c) => spec.possible_values![c]);
    if (spec.type === 'string') return Array.from(column, (c) => strings.text(c));
    if (spec.type === 'bool') return Array.from(column, (c) => c !== 0);
    return Array.from(column);
  }
}
