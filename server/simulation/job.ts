/**
 * One job of a simulation: a range of households (the outermost group) computed with the engine,
 * its results copied into the simulation's output columns at the range's rows. Jobs are
 * independent (every group lies within one household), so threads run them in any order; the
 * code here is plain functions, also run on the main thread by tests.
 */
import { BufferPool } from '../../core/buffer-pool';
import { chunkIndex, chunkRanges, releaseChunk } from '../../core/chunked';
import type { CountryModel } from '../../core/model';
import { type Plan, runSteps } from '../../core/plan';
import { type MergedPlan, mergePlans } from '../../core/plan-merge';
import { PopulationIndex } from '../../core/population-index';
import { Simulation } from '../../core/simulation';
import type { Column, Population } from '../../core/types';
import type { Reform } from '../../parameters/types';
import type { MicrodataInput } from '../datasets/microdata';
import { LabourSupplyParams, labourSupplyResponse } from './dynamics';

/** The part of a prepared dataset jobs read (typed arrays over shared memory in threads). */
export interface JobData {
  person: string;
  top: string;
  counts: Record<string, number>;
  membership: Record<string, Int32Array>;
  inputs: MicrodataInput[];
  /** For each entity, the first row of each household (length households + 1). */
  starts: Record<string, Int32Array>;
}

export interface JobTask {
  year: number;
  reform?: Reform;
  /** Behavioural response to apply against the baseline (null: static). */
  labourSupply?: LabourSupplyParams | null;
  targets: string[];
  /** One column per target over its whole entity; the job writes its rows. */
  outputs: Record<string, Column>;
  /** Households [lo, hi). */
  lo: number;
  hi: number;
  /**
   * A second simulation of the same households and inputs under other rules (a report's reform
   * run with its baseline), computed in the same pass: what it does not change is computed once.
   */
  pair?: { reform?: Reform; outputs: Record<string, Column> };
}

/** Rows of each entity covered by households [lo, hi). */
export function jobRows(data: JobData, lo: number, hi: number): Record<string, { lo: number; hi: number }> {
  const rows: Record<string, { lo: number; hi: number }> = {};
  for (const [e, s] of Object.entries(data.starts)) rows[e] = { lo: s[lo], hi: s[hi] };
  return rows;
}

/** The households [lo, hi) as a population of their own, with their inputs as views. */
export function slicePopulation(data: JobData, lo: number, hi: number): { pop: Population; inputs: MicrodataInput[]; rows: Record<string, { lo: number; hi: number }> } {
  const rows = jobRows(data, lo, hi);
  const p = rows[data.person];
  const count: Record<string, number> = {};
  for (const [e, r] of Object.entries(rows)) count[e] = r.hi - r.lo;
  const membership: Record<string, Int32Array> = {};
  for (const [g, m] of Object.entries(data.membership)) {
    const base = rows[g].lo;
    const local = new Int32Array(p.hi - p.lo);
    for (let i = 0; i < local.length; i++) local[i] = m[p.lo + i] - base;
    membership[g] = local;
  }
  const inputs = data.inputs.map((i) => ({ ...i, values: i.values.subarray(rows[i.entity].lo, rows[i.entity].hi) }));
  return { pop: { count, membership }, inputs, rows };
}

/** Compute `targets` for a population under a reform, with `replace` overriding some inputs. */
export function evaluate(model: CountryModel, pop: Population, inputs: MicrodataInput[], reform: Reform | undefined, targets: string[], year: number, replace: Record<string, Column> = {}): Map<string, Column> {
  const sim = new Simulation(model, pop, { reform });
  const period = String(year);
  for (const i of inputs) if (!(i.name in replace)) sim.setInput(i.name, period, i.values);
  for (const [name, values] of Object.entries(replace)) sim.setInput(name, period, values);
  return sim.computeReleasing(targets, period);
}

/**
 * Buffers of this thread's computations, reused from job to job: a simulation allocates its
 * columns once per thread instead of once per job (garbage collection was a third of the time).
 */
const pool = new BufferPool();

/**
 * Persons per chunk of a job: smaller than the engine's default, since a job runs a baseline and
 * a reform merged (twice the intermediates) on each thread, and the UK report's peak memory was
 * measured at this size (docs/performance.md).
 */
const JOB_CHUNK_PEOPLE = 16384;

