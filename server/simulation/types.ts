/**
 * Running a country model over a dataset, and the economic-impact report built from two runs
 * (baseline and reform). The interface the microsimulation API codes against (see
 * docs/simulation.md); field names of the report follow issue 13 item 4.
 */
import type { Reform } from '../../parameters/types';

export interface SimulationSpec {
  country: string;
  /** A loadable country folder (working tree, or an unpacked bundle). */
  modelFolder: string;
  /** Any supported layout (server/datasets). */
  datasetFile: string;
  year: number;
  /** The policy's parameter values ({path: {"start.end": value}}). */
  reform?: Reform;
  /** The dynamic's parameter values (gov.simulation.*), applied as behavioural responses. */
  dynamic?: Reform;
  /** A region name from regions(country): a row filter on households. */
  region?: string | null;
  /** Where the output HDF5 (computed variables) is written. */
  outputFile: string;
  /** Worker threads; default every core. */
  threads?: number;
}

export interface SimulationOutcome {
  /** JSON the reports need, stored on the simulation row (a SimulationSummary). */
  summary: unknown;
  outputFile: string;
}

/** Weighted totals of one programme in one simulation. */
export interface ProgramTotal {
  name: string;
  label: string;
  entity: string;
  is_tax: boolean;
  /** Weighted sum over the programme's entity (weights: the household weight of each row's household). */
  total: number;
  /** Weighted number of the programme's entity rows with a non-zero amount. */
  count: number;
}

export interface InequalityFigures {
  /** Gini coefficient of household net income (UK: equivalised), people-weighted. */
  gini: number;
  top_10_share: number;
  top_1_share: number;
}

export interface PovertyFigure {
  /** e.g. absolute_bhc, relative_ahc, spm, official. */
  measure: string;
  /** all | child | working_age | senior */
  group: string;
  /** Weighted share of the group's people in poverty. */
  rate: number;
  /** Weighted number of people in poverty. */
  count: number;
}

/** What a completed simulation keeps (stored as JSON on the simulation row). */
export interface SimulationSummary {
  country: string;
  year: number;
  region: string | null;
  /** Rows per entity after the region filter. */
  counts: Record<string, number>;
  weighted_households: number;
  weighted_people: number;
  /** Variable ranked for deciles: UK equiv_household_net_income, US household_net_income. */
  income_measure: string;
  household_net_income: number;
  household_tax: number;
  household_benefits: number;
  programs: ProgramTotal[];
  inequality: InequalityFigures;
  poverty: PovertyFigure[];
  /** Behavioural response applied (dynamic runs): weighted change in employment income. */
  labour_supply_response: { employment_income_change: number; people_responding: number } | null;
  /** Measures the model cannot give yet, with the reason. */
  unavailable: { field: string; reason: string }[];
  /** Seconds spent: load, compute, write. */
  timings: Record<string, number>;
}

export interface DecileImpact {
  decile: number;
  baseline_mean: number;
  reform_mean: number;
  absolute_change: number;
  relative_change: number;
  count_better_off: number;
  count_worse_off: number;
  count_no_change: number;
}

export interface ProgramStatistic {
  program_name: string;
  label: string;
  entity: string;
  is_tax: boolean;
  baseline_total: number;
  reform_total: number;
  change: number;
  baseline_count: number;
  reform_count: number;
  /** Weighted households whose amount moved in their favour (taxes down, benefits up). */
  winners: number;
  losers: number;
}

export interface BudgetSummary {
  baseline_tax: number;
  reform_tax: number;
  tax_change: number;
  baseline_benefits: number;
  reform_benefits: number;
  benefit_change: number;
  baseline_net_income: number;
  reform_net_income: number;
  net_income_change: number;
  /** Change in revenue net of benefits: tax_change - benefit_change (positive: the government gains). */
  budgetary_impact: number;
  households: number;
}

export interface PovertyImpact {
  measure: string;
  group: string;
  baseline_rate: number;
  reform_rate: number;
  change: number;
  relative_change: number;
  baseline_count: number;
  reform_count: number;
}

export interface IntraDecile {
  /** 1-10, or 0 for everyone. */
  decile: number;
  gain_more_than_5pct: number;
  gain_less_than_5pct: number;
  no_change: number;
  lose_less_than_5pct: number;
  lose_more_than_5pct: number;
}

export interface EconomicImpactReport {
  country: string;
  year: number;
  region: string | null;
  income_measure: string;
  decile_impacts: DecileImpact[];
  program_statistics: ProgramStatistic[];
  budget_summary: BudgetSummary;
  inequality: { baseline: InequalityFigures; reform: InequalityFigures; change: InequalityFigures };
  poverty: PovertyImpact[];
  intra_decile: IntraDecile[];
  unavailable: { field: string; reason: string }[];
}

export interface Region {
  name: string;
  label: string;
  /** country | region (UK); national | state (US). */
  type: string;
}
