/**
 * A synthetic UK population in Fiscus's layout: households drawn one by one (type, region,
 * tenure, people with ages, work, incomes, disability; rents, council tax, savings), every number
 * from uk-params.ts. Persons are written grouped by household and benefit unit, in order, so
 * simulations need no reordering. Household weights are equal and sum to the UK's households.
 */
import type { DatasetColumn, DatasetTables } from '../types';
import { Grow, Random } from './random';
import * as P from './uk-params';

export interface SynthOptions {
  households: number;
  year: number;
  seed: number;
}

interface Columns {
  hh: Grow<Int32Array>; bu: Grow<Int32Array>; age: Grow<Int32Array>; female: Grow<Uint8Array>;
  employment: Grow<Float64Array>; selfEmployment: Grow<Float64Array>; savingsInterest: Grow<Float64Array>;
  dividends: Grow<Float64Array>; property: Grow<Float64Array>; privatePension: Grow<Float64Array>;
  statePension: Grow<Float64Array>; hours: Grow<Float64Array>; childcare: Grow<Float64Array>;
  disabled: Grow<Uint8Array>; status: Grow<Uint8Array>;
  /** Award categories as indices into the model's values (NONE first). */
  pipDl: Grow<Uint8Array>; pipM: Grow<Uint8Array>; aa: Grow<Uint8Array>; dlaSc: Grow<Uint8Array>; dlaM: Grow<Uint8Array>;
}

const STATUS = ['FT_EMPLOYED', 'PT_EMPLOYED', 'FT_SELF_EMPLOYED', 'UNEMPLOYED', 'RETIRED', 'STUDENT', 'LONG_TERM_DISABLED', 'CHILD'];
const CATEGORIES = { pip: ['NONE', 'STANDARD', 'ENHANCED'], aa: ['NONE', 'LOWER', 'HIGHER'], dlaSc: ['NONE', 'LOWER', 'MIDDLE', 'HIGHER'], dlaM: ['NONE', 'LOWER', 'HIGHER'] };

/** Money levels of a year: statutory rates by table, other amounts grown from 2024. */
function levels(year: number) {
  const grow = Math.pow(1 + P.NOMINAL_GROWTH, year - 2024);
  const rateYear = Math.min(2025, Math.max(2024, year));
  const rateGrow = Math.pow(1.03, year - rateYear);
  const rates = Object.fromEntries(Object.entries(P.RATES[rateYear]).map(([k, v]) => [k, v * 52 * rateGrow]));
  const bandD = (P.BAND_D[year] ?? P.BAND_D[year < 2024 ? 2024 : 2025] * Math.pow(1.05, year - 2025));
  return { grow, rates, bandD };
}

