import { expect } from 'chai';
import { EngineError } from '../../core/types';
import { miniModel, sim } from './helpers';

const person = (type: string, formula?: string, extra: object = {}) => ({ entity: 'person', period: 'year', type, ...(formula ? { formula } : {}), ...extra });
const monthly = (type: string, formula?: string, extra: object = {}) => ({ entity: 'person', period: 'month', type, ...(formula ? { formula } : {}), ...extra });
const values = (v: Record<string, unknown>) => ({ values: v });

describe('core: formulas across periods', () => {
  const m = miniModel({
    income: person('float'),
    hours: monthly('float'),
    benefit: monthly('float', 'hours > 10 ? 100 : 0'),
    annual_income_in_month: monthly('float', 'this_year(income)'),
    benefit_months: person('int', 'count_months(benefit > 0)'),
    any_benefit: person('bool', 'any_month(benefit > 0)'),
    all_benefit: person('bool', 'all_months(hours > 10)'),
    benefit_total: person('float', 'sum_months(benefit * gov.weight)'),
    january_hours: person('float', 'first_month(hours)'),
    previous_month_hours: monthly('float', 'last_month(hours)'),
    month_number: monthly('int', 'month'),
  }, { gov: { weight: values({ '2020-01-01': 1, '2024-07-01': 2 }) } });

  it('reads the containing year, the first month, the previous month and the month number', () => {
    const s = sim(m, ['a']);
    s.setInput('income', '2024', [12000]);
    for (let k = 1; k <= 12; k++) s.setInput('hours', `2024-${String(k).padStart(2, '0')}`, [k]);
    s.setInput('hours', '2023-12', [99]);
    expect(Array.from(s.calculate('annual_income_in_month', '2024-03'))).to.deep.equal([12000]);
    expect(Array.from(s.calculate('january_hours', '2024'))).to.deep.equal([1]);
    expect(Array.from(s.calculate('previous_month_hours', '2024-01'))).to.deep.equal([99]);
    expect(Array.from(s.calculate('previous_month_hours', '2024-05'))).to.deep.equal([4]);
    expect(Array.from(s.calculate('month_number', '2024-11'))).to.deep.equal([11]);
  });

  it('sums, counts and tests an expression over the months of a year, parameters read in each month', () => {
    const s = sim(m, ['a']);
    for (let k = 1; k <= 12; k++) s.setInput('hours', `2024-${String(k).padStart(2, '0')}`, [k]);
    expect(Array.from(s.calculate('benefit_months', '2024'))).to.deep.equal([2]);
    expect(Array.from(s.calculate('any_benefit', '2024'))).to.deep.equal([1]);
    expect(Array.from(s.calculate('all_benefit', '2024'))).to.deep.equal([0]);
    // November and December, when the weight is 2.
    expect(Array.from(s.calculate('benefit_total', '2024'))).to.deep.equal([400]);
  });

  it('gives the same values through an execution plan as through lazy evaluation', () => {
    const targets = ['benefit_months', 'any_benefit', 'all_benefit', 'benefit_total', 'january_hours'];
    const fresh = () => {
      const s = sim(m, ['a', 'b']);
      for (let k = 1; k <= 12; k++) s.setInput('hours', `2024-${String(k).padStart(2, '0')}`, [k, 20 - k]);
      return s;
    };
    const lazy = fresh();
    const planned = fresh().computeReleasing(targets, '2024', { chunkPeople: 0 });
    for (const t of targets) expect(Array.from(planned.get(t)!), t).to.deep.equal(Array.from(lazy.calculate(t, '2024')));
  });

  it('refuses period functions where they have no meaning', () => {
    const bad = miniModel({ x: person('float'), y: person('float', 'last_month(x)'), z: monthly('float', 'sum_months(x)'), w: person('float', 'this_year(1 + x)') });
    const s = sim(bad, ['a']);
    expect(() => s.calculate('y', '2024')).to.throw(EngineError, 'last_month() can only be used in a monthly formula');
    expect(() => s.calculate('z', '2024-01')).to.throw(EngineError, 'sum_months() can only be used in a yearly formula');
    expect(() => s.calculate('w', '2024')).to.throw(EngineError, 'this_year() takes a variable name');
  });
});

