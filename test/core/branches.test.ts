import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { buildPopulation } from '../../core/population';
import { Simulation } from '../../core/simulation';
import { EngineError } from '../../core/types';
import { miniModel, sim } from './helpers';

const person = (type: string, formula?: string) => ({ entity: 'person', period: 'year', type, ...(formula ? { formula } : {}) });

describe('core: branches', () => {
  // Itemise when that gives less tax: the choice reads the tax itself, computed in two branches.
  const m = miniModel({
    income: person('float'),
    itemized: person('float'),
    itemizes: person('bool', 'branch(tax, itemizes = true) < branch(tax, itemizes = false)'),
    deduction: person('float', 'itemizes ? itemized : gov.standard'),
    tax: person('float', 'max(0, income - deduction) * 0.25'),
    tax_if_itemizing: person('float', 'branch(tax, itemizes = true)'),
    nested: person('float', 'branch(outer, income = 4000)'),
    outer: person('float', 'branch(tax, itemizes = true) + income'),
    forever: person('float', 'branch(forever, income = 1)'),
  }, { gov: { standard: { values: { '2020-01-01': 1000 } } } });

  const fresh = () => {
    const s = sim(m, ['a', 'b']);
    s.setInput('income', '2024', [10000, 10000]);
    s.setInput('itemized', '2024', [3000, 500]);
    return s;
  };

  it('evaluates a variable as if another had a given value, inside one simulation', () => {
    const s = fresh();
    expect(Array.from(s.calculate('itemizes', '2024'))).to.deep.equal([1, 0]);
    expect(Array.from(s.calculate('tax', '2024'))).to.deep.equal([1750, 2250]);
    expect(Array.from(s.calculate('tax_if_itemizing', '2024'))).to.deep.equal([1750, 2375]);
  });

  it('fixes the variable even where the simulation was given a value for it', () => {
    const s = fresh();
    s.setInput('itemizes', '2024', [false, false]);
    expect(Array.from(s.calculate('tax', '2024'))).to.deep.equal([2250, 2250]);
    expect(Array.from(s.calculate('tax_if_itemizing', '2024'))).to.deep.equal([1750, 2375]);
  });

  it('keeps the outer branch\'s values inside a nested branch', () => {
    const s = fresh();
    // income 4000 in the outer branch, then itemizing: (4000 - itemized) * 0.25 + 4000.
    expect(Array.from(s.calculate('nested', '2024'))).to.deep.equal([4250, 4875]);
  });

  it('gives the same values through an execution plan, whole and in chunks', () => {
    const targets = ['itemizes', 'tax', 'tax_if_itemizing', 'nested'];
    const lazy = fresh();
    for (const chunkPeople of [0, 1]) {
      const s = sim(m, Array.from({ length: 6 }, (_, i) => `p${i}`));
      s.setInput('income', '2024', [10000, 10000, 10000, 10000, 10000, 10000]);
      s.setInput('itemized', '2024', [3000, 500, 3000, 500, 3000, 500]);
      const out = s.computeReleasing(targets, '2024', { chunkPeople });
      for (const t of targets) expect(Array.from(out.get(t)!).slice(0, 2), `${t}, chunks of ${chunkPeople}`).to.deep.equal(Array.from(lazy.calculate(t, '2024')));
    }
  });

  it('gives a variable another variable\'s values in a branch (a marginal rate from raised earnings)', () => {
    const m2 = miniModel({
      earnings: person('float'),
      tax: person('float', 'max(0, earnings - 100) * 0.2'),
      net: person('float', 'earnings - tax'),
      raised: person('float', 'earnings + 10'),
      net_raised: person('float', 'branch(net, earnings = raised)'),
      mtr: person('float', '1 - (net_raised - net) / 10'),
      wrong: person('bool', 'branch(net, earnings = is_big)'),
      is_big: person('bool', 'earnings > 1'),
    });
    const fresh = () => {
      const s = sim(m2, ['low', 'high']);
      s.setInput('earnings', '2024', [50, 200]);
      return s;
    };
    expect(Array.from(fresh().calculate('mtr', '2024')).map((x) => +x.toFixed(10))).to.deep.equal([0, 0.2]);
    const planned = fresh().computeReleasing(['mtr', 'net'], '2024', { chunkPeople: 0 });
    expect(Array.from(planned.get('mtr')!).map((x) => +x.toFixed(10))).to.deep.equal([0, 0.2]);
    expect(Array.from(planned.get('net')!)).to.deep.equal([50, 180]);
    expect(() => fresh().calculate('wrong', '2024')).to.throw(EngineError, 'earnings can take the values of a year person float variable, not is_big');
  });

  it('recomputes, inside a nested branch, what the outer branch reused from the simulation', () => {
    // The outer branch fixes `bonus`, which the marginal rate does not read: it reuses `tax` and
    // `net` from the simulation. The inner branch raises earnings: those reused columns depend on
    // earnings and must be computed again there, not passed through.
    const m2 = miniModel({
      earnings: person('float'),
      bonus: person('float'),
      tax: person('float', 'max(0, earnings - 100) * 0.2'),
      net: person('float', 'earnings - tax'),
      raised: person('float', 'earnings + 10'),
      mtr: person('float', '1 - (branch(net, earnings = raised) - net) / 10'),
      mtr_with_bonus: person('float', 'branch(mtr, bonus = 5) + bonus'),
    });
    const fresh = () => {
      const s = sim(m2, ['low', 'high']);
      s.setInput('earnings', '2024', [50, 200]);
      return s;
    };
    const rounded = (xs: ArrayLike<number>) => Array.from(xs).map((x) => +x.toFixed(10));
    expect(rounded(fresh().calculate('mtr_with_bonus', '2024'))).to.deep.equal([0, 0.2]);
    const planned = fresh().computeReleasing(['mtr_with_bonus', 'net'], '2024', { chunkPeople: 0 });
    expect(rounded(planned.get('mtr_with_bonus')!)).to.deep.equal([0, 0.2]);
  });

  it('keeps a column a branch hands back unchanged apart from the branch\'s own slot', () => {
    // b is a computed without change (a does not read y): its column must not be freed as b's.
    const m2 = miniModel({
      x: person('float'),
      y: person('float'),
      a: person('float', 'x * 2'),
      b: person('float', 'branch(a, y = 1)'),
      c: person('float', 'b + 1'),
      e: person('float', 'c * 3'),
      d: person('float', 'a + e'),
    });
    const s = sim(m2, ['p', 'q']);
    s.setInput('x', '2024', [1, 2]);
    const out = s.computeReleasing(['d', 'e'], '2024', { chunkPeople: 0 });
    expect(Array.from(out.get('e')!)).to.deep.equal([9, 15]);
    expect(Array.from(out.get('d')!)).to.deep.equal([11, 19]);
  });

  it('stops a branch that asks for itself forever, and refuses bad changes', () => {
    expect(() => fresh().calculate('forever', '2024')).to.throw(EngineError, /branches nested 8 deep/);
    const bad = (formula: string) => miniModel({ x: person('float'), e: { entity: 'person', period: 'year', type: 'enum', possible_values: ['A', 'B'] }, y: person('float', formula) });
    expect(() => sim(bad('branch(x, x + 1)'), ['a']).calculate('y', '2024')).to.throw(EngineError, 'write each change as NAME = VALUE');
    expect(() => sim(bad('branch(x, x = x + 1)'), ['a']).calculate('y', '2024')).to.throw(EngineError, 'the value of x must be a constant or a variable');
    expect(() => sim(bad('branch(x, e = "C")'), ['a']).calculate('y', '2024')).to.throw(EngineError, '"C" is not a value of e');
    expect(() => sim(bad('branch(x, rules = "old")'), ['a']).calculate('y', '2024')).to.throw(EngineError, 'rules = "old" is not "baseline" or a rule set');
  });
});

