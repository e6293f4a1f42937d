/**
 * The aggregates a completed simulation keeps (SimulationSummary): weighted totals of the
 * household sums and of every programme, inequality and poverty. Weights are the dataset's
 * household weights; a row of any entity takes the weight of its household, and people-based
 * figures (inequality, poverty) weight each household by weight × people.
 */
import type { Column } from '../../core/types';
import type { PreparedDataset } from './prepare';
import { ascending, gini, topShare, weightedMedian } from './stats';
import type { ReportSpec } from './targets';
import type { InequalityFigures, PovertyFigure, ProgramTotal, SimulationSummary } from './types';

/** The age groups poverty is reported by (besides 'all'), in the order `ageGroup` numbers them. */
const AGE_GROUPS = ['child', 'working_age', 'senior'];

/** A person's age group: 0 child (under 18), 1 working age (18-64), 2 senior (65 and over). */
const ageGroup = (age: number): number => (age < 18 ? 0 : age < 65 ? 1 : 2);

/** Weighted people of each age group per household (3 × households) and in all. */
interface AgeGroups {
  byHousehold: Float64Array;
  all: Float64Array;
}
/** Per prepared dataset: arrays every summary of it reads the same (computed once, not per simulation). */
const perDataset = new WeakMap<PreparedDataset, { peopleW?: Float64Array; groups?: WeakMap<Column, AgeGroups> }>();
function cached(prep: PreparedDataset): { peopleW?: Float64Array; groups?: WeakMap<Column, AgeGroups> } {
  let c = perDataset.get(prep);
  if (!c) perDataset.set(prep, (c = {}));
  return c;
}

/** Household-level weights for people-based figures. */
export function peopleWeights(prep: PreparedDataset): Float64Array {
  const c = cached(prep);
  if (c.peopleW) return c.peopleW;
  const w = prep.microdata.weights;
  const out = new Float64Array(w.length);
  for (let h = 0; h < w.length; h++) out[h] = w[h] * prep.size[h];
  return (c.peopleW = out);
}

export function programTotals(prep: PreparedDataset, spec: ReportSpec, outputs: Record<string, Column>, computed: Set<string> = new Set(Object.keys(outputs))): ProgramTotal[] {
  const w = prep.microdata.weights;
  return spec.programmes.map((p) => {
    const col = outputs[p.name] as Float64Array;
    // Columns a thread filled are new each simulation (their buffers are reused); others (dataset
    // columns, defaults, a pair's shared columns) are not, so their totals are kept by column.
    const stable = !computed.has(p.name);
    let byWeights = stable ? totalsOf.get(col) : undefined;
    let known = byWeights?.get(w);
    if (!known) {
      known = weightedTotal(col, w, prep.topOf[p.entity]);
      if (stable) {
        if (!byWeights) totalsOf.set(col, (byWeights = new WeakMap()));
        byWeights.set(w, known);
      }
    }
    const [total, count] = known;
    return { name: p.name, label: p.label, entity: p.entity, is_tax: p.is_tax, total, count };
  });
}

/**
 * Totals of columns a dataset gives or defaults (the same column object in every simulation of
 * the dataset, never written to), by column and weights: computed once, not per simulation.
 */
const totalsOf = new WeakMap<object, WeakMap<object, [number, number]>>();

/** Σ weight × value and Σ weight over non-zero rows, each row weighted by its household's weight. */
export function weightedTotal(col: Float64Array, w: Float64Array, top: Int32Array): [number, number] {
  let total = 0;
  let count = 0;
  for (let r = 0; r < col.length; r++) {
    const v = col[r];
    if (v === 0) continue;
    const wr = w[top[r]];
    total += wr * v;
    count += wr;
  }
  return [total, count];
}

export function inequality(income: ArrayLike<number>, peopleW: Float64Array, order: Uint32Array = ascending(income)): InequalityFigures {
  return { gini: gini(income, peopleW, order), top_10_share: topShare(income, peopleW, 0.1, order), top_1_share: topShare(income, peopleW, 0.01, order) };
}