describe('core: parameters at another instant, right-closed lookups and lists', () => {
  const scale = { brackets: [{ threshold: values({ '2000-01-01': 0 }), amount: values({ '2000-01-01': 1 }) }, { threshold: values({ '2000-01-01': 100 }), amount: values({ '2000-01-01': 2 }) }] };
  const m = miniModel({
    x: person('float'),
    state: person('enum', undefined, { possible_values: ['CA', 'NY', 'TX'], default: 'CA' }),
    fpg_october: monthly('float', 'param_at(gov.fpg, if(month >= 10, year, year - 1), 10, 1)'),
    left: person('float', 'lookup(gov.scale, x)'),
    right: person('float', 'lookup(gov.scale, x, right = true)'),
    in_list: person('bool', 'isin(state, gov.states)'),
    num_in_list: person('bool', 'isin(x, gov.numbers)'),
    a: person('float', 'x * 2'),
    b: person('float', 'x * 3'),
    listed: person('float', 'add(gov.sources)'),
    household_listed: { entity: 'household', period: 'year', type: 'float', formula: 'add(gov.sources)' },
  }, {
    gov: {
      fpg: values({ '2022-10-01': 10, '2023-10-01': 20 }),
      scale,
      states: values({ '2000-01-01': ['NY', 'TX'] }),
      numbers: values({ '2000-01-01': [100, 200] }),
      sources: values({ '2000-01-01': ['a', 'b'] }),
    },
  });

  it('reads a parameter at a date built from the period', () => {
    const s = sim(m, ['a']);
    expect(Array.from(s.calculate('fpg_october', '2024-03'))).to.deep.equal([20]);
    expect(Array.from(s.calculate('fpg_october', '2023-03'))).to.deep.equal([10]);
    expect(Array.from(s.calculate('fpg_october', '2023-11'))).to.deep.equal([20]);
  });

  it('puts a value equal to a threshold in the lower bracket with right = true', () => {
    const s = sim(m, ['a', 'b', 'c']);
    s.setInput('x', '2024', [100, 100.5, 50]);
    expect(Array.from(s.calculate('left', '2024'))).to.deep.equal([2, 2, 1]);
    expect(Array.from(s.calculate('right', '2024'))).to.deep.equal([1, 2, 1]);
  });

  it('tests membership in a list parameter and sums the variables a list names', () => {
    const s = sim(m, ['a', 'b', 'c'], { household: [{ id: 'h', members: ['a', 'b', 'c'] }] });
    s.setInput('state', '2024', ['CA', 'NY', 'TX']);
    s.setInput('x', '2024', [100, 1, 200]);
    expect(Array.from(s.calculate('in_list', '2024'))).to.deep.equal([0, 1, 1]);
    expect(Array.from(s.calculate('num_in_list', '2024'))).to.deep.equal([1, 0, 1]);
    expect(Array.from(s.calculate('listed', '2024'))).to.deep.equal([500, 5, 1000]);
    expect(Array.from(s.calculate('household_listed', '2024'))).to.deep.equal([1505]);
  });
});

describe('core: strings in formulas', () => {
  const m = miniModel({
    county_fips: person('string', undefined, { default: 'UNKNOWN' }),
    state: person('enum', undefined, { possible_values: ['CA', 'NY'], default: 'CA' }),
    county: person('enum', undefined, { possible_values: ['LOS_ANGELES_COUNTY_CA', 'DOÑA_ANA_COUNTY_NM'] }),
    state_str: person('string', 'name(state)'),
    is_la: person('bool', 'county_fips == "06037"'),
    listed: person('bool', 'isin(county_fips, gov.counties)'),
    picked: person('string', 'is_la ? "LA" : county_fips'),
    rate: person('float', 'gov.rate[state_str]'),
    prefix: person('string', 'substr(county_fips, 0, 2)'),
    county_name: person('string'),
    county_from_text: person('enum', 'concat(county_name, "_COUNTY_", state_str)', { possible_values: ['UNKNOWN', 'LOS_ANGELES_COUNTY_CA', 'KINGS_COUNTY_NY'], default: 'UNKNOWN' }),
    region_name: person('string', 'gov.region_of[state]'),
  }, {
    gov: {
      counties: values({ '2000-01-01': ['06037', '36061'] }),
      rate: { CA: values({ '2000-01-01': 0.1 }), NY: values({ '2000-01-01': 0.2 }) },
      region_of: { metadata: { breakdown: ['state'] }, CA: values({ '2000-01-01': 'WEST' }), NY: values({ '2000-01-01': 'NORTHEAST' }) },
    },
  });

  it('compares, tests membership, chooses and converts enum names to text', () => {
    const s = sim(m, ['a', 'b', 'c']);
    s.setInput('county_fips', '2024', ['06037', '36061', '99999']);
    s.setInput('state', '2024', ['CA', 'NY', 'NY']);
    expect(Array.from(s.calculate('is_la', '2024'))).to.deep.equal([1, 0, 0]);
    expect(Array.from(s.calculate('listed', '2024'))).to.deep.equal([1, 1, 0]);
    expect(s.decode('picked', s.calculate('picked', '2024'))).to.deep.equal(['LA', '36061', '99999']);
    expect(s.decode('state_str', s.calculate('state_str', '2024'))).to.deep.equal(['CA', 'NY', 'NY']);
    expect(Array.from(s.calculate('rate', '2024'))).to.deep.equal([0.1, 0.2, 0.2]);
    expect(s.decode('prefix', s.calculate('prefix', '2024'))).to.deep.equal(['06', '36', '99']);
    s.setInput('county_name', '2024', ['LOS_ANGELES', 'KINGS', 'NOWHERE']);
    // A text that names no value gives the default.
    expect(s.decode('county_from_text', s.calculate('county_from_text', '2024'))).to.deep.equal(['LOS_ANGELES_COUNTY_CA', 'KINGS_COUNTY_NY', 'UNKNOWN']);
    expect(s.decode('region_name', s.calculate('region_name', '2024'))).to.deep.equal(['WEST', 'NORTHEAST', 'NORTHEAST']);
    const fresh = sim(m, ['a']);
    expect(fresh.decode('county_fips', fresh.calculate('county_fips', '2024'))).to.deep.equal(['UNKNOWN']);
  });

  it('refuses arithmetic on text and text where a number belongs', () => {
    const bad = miniModel({ t: person('string'), x: person('float', 't + 1'), y: person('float', 'if(t == "a", "b", 1)') });
    const s = sim(bad, ['a']);
    expect(() => s.calculate('x', '2024')).to.throw(EngineError, 'a string cannot be used in arithmetic');
    expect(() => s.calculate('y', '2024')).to.throw(EngineError, '"b" is a string');
  });
});