export async function synthesizeUk(options: SynthOptions, onProgress?: (done: number, total: number) => void): Promise<DatasetTables> {
  const { households, year } = options;
  if (!(households > 0) || !Number.isInteger(households)) throw new Error('households must be a positive integer');
  const rnd = new Random(options.seed);
  const L = levels(year);
  const cap = Math.ceil(households * 2.5);
  const F = () => new Grow(Float64Array, cap);
  const U = () => new Grow(Uint8Array, cap);
  const c: Columns = {
    hh: new Grow(Int32Array, cap), bu: new Grow(Int32Array, cap), age: new Grow(Int32Array, cap), female: new Grow(Uint8Array, cap),
    employment: F(), selfEmployment: F(), savingsInterest: F(), dividends: F(), property: F(), privatePension: F(),
    statePension: F(), hours: F(), childcare: F(), disabled: U(), status: U(), pipDl: U(), pipM: U(), aa: U(), dlaSc: U(), dlaM: U(),
  };
  const region: string[] = new Array(households);
  const tenure: string[] = new Array(households);
  const band: string[] = new Array(households);
  const rent = new Float64Array(households);
  const councilTax = new Float64Array(households);
  const savings = new Float64Array(households);
  const typeShares = P.HOUSEHOLD_TYPES.map((t) => t.share);
  const regionShares = P.REGIONS.map((r) => r.share);
  let benunits = 0;
  const step = Math.max(1, Math.floor(households / 100));

  for (let h = 0; h < households; h++) {
    const type = P.HOUSEHOLD_TYPES[rnd.pick(typeShares)].type;
    const reg = P.REGIONS[rnd.pick(regionShares)];
    const ten = P.TENURES[rnd.pick(P.TENURE_BY_TYPE[type])];
    region[h] = reg.region;
    tenure[h] = ten;
    const first = c.hh.length;
    benunits = addPeople(rnd, c, type, h, benunits, L);
    // Rent: private rents log-normal around the region's average; social rents by landlord.
    if (ten === 'RENT_PRIVATELY') rent[h] = Math.round(rnd.lognormal(reg.privateRent * 0.92, 0.35) * 12 * L.grow);
    else if (ten === 'RENT_FROM_COUNCIL' || ten === 'RENT_FROM_HA') rent[h] = Math.round(rnd.lognormal(P.SOCIAL_RENT_WEEKLY[ten] * reg.socialRentFactor, 0.15) * 52 * L.grow);
    const b = rnd.pick(P.BAND_SHARES);
    band[h] = P.BANDS[b];
    // A single adult pays 75% (the single person discount, LGFA 1992 s.11).
    const adults = countAdults(c, first);
    councilTax[h] = Math.round(L.bandD * P.BAND_RATIOS[b] * (adults === 1 ? 0.75 : 1));
    if (rnd.chance(P.SAVINGS_SHARE[ten])) {
      savings[h] = Math.round(rnd.lognormal(P.SAVINGS.median, P.SAVINGS.sigma));
      const each = (savings[h] * P.SAVINGS.interest) / adults;
      for (let p = first; p < c.hh.length; p++) if (c.age.get(p) >= 18) c.savingsInterest.add(p, Math.round(each));
    }
    if ((h + 1) % step === 0) {
      onProgress?.(h + 1, households);
      // Let a server answer requests while a large population is generated.
      if ((h + 1) % (step * 10) === 0) await new Promise((resolve) => setImmediate(resolve));
    }
  }
  onProgress?.(households, households);

  const people = c.hh.length;
  const ids = (n: number) => Int32Array.from({ length: n }, (_, i) => i);
  const names = (col: Grow<Uint8Array>, values: string[]) => Array.from(col.done(), (k) => values[k]);
  const weight = (P.UK_HOUSEHOLDS_2023 * Math.pow(1 + P.HOUSEHOLD_GROWTH, year - 2023)) / households;
  const person = new Map<string, DatasetColumn>([
    ['person_id', ids(people)], ['person_benunit_id', c.bu.done()], ['person_household_id', c.hh.done()],
    ['age', c.age.done()], ['gender', Array.from(c.female.done(), (f) => (f ? 'FEMALE' : 'MALE'))],
    ['employment_income_before_lsr', c.employment.done()], ['self_employment_income', c.selfEmployment.done()],
    ['employment_status', names(c.status, STATUS)],
    ['savings_interest_income', c.savingsInterest.done()], ['dividend_income', c.dividends.done()],
    ['property_income', c.property.done()], ['private_pension_income', c.privatePension.done()],
    ['state_pension_reported', c.statePension.done()], ['hours_worked', c.hours.done()], ['childcare_expenses', c.childcare.done()],
    ['is_disabled_for_benefits', c.disabled.done()], ['pip_dl_category', names(c.pipDl, CATEGORIES.pip)], ['pip_m_category', names(c.pipM, CATEGORIES.pip)],
    ['aa_category', names(c.aa, CATEGORIES.aa)], ['dla_sc_category', names(c.dlaSc, CATEGORIES.dlaSc)], ['dla_m_category', names(c.dlaM, CATEGORIES.dlaM)],
  ]);
  const household = new Map<string, DatasetColumn>([
    ['household_id', ids(households)], ['household_weight', new Float64Array(households).fill(weight)],
    ['region', region], ['tenure_type', tenure], ['rent', rent], ['council_tax', councilTax], ['council_tax_band', band], ['savings', savings],
  ]);
  return {
    layout: 'fiscus',
    year,
    tables: new Map([
      ['person', { entity: 'person', rows: people, columns: person }],
      ['benunit', { entity: 'benunit', rows: benunits, columns: new Map([['benunit_id', ids(benunits)]]) }],
      ['household', { entity: 'household', rows: households, columns: household }],
    ]),
  };
}

