/**
 * Labour-supply responses (dynamics): the reform changes each earner's employment income by
 *
 *   response = earnings × (ε_income × Δincome/income + ε_substitution × Δ(1 − mtr)/(1 − mtr))
 *
 * where income is the household's net income and mtr the person's effective marginal tax rate,
 * each measured under the baseline and under the reform before any response (the static
 * reform), and the relative changes are clipped to bounds. The reform is then computed again
 * with the responded earnings. Marginal rates come from re-evaluating the population with one
 * earner per household at a time given `delta` more earnings: mtr = 1 − Δnet income / delta.
 * See docs/simulation.md (Dynamics) for the method and its sources.
 */
import type { CountryModel } from '../../core/model';
import type { Column, Population } from '../../core/types';
import type { Reform } from '../../parameters/types';
import type { MicrodataInput } from '../datasets/microdata';

export interface LabourSupplyParams {
  income: number;
  substitution: number;
  /** Extra earnings used to measure marginal rates. */
  delta: number;
  /** Relative changes are clipped to [-bound, bound]. */
  incomeBound: number;
  wageBound: number;
}

/**
 * Where the parameters live: PolicyEngine's paths (UK `labour_supply_responses`, US
 * `labor_supply_responses`), or the singular form of the first API design. The first root the
 * model has (or the dynamic names) is used.
 */
export const LSR_ROOTS = ['gov.simulation.labour_supply_responses', 'gov.simulation.labor_supply_responses', 'gov.simulation.labour_supply_response'];
/** Defaults for the leaves a model may not have: a £100 (or $100) rise for marginal rates, no clipping below ±100%. */
const DEFAULTS = { delta: 100, incomeBound: 1, wageBound: 1 };

/** The response parameters of a dynamic for a year, or null when both elasticities are zero. */
export function labourSupplyParams(model: CountryModel, dynamic: Reform | undefined, year: number): LabourSupplyParams | null {
  if (!dynamic || Object.keys(dynamic).length === 0) return null;
  const instant = `${year}-${model.country.yearInstant}`;
  const tree = model.parameters;
  const known = Object.fromEntries(Object.entries(dynamic).filter(([p]) => tree.has(p)));
  const reformed = Object.keys(known).length ? tree.withReform(known) : tree;
  const root = LSR_ROOTS.find((r) => tree.has(r) || Object.keys(dynamic).some((p) => p.startsWith(`${r}.`))) ?? LSR_ROOTS[0];
  const read = (leaf: string, fallback: number): number => {
    const path = `${root}.${leaf}`;
    if (!(path in known) && path in dynamic) return numberAt(dynamic[path], instant) ?? fallback;
    if (!reformed.has(path)) return fallback;
    try {
      const v = reformed.at(path, instant);
      return typeof v === 'number' ? v : fallback;
    } catch {
      return fallback;
    }
  };
  const p: LabourSupplyParams = {
    income: read('income_elasticity', 0),
    substitution: read('substitution_elasticity', 0),
    delta: read('marginal_tax_rate_delta', DEFAULTS.delta),
    incomeBound: read('bounds.income_change', DEFAULTS.incomeBound),
    wageBound: read('bounds.effective_wage_rate_change', DEFAULTS.wageBound),
  };
  return p.income === 0 && p.substitution === 0 ? null : p;
}

/** A value of a reform series ({"start.end" | "start": value}) in force at an instant. */
function numberAt(series: Record<string, unknown>, instant: string): number | undefined {
  let best: { start: string; value: unknown } | undefined;
  for (const [key, value] of Object.entries(series)) {
    const [start, end] = key.split('.');
    if (start <= instant && (!end || instant <= end) && (!best || start > best.start)) best = { start, value };
  }
  return typeof best?.value === 'number' ? best.value : undefined;
}

type Evaluate = (model: CountryModel, pop: Population, inputs: MicrodataInput[], reform: Reform | undefined, targets: string[], year: number, replace?: Record<string, Column>) => Map<string, Column>;

