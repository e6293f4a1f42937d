/**
 * A synthetic US population in Fiscus's layout, with PolicyEngine-US's entities: households drawn
 * one by one (type, state, tenure, people with ages, work, incomes, disability; rent, property
 * tax, child care), every number from us-params.ts. People are written grouped by household, and
 * every group (tax unit, marital unit, family, SPM unit) lies within one household; a family is
 * one SPM unit, and a tax unit or marital unit lies within one family.
 */
import type { DatasetColumn, DatasetTables } from '../types';
import { Grow, Random } from './random';
import type { SynthOptions } from './uk';
import * as P from './us-params';

type Units = 'tax_unit' | 'marital_unit' | 'family' | 'spm_unit';
const UNITS: Units[] = ['tax_unit', 'marital_unit', 'family', 'spm_unit'];

interface State {
  rnd: Random;
  grow: number;
  next: Record<Units, number>;
  link: Record<Units, Grow<Int32Array>>;
  person: Record<string, Grow<Float64Array>>;
  flags: Record<string, Grow<Uint8Array>>;
  hh: Grow<Int32Array>;
  childcare: number[];
}

const MONEY = ['employment_income_before_lsr', 'self_employment_income_before_lsr', 'taxable_interest_income', 'qualified_dividend_income',
  'social_security_retirement', 'social_security_disability', 'taxable_private_pension_income', 'unemployment_compensation',
  'hours_worked_last_week', 'pre_subsidy_rent', 'real_estate_taxes', 'age'];