function countAdults(c: Columns, first: number): number {
  let n = 0;
  for (let p = first; p < c.hh.length; p++) if (c.age.get(p) >= 18) n++;
  return Math.max(1, n);
}

type Levels = ReturnType<typeof levels>;

/** The people of one household; returns the next benefit unit number. */
function addPeople(rnd: Random, c: Columns, type: string, h: number, bu: number, L: Levels): number {
  const add = (age: number, female: boolean, unit: number, loneParent = false) => addPerson(rnd, c, h, unit, age, female, L, loneParent);
  const workingAge = () => rnd.int(18, 64);
  const pensioner = () => Math.min(100, 66 + Math.floor(Math.abs(rnd.normal()) * 9));
  const childrenOf = (parentAge: number, unit: number) => {
    const n = rnd.pick(P.CHILDREN_COUNT);
    for (let k = 0; k < n; k++) add(rnd.int(0, Math.min(17, parentAge - 17)), rnd.chance(0.49), unit);
  };
  switch (type) {
    case 'single_working_age':
      add(workingAge(), rnd.chance(0.45), bu);
      return bu + 1;
    case 'single_pensioner':
      add(pensioner(), rnd.chance(0.62), bu);
      return bu + 1;
    case 'couple_working_age':
    case 'couple_pensioner': {
      const a = type === 'couple_pensioner' ? pensioner() : rnd.int(20, 64);
      add(a, false, bu);
      add(Math.max(18, Math.min(100, a + rnd.int(-5, 3))), true, bu);
      return bu + 1;
    }
    case 'couple_children': {
      const a = rnd.int(22, 58);
      add(a, false, bu);
      add(Math.max(20, a + rnd.int(-5, 3)), true, bu);
      childrenOf(a - 2, bu);
      return bu + 1;
    }
    case 'lone_parent': {
      const a = rnd.int(19, 55);
      add(a, rnd.chance(0.84), bu, true);
      childrenOf(a, bu);
      return bu + 1;
    }
    case 'couple_adult_children':
    case 'lone_parent_adult_children': {
      const a = rnd.int(45, 70);
      const couple = type === 'couple_adult_children';
      add(a, couple ? false : rnd.chance(0.84), bu, !couple);
      if (couple) add(Math.max(40, a + rnd.int(-5, 3)), true, bu);
      const kids = 1 + rnd.pick([60, 30, 10]);
      // Non-dependent children (19 or over) are benefit units of their own.
      for (let k = 0; k < kids; k++) add(rnd.int(19, Math.min(35, a - 18)), rnd.chance(0.45), bu + 1 + k);
      return bu + 1 + kids;
    }
    default: {
      const n = 2 + rnd.pick([60, 30, 10]);
      for (let k = 0; k < n; k++) add(rnd.int(19, 40), rnd.chance(0.5), bu + k);
      return bu + n;
    }
  }
}