const NET = 'household_net_income';
const EARNINGS = 'employment_income';

/**
 * Effective marginal tax rate of every earner (0 for others): each pass raises the earnings of
 * the k-th earner of every household by delta, so households are re-evaluated as many times as
 * the largest number of earners in one household.
 */
export function marginalRates(model: CountryModel, pop: Population, inputs: MicrodataInput[], reform: Reform | undefined, year: number, earnings: Float64Array, net: Float64Array, delta: number, evaluate: Evaluate): Float64Array {
  const person = model.personEntity().key;
  const top = Object.keys(pop.membership).find((g) => model.variable(NET).entity === g)!;
  const hh = pop.membership[top];
  const n = pop.count[person];
  const rank = new Int32Array(n).fill(-1);
  const seen = new Int32Array(pop.count[top]);
  let passes = 0;
  for (let p = 0; p < n; p++) {
    if (earnings[p] > 0) {
      rank[p] = seen[hh[p]]++;
      if (rank[p] + 1 > passes) passes = rank[p] + 1;
    }
  }
  const mtr = new Float64Array(n);
  for (let k = 0; k < passes; k++) {
    const raised = Float64Array.from(earnings);
    for (let p = 0; p < n; p++) if (rank[p] === k) raised[p] += delta;
    const after = evaluate(model, pop, inputs, reform, [NET], year, { [EARNINGS]: raised }).get(NET)!;
    for (let p = 0; p < n; p++) if (rank[p] === k) mtr[p] = 1 - (after[hh[p]] - net[hh[p]]) / delta;
  }
  return mtr;
}

const clip = (x: number, bound: number) => (x < -bound ? -bound : x > bound ? bound : x);

/** Each person's response and responded earnings, for one population (a job's households). */
export function labourSupplyResponse(model: CountryModel, pop: Population, inputs: MicrodataInput[], reform: Reform | undefined, year: number, params: LabourSupplyParams, evaluate: Evaluate): { response: Float64Array; employmentIncome: Float64Array } {
  const person = model.personEntity().key;
  const n = pop.count[person];
  const top = Object.keys(pop.membership).find((g) => model.variable(NET).entity === g)!;
  const hh = pop.membership[top];
  // Earnings before any response: the dataset's employment income, or what the model computes
  // from its own inputs (employment_income_before_lsr and the like).
  const first = evaluate(model, pop, inputs, undefined, [NET, EARNINGS], year);
  const earnings = Float64Array.from(first.get(EARNINGS)!);
  const measure = (policy: Reform | undefined) => {
    const net = (policy === undefined ? first : evaluate(model, pop, inputs, policy, [NET], year)).get(NET)! as Float64Array;
    const mtr = params.substitution !== 0 ? marginalRates(model, pop, inputs, policy, year, earnings, net, params.delta, evaluate) : new Float64Array(n);
    return { net, mtr };
  };
  const base = measure(undefined);
  const ref = measure(reform);
  const response = new Float64Array(n);
  for (let p = 0; p < n; p++) {
    const e = earnings[p];
    if (!(e > 0)) continue;
    const nb = Math.max(base.net[hh[p]], 1);
    const nr = Math.max(ref.net[hh[p]], 1);
    const incomeChange = clip((nr - nb) / nb, params.incomeBound);
    // A marginal rate of 100% leaves no net wage: PolicyEngine floors the net-of-tax rate at 0.01.
    const wb = 1 - base.mtr[p] || 0.01;
    const wr = 1 - ref.mtr[p] || 0.01;
    const wageChange = clip((wr - wb) / wb, params.wageBound);
    response[p] = e * (params.income * incomeChange + params.substitution * wageChange);
  }
  const employmentIncome = new Float64Array(n);
  for (let p = 0; p < n; p++) employmentIncome[p] = earnings[p] + response[p];
  return { response, employmentIncome };
}