/** Compute a job into its outputs; for a pair, returns the targets the second simulation shares with the first. */
export function runJob(model: CountryModel, data: JobData, task: JobTask): string[] {
  const { pop, inputs, rows } = slicePopulation(data, task.lo, task.hi);
  let replace: Record<string, Column> = {};
  if (task.labourSupply) {
    const r = labourSupplyResponse(model, pop, inputs, task.reform, task.year, task.labourSupply, evaluate);
    replace = { employment_income: r.employmentIncome };
    const target = task.outputs.employment_income_behavioral_response;
    if (target) target.set(r.response, rows[data.person].lo);
  }
  const period = String(task.year);
  const simulation = (reform: Reform | undefined) => {
    const sim = new Simulation(model, pop, { reform });
    for (const i of inputs) if (!(i.name in replace)) sim.setInput(i.name, period, i.values);
    for (const [name, values] of Object.entries(replace)) sim.setInput(name, period, values);
    return sim;
  };
  const runs = [{ sim: simulation(task.reform), outputs: task.outputs }];
  if (task.pair) runs.push({ sim: simulation(task.pair.reform), outputs: task.pair.outputs });
  return computeInto(model, runs, pop, task.targets, period, rows);
}

/** Merged plans, per pair of plans (plans are kept by their compiled models). */
const merged = new WeakMap<Plan, WeakMap<Plan, MergedPlan>>();

function mergedPlan(a: Plan, b: Plan): MergedPlan {
  let byB = merged.get(a);
  if (!byB) merged.set(a, (byB = new WeakMap()));
  let m = byB.get(b);
  if (!m) byB.set(b, (m = mergePlans([a, b])));
  return m;
}

/**
 * Run the simulations' plans for `targets` as one (a reform after its baseline computes only what
 * the reform reaches: core/plan-merge.ts) chunk by chunk (households cut into cache-sized runs, as
 * the engine's own chunked runs do), writing each chunk's results into each simulation's
 * `outputs` at the job's rows and returning its buffers to the thread's pool.
 */
function computeInto(model: CountryModel, runs: { sim: Simulation; outputs: Record<string, Column> }[], pop: Population, targets: string[], period: string, rows: Record<string, { lo: number; hi: number }>): string[] {
  const plans = runs.map((r) => r.sim.plan(targets, period));
  const { plan, outputs: where } = plans.length === 1 ? { plan: plans[0], outputs: [plans[0].outputs] } : mergedPlan(plans[0], plans[1]);
  // Targets the second simulation computes in the first one's slot are the same column: they are
  // written once, and the caller makes the second simulation's output the first one's.
  const firstSlot = new Map(where[0].map((o) => [o.name, o.slot]));
  const shared = new Set(runs.length > 1 ? where[1].filter((o) => firstSlot.get(o.name) === o.slot).map((o) => o.name) : []);
  const sim = runs[0].sim;
  const inputs = plan.inputs.map((i) => sim.input(i.name, i.period)!);
  const entities = plan.inputs.map((i) => model.variable(i.name).entity);
  const inputSlots = new Set(plan.inputs.map((i) => i.slot));
  const person = model.personEntity().key;
  const whole: Record<string, { lo: number; hi: number }> = Object.fromEntries(Object.entries(pop.count).map(([e, n]) => [e, { lo: 0, hi: n }]));
  const chunks = chunkRanges(model, pop, JOB_CHUNK_PEOPLE) ?? [whole];
  for (const chunk of chunks) {
    const view = chunk === whole ? new PopulationIndex(pop, person, pool) : chunkIndex(pop, chunk, person, pool);
    const slots = runSteps(plan, view, inputs.map((col, k) => (chunk === whole ? col : col.subarray(chunk[entities[k]].lo, chunk[entities[k]].hi))));
    const done = new Set<number>();
    runs.forEach((run, k) => {
      for (const o of where[k]) {
        if (k > 0 && shared.has(o.name)) continue;
        const col = slots[o.slot]!;
        const entity = model.variable(o.name).entity;
        const target = run.outputs[o.name];
        if (target) target.set(col, rows[entity].lo + chunk[entity].lo);
        done.add(o.slot);
      }
    });
    // Each output column once (the simulations share the columns the reform does not change).
    for (const s of done) if (!inputSlots.has(s)) pool.recycle(slots[s]!);
    // The whole population's membership is the dataset's own, not the pool's.
    if (chunk === whole) view.dispose();
    else releaseChunk(view, pool);
  }
  return [...shared];
}