/** Poverty headcounts by age group, from the model's indicators and from relative lines. */
export function povertyFigures(prep: PreparedDataset, spec: ReportSpec, outputs: Record<string, Column>, model: { variable(n: string): { entity: string } }): PovertyFigure[] {
  const md = prep.microdata;
  const person = md.person;
  const top = md.top!;
  const hh = md.membership[top];
  const w = md.weights;
  const H = w.length;
  const age = outputs.age;
  const out: PovertyFigure[] = [];
  // Weighted people of each age group (0: child, 1: working age, 2: senior) in each household, and
  // their totals: the same in every simulation of a dataset (an age column the dataset gives is the
  // same object), so kept per dataset. Household-level indicators and relative lines are then
  // tallied over households, not people.
  const c = cached(prep);
  const key = age ?? w;
  let groups = c.groups?.get(key);
  if (!groups) {
    const byHousehold = new Float64Array(3 * H);
    for (let p = 0; p < hh.length; p++) {
      byHousehold[(age ? ageGroup(age[p]) : 0) * H + hh[p]] += w[hh[p]];
    }
    const all = new Float64Array(3);
    for (let g = 0; g < 3; g++) for (let h = 0; h < H; h++) all[g] += byHousehold[g * H + h];
    groups = { byHousehold, all };
    (c.groups ??= new WeakMap()).set(key, groups);
  }
  const { byHousehold, all } = groups;
  const report = (measure: string, count: Float64Array) => {
    const total = all[0] + all[1] + all[2];
    const poorTotal = count[0] + count[1] + count[2];
    out.push({ measure, group: 'all', rate: total > 0 ? poorTotal / total : 0, count: poorTotal });
    if (age) AGE_GROUPS.forEach((group, k) => out.push({ measure, group, rate: all[k] > 0 ? count[k] / all[k] : 0, count: count[k] }));
  };
  /** People in poverty by group, from a household-level test. */
  const byHouseholds = (poor: (h: number) => boolean) => {
    const count = new Float64Array(3);
    for (let h = 0; h < H; h++) {
      if (!poor(h)) continue;
      count[0] += byHousehold[h];
      count[1] += byHousehold[H + h];
      count[2] += byHousehold[2 * H + h];
    }
    return count;
  };
  for (const ind of spec.poverty) {
    const col = outputs[ind.variable];
    const entity = model.variable(ind.variable).entity;
    if (entity === top) {
      report(ind.measure, byHouseholds((h) => col[h] !== 0));
      continue;
    }
    // A person's or another group's indicator: person by person.
    const link = entity === person ? null : md.membership[entity];
    const count = new Float64Array(3);
    for (let p = 0; p < hh.length; p++) {
      if (col[link ? link[p] : p] === 0) continue;
      count[age ? ageGroup(age[p]) : 0] += w[hh[p]];
    }
    report(ind.measure, count);
  }
  const peopleW = peopleWeights(prep);
  for (const rel of spec.relative) {
    const income = outputs[rel.income];
    const line = 0.6 * weightedMedian(income, peopleW);
    report(rel.measure, byHouseholds((h) => income[h] < line));
  }
  return out;
}

export function summarize(args: {
  prep: PreparedDataset;
  spec: ReportSpec;
  outputs: Record<string, Column>;
  model: { variable(n: string): { entity: string } };
  country: string;
  year: number;
  region: string | null;
  responded: boolean;
  timings: Record<string, number>;
  /** Variables the threads computed into buffers that are reused (the others' totals may be cached). */
  computed: Set<string>;
  /** Ascending order of households by each income measure, filled for the report to reuse. */
  orders?: Map<string, Uint32Array>;
}): SimulationSummary {
  const { prep, spec, outputs } = args;
  const w = prep.microdata.weights;
  const pw = peopleWeights(prep);
  const sum = (col: ArrayLike<number>) => {
    let s = 0;
    for (let h = 0; h < w.length; h++) s += w[h] * col[h];
    return s;
  };
  let weightedPeople = 0;
  let weightedHouseholds = 0;
  for (let h = 0; h < w.length; h++) {
    weightedHouseholds += w[h];
    weightedPeople += pw[h];
  }
  // The income measure is sorted once, for inequality and the report's deciles; relative poverty
  // lines need only a weighted median (stats.ts selects it without sorting).
  const orders = args.orders ?? new Map<string, Uint32Array>();
  orders.set(spec.incomeMeasure, ascending(outputs[spec.incomeMeasure]));
  let lsr: SimulationSummary['labour_supply_response'] = null;
  const response = outputs.employment_income_behavioral_response;
  if (args.responded && response) {
    const hh = prep.microdata.membership[prep.microdata.top!];
    let change = 0;
    let people = 0;
    for (let p = 0; p < response.length; p++) {
      change += w[hh[p]] * response[p];
      if (response[p] !== 0) people += w[hh[p]];
    }
    lsr = { employment_income_change: change, people_responding: people };
  }
  return {
    country: args.country,
    year: args.year,
    region: args.region,
    counts: { ...prep.microdata.counts },
    weighted_households: weightedHouseholds,
    weighted_people: weightedPeople,
    income_measure: spec.incomeMeasure,
    household_net_income: sum(outputs[spec.net]),
    household_tax: sum(outputs[spec.tax]),
    household_benefits: sum(outputs[spec.benefits]),
    programs: programTotals(prep, spec, outputs, args.computed),
    inequality: inequality(outputs[spec.incomeMeasure], pw, orders.get(spec.incomeMeasure)),
    poverty: povertyFigures(prep, spec, outputs, args.model),
    labour_supply_response: lsr,
    unavailable: spec.unavailable,
    timings: args.timings,
  };
}