function addPerson(rnd: Random, c: Columns, h: number, unit: number, age: number, female: boolean, L: Levels, loneParent: boolean): void {
  c.hh.push(h); c.bu.push(unit); c.age.push(age); c.female.push(female ? 1 : 0);
  let employment = 0, self = 0, hours = 0, dividends = 0, property = 0, privatePension = 0, statePension = 0;
  let status = age < 16 ? 'CHILD' : age < 19 ? 'STUDENT' : age >= P.PENSION.age ? 'RETIRED' : 'UNEMPLOYED';
  const pensionAge = age >= P.PENSION.age;
  const disabled = rnd.chance(age < 18 ? P.DISABILITY.child : pensionAge ? P.DISABILITY.pensionAge : P.DISABILITY.workingAge);
  if (age >= 18) {
    const workRate = pensionAge ? P.EMPLOYMENT.pensionAge : loneParent ? P.EMPLOYMENT.loneParent : P.EMPLOYMENT.workingAge * (disabled ? 0.7 : 1.09);
    if (rnd.chance(Math.min(0.95, workRate * (age < 22 ? 0.7 : 1)))) {
      if (rnd.chance(P.EMPLOYMENT.selfEmployed)) {
        self = Math.round(rnd.lognormal(P.SELF_EMPLOYMENT.median, P.SELF_EMPLOYMENT.sigma) * L.grow);
        hours = rnd.int(1200, 2400);
        status = 'FT_SELF_EMPLOYED';
      } else if (rnd.chance(P.EMPLOYMENT.partTime)) {
        employment = rnd.lognormal(P.EARNINGS.partTimeMedian, P.EARNINGS.partTimeSigma);
        hours = rnd.int(500, 1300);
        status = 'PT_EMPLOYED';
      } else {
        status = 'FT_EMPLOYED';
        employment = rnd.chance(P.EARNINGS.tailShare) ? rnd.pareto(P.EARNINGS.tailMin, P.EARNINGS.tailAlpha) : rnd.lognormal(P.EARNINGS.fullTimeMedian, P.EARNINGS.fullTimeSigma);
        hours = rnd.int(1650, 2300);
      }
      employment = Math.round(employment * L.grow);
    }
    if (rnd.chance(P.DIVIDENDS.share)) dividends = Math.round(rnd.lognormal(P.DIVIDENDS.median, P.DIVIDENDS.sigma) * L.grow);
    if (rnd.chance(P.PROPERTY.share)) property = Math.round(rnd.lognormal(P.PROPERTY.median, P.PROPERTY.sigma) * L.grow);
  }
  if (pensionAge) {
    const r = L.rates;
    statePension = age <= P.PENSION.newSchemeMaxAge
      ? r.newSP * (rnd.chance(P.PENSION.fullShare) ? 1 : 0.6 + 0.4 * rnd.next())
      : r.basicSP + rnd.lognormal(P.PENSION.additionalMedian, 0.8) * L.grow;
    statePension = Math.round(statePension * 100) / 100;
    if (rnd.chance(P.PENSION.privateShare)) privatePension = Math.round(rnd.lognormal(P.PENSION.privateMedian, P.PENSION.privateSigma) * L.grow);
  }
  c.employment.push(employment); c.selfEmployment.push(self); c.hours.push(hours); c.savingsInterest.push(0);
  c.dividends.push(dividends); c.property.push(property); c.privatePension.push(privatePension); c.statePension.push(statePension);
  if (disabled && status === 'UNEMPLOYED') status = 'LONG_TERM_DISABLED';
  c.status.push(STATUS.indexOf(status));
  addDisability(rnd, c, age, disabled, employment + self > 0);
  addChildcare(rnd, c, age);
}

/** Disability benefit awards, as the categories the model turns into amounts. */
function addDisability(rnd: Random, c: Columns, age: number, disabled: boolean, working: boolean): void {
  let pipDl = 0, pipM = 0, aa = 0, dlaSc = 0, dlaM = 0, lcwra = 0;
  if (disabled) {
    if (age < 16) {
      if (rnd.chance(P.DISABILITY.dla)) {
        dlaSc = 1 + rnd.pick([30, 40, 30]);
        dlaM = rnd.pick([40, 30, 30]);
      }
    } else if (age < P.PENSION.age) {
      if (rnd.chance(P.DISABILITY.pip)) {
        pipDl = 1 + rnd.pick([55, 45]);
        pipM = rnd.pick([40, 30, 30]);
      }
      if (!working && rnd.chance(P.DISABILITY.lcwra)) lcwra = 1;
    } else if (rnd.chance(P.DISABILITY.aa)) {
      aa = 1 + rnd.pick([50, 50]);
    }
  }
  c.disabled.push(lcwra); c.pipDl.push(pipDl); c.pipM.push(pipM); c.aa.push(aa); c.dlaSc.push(dlaSc); c.dlaM.push(dlaM);
}

/** Paid childcare for young children, recorded on the child. */
function addChildcare(rnd: Random, c: Columns, age: number): void {
  let cost = 0;
  if (age < 5 && rnd.chance(P.CHILDCARE.under5Share)) cost = rnd.lognormal(P.CHILDCARE.under5Median, P.CHILDCARE.sigma);
  else if (age >= 5 && age < 12 && rnd.chance(P.CHILDCARE.schoolShare)) cost = rnd.lognormal(P.CHILDCARE.schoolMedian, P.CHILDCARE.sigma);
  c.childcare.push(Math.round(cost));
}
