/**
 * The economic-impact report of a reform: a baseline and a reform simulation of the same dataset
 * (and region), compared household by household. Totals come from the simulations' summaries;
 * what needs the pairing (deciles, winners and losers, intra-decile changes) from their results,
 * in memory when this process ran them, else from their output files. docs/simulation.md says
 * how each field is computed.
 */
import type { Column } from '../../core/types';
import { loadOutcome, OutcomeData, unpin } from './output';
import { ascending, weightedDeciles } from './stats';
import type {
  BudgetSummary, DecileImpact, EconomicImpactReport, InequalityFigures, IntraDecile, PovertyImpact, ProgramStatistic, SimulationOutcome, SimulationSummary,
} from './types';

/** Changes smaller than this (a penny) count as no change. */
export const NO_CHANGE = 0.01;
/** Intra-decile bands: relative changes of household net income within ±0.1% are "no change". */
const SMALL = 0.001;
const LARGE = 0.05;

export async function economicImpact(country: string, baseline: SimulationOutcome, reform: SimulationOutcome): Promise<EconomicImpactReport> {
  const b = baseline.summary as SimulationSummary;
  const r = reform.summary as SimulationSummary;
  if (b.country !== country || r.country !== country) throw new Error(`the simulations are not of ${country} (${b.country}, ${r.country})`);
  if (b.year !== r.year || b.region !== r.region) throw new Error('the baseline and the reform cover different years or regions');
  const [bd, rd] = await Promise.all([loadOutcome(baseline.outputFile, { pin: true }), loadOutcome(reform.outputFile, { pin: true })]);
  try {
    return compare(country, b, r, bd, rd);
  } finally {
    unpin(bd);
    unpin(rd);
  }
}

function compare(country: string, b: SimulationSummary, r: SimulationSummary, bd: OutcomeData, rd: OutcomeData): EconomicImpactReport {
  const households = bd.weights.length;
  if (rd.weights.length !== households) throw new Error(`the baseline has ${households} households and the reform ${rd.weights.length}: not the same dataset`);
  const people = householdSizes(bd);
  const netB = bd.columns[bd.meta.net] as Float64Array;
  const netR = rd.columns[rd.meta.net] as Float64Array;
  const income = bd.columns[bd.meta.income_measure];
  const decile = weightedDeciles(income, bd.weights, bd.orders?.get(bd.meta.income_measure) ?? ascending(income));
  return {
    country,
    year: b.year,
    region: b.region,
    income_measure: b.income_measure,
    decile_impacts: decileImpacts(decile, bd.weights, netB, netR),
    program_statistics: programStatistics(b, r, bd, rd),
    budget_summary: budgetSummary(b, r),
    inequality: { baseline: b.inequality, reform: r.inequality, change: difference(b.inequality, r.inequality) },
    poverty: povertyImpacts(b, r),
    intra_decile: intraDecile(decile, bd.weights, people, netB, netR),
    unavailable: b.unavailable,
  };
}

function householdSizes(d: OutcomeData): Float64Array {
  const size = new Float64Array(d.weights.length);
  const hh = d.membership[d.meta.top];
  for (let p = 0; p < hh.length; p++) size[hh[p]]++;
  return size;
}

export function decileImpacts(decile: Uint8Array, w: Float64Array, netB: Float64Array, netR: Float64Array): DecileImpact[] {
  const acc = Array.from({ length: 10 }, () => ({ w: 0, b: 0, r: 0, better: 0, worse: 0, same: 0 }));
  for (let h = 0; h < w.length; h++) {
    const a = acc[decile[h] - 1];
    const change = netR[h] - netB[h];
    a.w += w[h];
    a.b += w[h] * netB[h];
    a.r += w[h] * netR[h];
    if (change >= NO_CHANGE) a.better += w[h];
    else if (change <= -NO_CHANGE) a.worse += w[h];
    else a.same += w[h];
  }
  return acc.map((a, i) => {
    const baseline = a.w > 0 ? a.b / a.w : 0;
    const reformed = a.w > 0 ? a.r / a.w : 0;
    return {
      decile: i + 1, baseline_mean: baseline, reform_mean: reformed, absolute_change: reformed - baseline,
      relative_change: a.b !== 0 ? (a.r - a.b) / Math.abs(a.b) : 0, count_better_off: a.better, count_worse_off: a.worse, count_no_change: a.same,
    };
  });
}

/** Totals from the summaries; winners and losers from each household's amount of the programme. */
function programStatistics(b: SimulationSummary, r: SimulationSummary, bd: OutcomeData, rd: OutcomeData): ProgramStatistic[] {
  const reformed = new Map(r.programs.map((p) => [p.name, p]));
  return b.programs.map((p) => {
    const q = reformed.get(p.name) ?? { ...p, total: 0, count: 0 };
    const { winners, losers } = winnersLosers(p.name, p.entity, p.is_tax, bd, rd);
    return {
      program_name: p.name, label: p.label, entity: p.entity, is_tax: p.is_tax,
      baseline_total: p.total, reform_total: q.total, change: q.total - p.total,
      baseline_count: p.count, reform_count: q.count, winners, losers,
    };
  });
}

