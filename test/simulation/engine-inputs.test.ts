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