export async function synthesizeUs(options: SynthOptions, onProgress?: (done: number, total: number) => void): Promise<DatasetTables> {
  const { households, year } = options;
  if (!(households > 0) || !Number.isInteger(households)) throw new Error('households must be a positive integer');
  const cap = Math.ceil(households * 2.6);
  const s: State = {
    rnd: new Random(options.seed),
    grow: Math.pow(1 + P.NOMINAL_GROWTH, year - 2024),
    next: { tax_unit: 0, marital_unit: 0, family: 0, spm_unit: 0 },
    link: { tax_unit: new Grow(Int32Array, cap), marital_unit: new Grow(Int32Array, cap), family: new Grow(Int32Array, cap), spm_unit: new Grow(Int32Array, cap) },
    person: Object.fromEntries(MONEY.map((m) => [m, new Grow(Float64Array, cap)])),
    flags: { is_female: new Grow(Uint8Array, cap), is_disabled: new Grow(Uint8Array, cap), is_blind: new Grow(Uint8Array, cap) },
    hh: new Grow(Int32Array, cap),
    childcare: [],
  };
  const state = new Int32Array(households);
  const tenure: string[] = new Array(households);
  const typeShares = P.HOUSEHOLD_TYPES.map((t) => t.share);
  const stateShares = P.STATES.map(([, pop]) => pop);
  const step = Math.max(1, Math.floor(households / 100));
  for (let h = 0; h < households; h++) {
    const type = P.HOUSEHOLD_TYPES[s.rnd.pick(typeShares)].type;
    state[h] = P.STATES[s.rnd.pick(stateShares)][0];
    tenure[h] = P.TENURES[s.rnd.pick(P.TENURE_BY_TYPE[type])];
    const first = s.hh.length;
    addHousehold(s, type, h);
    housingCosts(s, first, tenure[h], state[h]);
    if ((h + 1) % step === 0) {
      onProgress?.(h + 1, households);
      if ((h + 1) % (step * 10) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onProgress?.(households, households);
  const people = s.hh.length;
  const ids = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
  const person = new Map<string, DatasetColumn>([['person_id', ids(people)], ['person_household_id', s.hh.done()]]);
  for (const u of UNITS) person.set(`person_${u}_id`, s.link[u].done());
  for (const [name, col] of Object.entries(s.person)) person.set(name, col.done());
  for (const [name, col] of Object.entries(s.flags)) person.set(name, col.done());
  const weight = (P.US_HOUSEHOLDS_2024 * Math.pow(1 + P.HOUSEHOLD_GROWTH, year - 2024)) / households;
  const tables = new Map([
    ['person', { entity: 'person', rows: people, columns: person }],
    ['household', { entity: 'household', rows: households, columns: new Map<string, DatasetColumn>([['household_id', ids(households)], ['household_weight', new Float64Array(households).fill(weight)], ['state_fips', state], ['tenure_type', tenure]]) }],
  ]);
  for (const u of UNITS) {
    const columns = new Map<string, DatasetColumn>([[`${u}_id`, ids(s.next[u])]]);
    if (u === 'spm_unit') columns.set('spm_unit_pre_subsidy_childcare_expenses', Float64Array.from(s.childcare));
    tables.set(u, { entity: u, rows: s.next[u], columns });
  }
  return { layout: 'fiscus', year, tables };
}

/** Open a new unit of each kind listed (the others continue). */
function open(s: State, kinds: Units[]): void {
  for (const k of kinds) {
    s.next[k]++;
    if (k === 'spm_unit') s.childcare.push(0);
  }
}

function addHousehold(s: State, type: string, h: number): void {
  const r = s.rnd;
  const adult = (age: number, female: boolean) => addPerson(s, h, age, female);
  const senior = () => Math.min(95, 65 + Math.floor(Math.abs(r.normal()) * 10));
  const children = (parentAge: number, inTaxUnit: boolean) => {
    const n = r.pick(P.CHILDREN_COUNT);
    for (let k = 0; k < n; k++) {
      // A child is its own marital unit; dependants share their parents' tax unit.
      if (!inTaxUnit) open(s, ['tax_unit']);
      open(s, ['marital_unit']);
      addPerson(s, h, r.int(0, Math.min(17, parentAge - 18)), r.chance(0.49));
    }
    if (n > 0 && r.chance(P.CHILDCARE.share)) s.childcare[s.childcare.length - 1] = Math.round(r.lognormal(P.CHILDCARE.median, P.CHILDCARE.sigma) * s.grow);
  };
  switch (type) {
    case 'single_working_age':
    case 'single_senior':
      open(s, UNITS);
      adult(type === 'single_senior' ? senior() : r.int(18, 64), r.chance(0.52));
      break;
    case 'married_no_children':
    case 'married_senior':
    case 'married_children': {
      open(s, UNITS);
      const a = type === 'married_senior' ? senior() : type === 'married_children' ? r.int(24, 55) : r.int(22, 64);
      adult(a, false);
      adult(Math.max(18, a + r.int(-5, 3)), true);
      if (type === 'married_children') children(a - 2, true);
      // About a third of 18-34 year olds live with their parents: an adult child, with a tax unit of its own.
      if (type !== 'married_senior' && a >= 40 && r.chance(P.ADULT_CHILD_SHARE)) {
        open(s, ['tax_unit', 'marital_unit']);
        adult(r.int(18, Math.min(34, a - 18)), r.chance(0.45));
      }
      break;
    }
    case 'single_parent': {
      open(s, UNITS);
      const a = r.int(20, 55);
      adult(a, r.chance(0.8));
      children(a, true);
      break;
    }
    case 'other_family': {
      // A parent with an adult child: one family and SPM unit, two tax units.
      open(s, UNITS);
      const a = r.int(45, 80);
      adult(a, r.chance(0.6));
      for (let k = 1 + r.pick([60, 40]); k > 0; k--) {
        open(s, ['tax_unit', 'marital_unit']);
        adult(r.int(19, Math.min(40, a - 18)), r.chance(0.45));
      }
      break;
    }
    default: {
      const n = 2 + r.pick([75, 25]);
      for (let k = 0; k < n; k++) {
        open(s, UNITS);
        adult(r.int(19, 45), r.chance(0.5));
      }
    }
  }
}

function addPerson(s: State, h: number, age: number, female: boolean): void {
  const r = s.rnd;
  s.hh.push(h);
  for (const u of UNITS) s.link[u].push(s.next[u] - 1);
  const v: Record<string, number> = Object.fromEntries(MONEY.map((m) => [m, 0]));
  v.age = age;
  const disabled = r.chance(age < 18 ? P.DISABILITY.child : age < 65 ? P.DISABILITY.workingAge : P.DISABILITY.senior);
  if (age >= 18) {
    const rate = age >= 65 ? P.WORK.senior : age >= 25 && age < 55 ? P.WORK.primeAge : P.WORK.workingAge * 0.9;
    if (r.chance(rate * (disabled ? 0.5 : 1.05))) {
      if (r.chance(P.WORK.selfEmployed)) {
        v.self_employment_income_before_lsr = Math.round(r.lognormal(P.SELF_EMPLOYMENT.median, P.SELF_EMPLOYMENT.sigma) * s.grow);
        v.hours_worked_last_week = r.int(25, 60);
      } else if (r.chance(P.WORK.partTime)) {
        v.employment_income_before_lsr = Math.round(r.lognormal(P.EARNINGS.partTimeMedian, P.EARNINGS.partTimeSigma) * s.grow);
        v.hours_worked_last_week = r.int(10, 34);
      } else {
        const e = r.chance(P.EARNINGS.tailShare) ? r.pareto(P.EARNINGS.tailMin, P.EARNINGS.tailAlpha) : r.lognormal(P.EARNINGS.fullTimeMedian, P.EARNINGS.sigma);
        v.employment_income_before_lsr = Math.round(e * s.grow);
        v.hours_worked_last_week = r.int(35, 55);
      }
      if (r.chance(P.UNEMPLOYMENT.share)) v.unemployment_compensation = Math.round(r.lognormal(P.UNEMPLOYMENT.median, P.UNEMPLOYMENT.sigma) * s.grow);
    }
    if (r.chance(P.INTEREST.share)) v.taxable_interest_income = Math.round(r.lognormal(P.INTEREST.median, P.INTEREST.sigma) * s.grow);
    if (r.chance(P.DIVIDENDS.share)) v.qualified_dividend_income = Math.round(r.lognormal(P.DIVIDENDS.median, P.DIVIDENDS.sigma) * s.grow);
    const claims = age >= 70 ? 0.97 : age >= 67 ? 0.9 : age >= 62 ? 0.2 + 0.1 * (age - 62) : 0;
    if (r.chance(claims)) v.social_security_retirement = Math.round(r.lognormal(P.SOCIAL_SECURITY.retiredMonthly, P.SOCIAL_SECURITY.sigma) * 12 * s.grow);
    else if (age >= 25 && age < 65 && disabled && r.chance(P.SOCIAL_SECURITY.disabledShare / P.DISABILITY.workingAge)) v.social_security_disability = Math.round(r.lognormal(P.SOCIAL_SECURITY.disabledMonthly, P.SOCIAL_SECURITY.sigma) * 12 * s.grow);
    if (age >= 65 && r.chance(P.PENSION.share)) v.taxable_private_pension_income = Math.round(r.lognormal(P.PENSION.median, P.PENSION.sigma) * s.grow);
  }
  for (const m of MONEY) s.person[m].push(v[m]);
  s.flags.is_female.push(female ? 1 : 0);
  s.flags.is_disabled.push(disabled ? 1 : 0);
  s.flags.is_blind.push(r.chance(P.DISABILITY.blind) ? 1 : 0);
}

/** Rent or property tax, paid by the household's first person. */
function housingCosts(s: State, first: number, tenure: string, fips: number): void {
  const factor = P.HIGH_COST_STATES.get(fips) ?? (P.LOW_COST_STATES.has(fips) ? 0.8 : 1);
  if (tenure === 'RENTED') s.person.pre_subsidy_rent.add(first, Math.round(s.rnd.lognormal(P.RENT.monthlyMedian * factor, P.RENT.sigma) * 12 * s.grow));
  else s.person.real_estate_taxes.add(first, Math.round(s.rnd.lognormal(P.PROPERTY_TAX.median * factor, P.PROPERTY_TAX.sigma) * s.grow));
}