describe('core: population statistics', () => {
  const m = miniModel({
    income: person('float'),
    weight: person('float', undefined, { default: 1 }),
    median_income: person('float', 'population_median(income, weight)'),
    p90: person('float', 'population_quantile(income, 0.9)'),
    decile: person('int', 'clip(ceil(population_rank(income, weight) * 10), 1, 10)'),
    poor: person('bool', 'income < 0.6 * population_median(income, weight)'),
  });
  const incomes = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000];

  it('computes weighted medians, quantiles and ranks over every row', () => {
    const s = sim(m, incomes.map((_, i) => `p${i}`));
    s.setInput('income', '2024', incomes);
    // Each value sits at the middle of its weight: the median of ten equal weights is midway between the 5th and 6th.
    expect(Array.from(s.calculate('median_income', '2024'))[0]).to.equal(550);
    expect(Array.from(s.calculate('p90', '2024'))[0]).to.equal(950);
    expect(Array.from(s.calculate('decile', '2024'))).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(Array.from(s.calculate('poor', '2024'))).to.deep.equal([1, 1, 1, 0, 0, 0, 0, 0, 0, 0]);
    s.setInput('weight', '2024', [10, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
    // 100 now sits at 5/19 of the weight and 200 at 10.5/19: the median interpolates between them.
    expect(Array.from(s.calculate('median_income', '2024'))[0]).to.be.closeTo(100 + ((0.5 - 5 / 19) / (5.5 / 19)) * 100, 1e-9);
  });

  it('never runs a plan with population statistics in chunks', () => {
    const many = Array.from({ length: 40 }, (_, i) => i * 10);
    const s = sim(m, many.map((_, i) => `p${i}`));
    s.setInput('income', '2024', many);
    const plan = s.plan(['decile'], '2024');
    expect(plan.global).to.equal(true);
    const chunked = s.computeReleasing(['decile', 'median_income'], '2024', { chunkPeople: 4 });
    expect(chunked.get('median_income')![0]).to.equal(195);
    expect(Array.from(chunked.get('decile')!)).to.deep.equal(Array.from(s.calculate('decile', '2024')));
  });
});

describe('core: local names', () => {
  it('compiles a local only when something reads it, so a switched-off branch adds no dependency', () => {
    const m = miniModel({
      x: person('float'),
      costly: person('float', 'x * 7'),
      y: person('float', 'expensive = costly * 2; cheap = x + 1; gov.switch ? expensive : cheap'),
    }, { gov: { switch: values({ '2000-01-01': false }) } });
    const s = sim(m, ['a']);
    s.setInput('x', '2024', [3]);
    expect(Array.from(s.calculate('y', '2024'))).to.deep.equal([4]);
    expect(m.compiled().kernel('y', '2024')!.deps.map((d) => d.name)).to.deep.equal(['x']);
  });

  it('reads the earlier value when a name is bound again, and refuses a local read before it is defined', () => {
    const m = miniModel({
      x: person('float'),
      capped: person('float', 'award = x * 2; award = min(award, 10); award + 1'),
      bad: person('float', 'a = a + 1; a'),
    });
    const s = sim(m, ['a', 'b']);
    s.setInput('x', '2024', [3, 30]);
    expect(Array.from(s.calculate('capped', '2024'))).to.deep.equal([7, 11]);
    expect(() => s.calculate('bad', '2024')).to.throw(EngineError, 'unknown name "a"');
  });
});