describe('core: branches under other rules', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-rules-'));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  };
  write('country.yaml', 'id: t\nlabel: T\nversion: 1.0.0\ncurrency: X\nyear_instant: "01-01"\nentities:\n  - {key: person, plural: people, person: true}\n');
  write('parameters/gov/credit/amount.yaml', 'values:\n  2020-01-01: 100\n  2021-01-01: 300\n');
  write('parameters/gov/credit/rate.yaml', 'values:\n  2020-01-01: 0.5\n  2021-01-01: 0.75\n');
  write('parameters/gov/other.yaml', 'values:\n  2020-01-01: 7\n');
  write('variables/credit.yaml', [
    'credit:\n  entity: person\n  period: year\n  type: float\n  formula: gov.credit.amount * gov.credit.rate + gov.other',
    'credit_2021_law_of_2020:\n  entity: person\n  period: year\n  type: float\n  formula: branch(credit, rules = "pre_expansion")',
    'credit_baseline:\n  entity: person\n  period: year\n  type: float\n  formula: branch(credit, rules = "baseline")',
    'income:\n  entity: person\n  period: year\n  type: float',
    'scaled:\n  entity: person\n  period: year\n  type: float\n  formula: income * gov.other',
    'boosted:\n  entity: person\n  period: year\n  type: float\n  formula: income * gov.credit.amount / 1000',
    'total:\n  entity: person\n  period: year\n  type: float\n  formula: scaled + boosted + scaled * boosted / 1e6',
    'total_old:\n  entity: person\n  period: year\n  type: float\n  formula: branch(total, rules = "pre_expansion")',
  ].join('\n'));
  write('rule_sets/pre_expansion.yaml', [
    'description: The credit of 2021 computed with the 2020 parameters, but the 2021 rate.',
    'pin:\n  - {path: gov.credit, at: 2020-06-01, from: 2021-01-01, to: 2021-12-31}',
    'set:\n  gov.credit.rate: {2021-01-01.2021-12-31: 0.75}',
  ].join('\n'));
  const model = CountryModel.load(dir);

  it('pins a subtree to its value at a date, then applies explicit values', () => {
    const s = sim(model, ['a']);
    expect(Array.from(s.calculate('credit', '2021'))).to.deep.equal([232]);
    expect(Array.from(s.calculate('credit_2021_law_of_2020', '2021'))).to.deep.equal([82]);
    // Outside the pinned period the rule set changes nothing.
    expect(Array.from(s.calculate('credit_2021_law_of_2020', '2022'))).to.deep.equal([232]);
  });

  it('applies a rule set on top of a reform, and reads the baseline law inside a reform', () => {
    const s = new Simulation(model, buildPopulation(model, ['a'], {}), { reform: { 'gov.other': { '2020-01-01.2030-12-31': 10 } } });
    expect(Array.from(s.calculate('credit', '2021'))).to.deep.equal([235]);
    expect(Array.from(s.calculate('credit_2021_law_of_2020', '2021'))).to.deep.equal([85]);
    expect(Array.from(s.calculate('credit_baseline', '2021'))).to.deep.equal([232]);
    const planned = new Simulation(model, buildPopulation(model, ['a'], {}), { reform: { 'gov.other': { '2020-01-01.2030-12-31': 10 } } }).computeReleasing(['credit', 'credit_baseline'], '2021', { chunkPeople: 0 });
    expect(Array.from(planned.get('credit_baseline')!)).to.deep.equal([232]);
    expect(Array.from(planned.get('credit')!)).to.deep.equal([235]);
  });

  it('reads the baseline law in a baseline simulation as the simulation itself', () => {
    const s = sim(model, ['a']);
    expect(s.branch(JSON.stringify({ rules: 'baseline', set: [] }))).to.equal(s);
    expect(Array.from(s.calculate('credit_baseline', '2021'))).to.deep.equal([232]);
    const planned = sim(model, ['a']).computeReleasing(['credit_baseline'], '2021', { chunkPeople: 0 });
    expect(Array.from(planned.get('credit_baseline')!)).to.deep.equal([232]);
  });

  it('takes into a branch under other rules the columns both rules compute alike', () => {
    const s = sim(model, ['a', 'b']);
    s.setInput('income', '2021', [1000, 2000]);
    const plan = s.plan(['total', 'total_old'], '2021');
    const branch = plan.steps.find((st) => st.kind === 'branch');
    if (branch?.kind !== 'branch') throw new Error('no branch step');
    // `scaled` reads no parameter the rule set changes: computed once, outside the branch.
    expect(branch.plan.inputs.map((i) => i.name).sort()).to.deep.equal(['income', 'scaled']);
    expect(branch.plan.steps.flatMap((st) => (st.kind === 'kernel' ? [st.kernel.variable] : []))).to.deep.equal(['total']);
    const planned = s.computeReleasing(['total', 'total_old'], '2021', { chunkPeople: 0 });
    const lazy = sim(model, ['a', 'b']);
    lazy.setInput('income', '2021', [1000, 2000]);
    expect(Array.from(planned.get('total')!)).to.deep.equal([7000 + 300 + 2.1, 14000 + 600 + 8.4]);
    expect(Array.from(planned.get('total_old')!)).to.deep.equal([7000 + 100 + 0.7, 14000 + 200 + 2.8]);
    expect(Array.from(lazy.calculate('total_old', '2021'))).to.deep.equal(Array.from(planned.get('total_old')!));
  });

  it('refuses a rule set that pins a parameter that does not exist', () => {
    write('rule_sets/broken.yaml', 'description: x\npin:\n  - {path: gov.nothing, at: 2020-01-01, from: 2021-01-01, to: 2021-12-31}\n');
    write('variables/broken.yaml', 'broken:\n  entity: person\n  period: year\n  type: float\n  formula: branch(credit, rules = "broken")\n');
    const m2 = CountryModel.load(dir);
    expect(() => sim(m2, ['a']).calculate('broken', '2021')).to.throw(EngineError, 'pin: no parameter gov.nothing');
    fs.rmSync(path.join(dir, 'rule_sets/broken.yaml'));
    fs.rmSync(path.join(dir, 'variables/broken.yaml'));
  });
});
