/**
 * One job of a simulation: a range of households (the outermost group) computed with the engine,
 * its results copied into the simulation's output columns at the range's rows. Jobs are
 * independent (every group lies within one household), so threads run them in any order; the
 * code here is plain functions, also run on the main thread by tests.
 */
import type { CountryModel } from '../../core/model';
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

export function runJob(model: CountryModel, data: JobData, task: JobTask): void {
  const { pop, inputs, rows } = slicePopulation(data, task.lo, task.hi);
  let replace: Record<string, Column> = {};
  const extra: Record<string, Column> = {};
  if (task.labourSupply) {
    const r = labourSupplyResponse(model, pop, inputs, task.reform, task.year, task.labourSupply, evaluate);
    replace = { employment_income: r.employmentIncome };
    extra.employment_income_behavioral_response = r.response;
  }
  const wanted = task.targets.filter((t) => !(t in extra));
  const out = evaluate(model, pop, inputs, task.reform, wanted, task.year, replace);
  for (const [name, col] of [...out, ...Object.entries(extra)]) {
    const target = task.outputs[name];
    if (!target) continue;
    const entity = name in extra ? data.person : model.variable(name).entity;
    target.set(col, rows[entity].lo);
  }
}
