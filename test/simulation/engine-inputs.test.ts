import { expect } from 'chai';
import { CountryModel } from '../../core/model';
import { populationFromArrays } from '../../core/population';
import { Simulation } from '../../core/simulation';
import { FLATLAND } from './helpers';

// The small engine addition microdata relies on (core/simulation.ts): enum codes given in the
// column's own typed array are used as they are, after a range check.
describe('engine: enum codes as inputs', () => {
  const model = CountryModel.load(FLATLAND);
  const pop = populationFromArrays(model, 2, { family: Int32Array.of(0, 1), household: Int32Array.of(0, 1) });

  it('takes codes in a Uint8Array without copying, and names as before', () => {
    const sim = new Simulation(model, pop);
    const codes = Uint8Array.of(1, 0);
    sim.setInput('region', '2025', codes);
    expect(sim.calculate('region', '2025')).to.equal(codes);
    expect(sim.decode('region', sim.calculate('region', '2025'))).to.deep.equal(['SOUTH', 'NORTH']);
    const named = new Simulation(model, pop);
    named.setInput('region', '2025', ['SOUTH', 'NORTH']);
    expect(Array.from(named.calculate('region', '2025'))).to.deep.equal([1, 0]);
  });

  it('refuses a code outside the values', () => {
    const sim = new Simulation(model, pop);
    expect(() => sim.setInput('region', '2025', Uint8Array.of(0, 2))).to.throw(/region: 2 is not a valid code \(0 to 1\)/);
  });
});

// The other engine addition (core/compiler/variable.ts): kernels of the same generated code share
// one factory, each bound to its own constants; a reform must still compute with its values.
describe('engine: kernels shared between a baseline and a reform', () => {
  const model = CountryModel.load(FLATLAND);
  const pop = populationFromArrays(model, 2, { family: Int32Array.of(0, 0), household: Int32Array.of(0, 0) });
  const run = (reform?: Record<string, Record<string, number>>) => {
    const sim = new Simulation(model, pop, { reform });
    sim.setInput('employment_income', '2025', Float64Array.of(30000, 10000));
    sim.setInput('age', '2025', Int32Array.of(40, 8));
    return [Array.from(sim.calculate('income_tax', '2025')), Array.from(sim.calculate('child_benefit', '2025'))];
  };

  it('computes each reform with its own parameter values', () => {
    expect(run()).to.deep.equal([[6000, 2000], [1000]]);
    expect(run({ 'gov.tax.rate': { '2025-01-01.2100-12-31': 0.25 } })).to.deep.equal([[7500, 2500], [1000]]);
    expect(run({ 'gov.benefit.amount': { '2025-01-01.2100-12-31': 1500 } })).to.deep.equal([[6000, 2000], [1500]]);
    expect(run()).to.deep.equal([[6000, 2000], [1000]]);
    const base = model.compiled().kernel('income_tax', '2025')!;
    const reformed = model.compiled({ 'gov.tax.rate': { '2025-01-01.2100-12-31': 0.25 } }).kernel('income_tax', '2025')!;
    expect(reformed.run).to.not.equal(base.run);
  });
});
