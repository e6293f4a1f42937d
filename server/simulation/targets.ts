/**
 * What a simulation computes for the reports, read from the country model: the household totals,
 * the programmes (the variables `household_tax` and `household_benefits` add up, expanded through
 * household-level sums such as the US's `household_tax_before_refundable_credits`), the income
 * deciles are ranked on, and the poverty indicators the model has. Only names the reports need
 * are written per country; programmes are never listed by hand.
 */
import type { CountryModel } from '../../core/model';
import type { VariableSpec } from '../../core/types';

export interface Programme {
  name: string;
  label: string;
  entity: string;
  is_tax: boolean;
}

/** A poverty headcount: people whose unit has `variable` true (a bool of any entity). */
export interface PovertyIndicator {
  measure: string;
  variable: string;
}

/** Relative poverty computed by the report: people in households below 60% of the people-weighted median of `income`. */
export interface RelativePoverty {
  measure: string;
  income: string;
}

export interface ReportSpec {
  net: string;
  tax: string;
  benefits: string;
  /** Deciles, inequality and relative poverty are measured on it. */
  incomeMeasure: string;
  programmes: Programme[];
  poverty: PovertyIndicator[];
  relative: RelativePoverty[];
  unavailable: { field: string; reason: string }[];
}

interface CountryChoices {
  incomeMeasure: string[];
  poverty: { measure: string; variables: string[]; relativeIncome?: string }[];
}

/** Per country: candidate names, the first the model has is used. */
const CHOICES: Record<string, CountryChoices> = {
  uk: {
    incomeMeasure: ['equiv_household_net_income', 'household_net_income'],
    poverty: [
      { measure: 'absolute_bhc', variables: ['in_poverty_bhc'] },
      { measure: 'absolute_ahc', variables: ['in_poverty_ahc'] },
      // Relative lines are 60% of the median over the whole dataset: computed by the report, never
      // by the model's in_relative_poverty_* in a job, whose median would be its own households'.
      { measure: 'relative_bhc', variables: [], relativeIncome: 'equiv_hbai_household_net_income' },
      { measure: 'relative_ahc', variables: [], relativeIncome: 'equiv_hbai_household_net_income_ahc' },
    ],
  },
  us: {
    incomeMeasure: ['household_net_income'],
    poverty: [
      { measure: 'spm', variables: ['spm_unit_is_in_spm_poverty', 'in_poverty'] },
      { measure: 'spm_deep', variables: ['spm_unit_is_in_deep_spm_poverty', 'in_deep_poverty'] },
      { measure: 'official', variables: ['in_official_poverty', 'is_in_official_poverty'] },
    ],
  },
};

const NET = 'household_net_income';
const TAX = 'household_tax';
const BENEFITS = 'household_benefits';

export function reportSpec(model: CountryModel, year: number): ReportSpec {
  const has = (n: string) => model.variables.has(n);
  for (const n of [NET, TAX, BENEFITS]) if (!has(n)) throw new Error(`the ${model.country.id} model has no ${n}: simulations need it`);
  const choices = CHOICES[model.country.id] ?? { incomeMeasure: [NET], poverty: [] };
  const incomeMeasure = choices.incomeMeasure.find(has) ?? NET;
  const unavailable: { field: string; reason: string }[] = [];
  const poverty: PovertyIndicator[] = [];
  const relative: RelativePoverty[] = [];
  for (const c of choices.poverty) {
    const v = c.variables.find((n) => has(n) && model.variable(n).type === 'bool');
    if (v) poverty.push({ measure: c.measure, variable: v });
    else if (c.relativeIncome && has(c.relativeIncome)) relative.push({ measure: c.measure, income: c.relativeIncome });
    else unavailable.push({ field: `poverty.${c.measure}`, reason: `the ${model.country.id} model has no ${[...c.variables, ...(c.relativeIncome ? [c.relativeIncome] : [])].join(' or ')}` });
  }
  const programmes = programmesOf(model, year);
  return { net: NET, tax: TAX, benefits: BENEFITS, incomeMeasure, programmes, poverty, relative, unavailable };
}

/** Every variable the simulation computes and keeps for the reports and the output file. */
export function simulationTargets(spec: ReportSpec, model: CountryModel): string[] {
  const names = [spec.net, spec.tax, spec.benefits, spec.incomeMeasure, ...spec.relative.map((r) => r.income), ...spec.poverty.map((p) => p.variable), ...spec.programmes.map((p) => p.name)];
  if (model.variables.has('age')) names.push('age');
  return [...new Set(names)];
}

/** The programmes: leaves of the sums household_tax and household_benefits are made of. */
export function programmesOf(model: CountryModel, year: number): Programme[] {
  const top = model.variable(NET).entity;
  const out = new Map<string, Programme>();
  const visit = (name: string, isTax: boolean, depth: number) => {
    const spec = model.variables.get(name);
    if (!spec || out.has(name)) return;
    const parts = spec.formula === undefined ? listOf(model, spec, 'adds', year) : [];
    const minus = spec.formula === undefined ? listOf(model, spec, 'subtracts', year) : [];
    // Household-level sums are containers, not programmes: look through them.
    if (depth < 6 && spec.entity === top && (parts.length || minus.length)) {
      for (const p of parts) visit(p, isTax, depth + 1);
      for (const m of minus) visit(m, !isTax, depth + 1);
      return;
    }
    out.set(name, { name, label: spec.label ?? name, entity: spec.entity, is_tax: isTax });
  };
  visit(TAX, true, 0);
  visit(BENEFITS, false, 0);
  return [...out.values()];
}

/** A variable's adds/subtracts: a list, or a parameter path holding one (read at the year). */
function listOf(model: CountryModel, spec: VariableSpec, key: 'adds' | 'subtracts', year: number): string[] {
  const v = spec[key];
  if (!v) return [];
  if (Array.isArray(v)) return v;
  try {
    const list = model.parameters.at(v, `${year}-${model.country.yearInstant}`);
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}

/** How each target is obtained: from the dataset, as its default everywhere, or computed by the threads. */
export function splitTargets(model: CountryModel, targets: string[], given: Set<string>, responded: boolean): { given: string[]; constant: string[]; computed: string[] } {
  const out = { given: [] as string[], constant: [] as string[], computed: [] as string[] };
  for (const name of targets) {
    const spec = model.variable(name);
    // Under a dynamic, employment income changes, so it is computed even when given.
    if (given.has(name) && !(responded && name === 'employment_income')) out.given.push(name);
    else if (!given.has(name) && spec.formula === undefined && spec.adds === undefined && spec.subtracts === undefined) out.constant.push(name);
    else out.computed.push(name);
  }
  return out;
}