/** Weighted households whose amount of a programme moved in their favour (taxes down, benefits up), or against. */
function winnersLosers(name: string, entity: string, isTax: boolean, bd: OutcomeData, rd: OutcomeData): { winners: number; losers: number } {
  const cb = bd.columns[name];
  const cr = rd.columns[name];
  // A dataset input (absent from output files), the same column in both (inputs, defaults), or
  // equal values (most programmes under most reforms): nobody gains or loses.
  if (!cb || !cr || cb === cr || sameValues(cb, cr)) return { winners: 0, losers: 0 };
  const hb = toHousehold(bd, entity, cb);
  const hr = toHousehold(rd, entity, cr);
  let winners = 0;
  let losers = 0;
  for (let h = 0; h < hb.length; h++) {
    const gain = (hr[h] - hb[h]) * (isTax ? -1 : 1);
    if (gain >= NO_CHANGE) winners += bd.weights[h];
    else if (gain <= -NO_CHANGE) losers += bd.weights[h];
  }
  return { winners, losers };
}

function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** A column summed over each household's rows. */
function toHousehold(d: OutcomeData, entity: string, col: Column | Float64Array): Float64Array {
  const top = d.meta.top;
  const out = new Float64Array(d.weights.length);
  if (entity === top) {
    out.set(col);
    return out;
  }
  const hh = d.membership[top];
  if (entity === d.meta.person) {
    for (let p = 0; p < col.length; p++) out[hh[p]] += col[p];
    return out;
  }
  // Rows of a group entity: the household of its first member (kept per membership array).
  const m = d.membership[entity];
  let householdOf = householdsOf.get(m);
  if (!householdOf) {
    householdOf = new Int32Array(col.length);
    for (let p = 0; p < hh.length; p++) householdOf[m[p]] = hh[p];
    householdsOf.set(m, householdOf);
  }
  for (let g = 0; g < col.length; g++) out[householdOf[g]] += col[g];
  return out;
}

const householdsOf = new WeakMap<Int32Array, Int32Array>();

function budgetSummary(b: SimulationSummary, r: SimulationSummary): BudgetSummary {
  const taxChange = r.household_tax - b.household_tax;
  const benefitChange = r.household_benefits - b.household_benefits;
  return {
    baseline_tax: b.household_tax, reform_tax: r.household_tax, tax_change: taxChange,
    baseline_benefits: b.household_benefits, reform_benefits: r.household_benefits, benefit_change: benefitChange,
    baseline_net_income: b.household_net_income, reform_net_income: r.household_net_income,
    net_income_change: r.household_net_income - b.household_net_income,
    budgetary_impact: taxChange - benefitChange,
    households: b.weighted_households,
  };
}

function difference(a: InequalityFigures, b: InequalityFigures): InequalityFigures {
  return { gini: b.gini - a.gini, top_10_share: b.top_10_share - a.top_10_share, top_1_share: b.top_1_share - a.top_1_share };
}

function povertyImpacts(b: SimulationSummary, r: SimulationSummary): PovertyImpact[] {
  const reformed = new Map(r.poverty.map((p) => [`${p.measure}/${p.group}`, p]));
  return b.poverty.map((p) => {
    const q = reformed.get(`${p.measure}/${p.group}`) ?? p;
    return {
      measure: p.measure, group: p.group, baseline_rate: p.rate, reform_rate: q.rate, change: q.rate - p.rate,
      relative_change: p.rate > 0 ? (q.rate - p.rate) / p.rate : 0, baseline_count: p.count, reform_count: q.count,
    };
  });
}

/** Shares of people in each decile (and overall, decile 0) by the relative change of their household's net income. */
export function intraDecile(decile: Uint8Array, w: Float64Array, people: Float64Array, netB: Float64Array, netR: Float64Array): IntraDecile[] {
  const acc = Array.from({ length: 11 }, () => new Float64Array(6)); // 5 bands + total
  for (let h = 0; h < w.length; h++) {
    const pw = w[h] * people[h];
    const change = (netR[h] - netB[h]) / Math.max(Math.abs(netB[h]), 1);
    const band = change > LARGE ? 0 : change > SMALL ? 1 : change >= -SMALL ? 2 : change >= -LARGE ? 3 : 4;
    for (const d of [0, decile[h]]) {
      acc[d][band] += pw;
      acc[d][5] += pw;
    }
  }
  return acc.map((a, d) => {
    const share = (k: number) => (a[5] > 0 ? a[k] / a[5] : 0);
    return { decile: d, gain_more_than_5pct: share(0), gain_less_than_5pct: share(1), no_change: share(2), lose_less_than_5pct: share(3), lose_more_than_5pct: share(4) };
  });
}
