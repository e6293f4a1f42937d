import { expect } from 'chai';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { writeDataset } from '../../server/datasets';
import { runSimulation, shutdownSimulationThreads, SimulationSummary } from '../../server/simulation';
import { labourSupplyParams } from '../../server/simulation/dynamics';
import { loadOutcome } from '../../server/simulation/output';
import { FLATLAND, flatland, tempDir } from './helpers';

/**
 * Worked by hand (Flatland: a flat 20% income tax, £1,000 child benefit). The reform raises the
 * rate to 30%; the dynamic sets an income elasticity of -0.1 and a substitution elasticity of 0.2.
 *
 * Household A, one earner on £10,000: net income 8,000 -> 7,000, a change of -12.5%; marginal
 * rate 20% -> 30%, so the net-of-tax rate falls from 0.8 to 0.7, also -12.5%.
 *   income effect       10,000 × -0.1 × -0.125 = +125
 *   substitution effect 10,000 ×  0.2 × -0.125 = -250
 *   response -125: earnings 9,875, net income 9,875 × 0.7 = 6,912.50.
 * Household B, earners on £10,000 and £20,000 and a child: net income 25,000 -> 22,000 (-12%);
 * each earner's net-of-tax rate falls 12.5%.
 *   first earner  10,000 × (-0.1 × -0.12 + 0.2 × -0.125) = 10,000 × -0.013 = -130
 *   second earner 20,000 × -0.013 = -260
 *   net income (29,610 × 0.7) + 1,000 = 21,727.
 * Household C has no earner: no response.
 */
describe('simulation: labour-supply responses', function () {
  this.timeout(60_000);
  const dir = tempDir('dynamics');
  const file = path.join(dir, 'flat.h5');
  const reform = { 'gov.tax.rate': { '2025-01-01.2100-12-31': 0.3 } };
  const dynamic = {
    'gov.simulation.labour_supply_responses.income_elasticity': { '2025-01-01.2100-12-31': -0.1 },
    'gov.simulation.labour_supply_responses.substitution_elasticity': { '2025-01-01.2100-12-31': 0.2 },
  };
  before(() => writeDataset(file, flatland([
    { household: 1, family: 1, age: 30, earnings: 10000 },
    { household: 2, family: 2, age: 40, earnings: 10000 },
    { household: 2, family: 2, age: 38, earnings: 20000 },
    { household: 2, family: 2, age: 5, earnings: 0 },
    { household: 3, family: 3, age: 80, earnings: 0 },
  ], [{ id: 1, weight: 1, region: 'NORTH' }, { id: 2, weight: 2, region: 'NORTH' }, { id: 3, weight: 1, region: 'SOUTH' }])));
  after(() => shutdownSimulationThreads());

  it('reads the elasticities from the dynamic, with the model as default', () => {
    const model = CountryModel.load(FLATLAND);
    expect(labourSupplyParams(model, undefined, 2025)).to.equal(null);
    expect(labourSupplyParams(model, { 'gov.simulation.labour_supply_responses.income_elasticity': { '2025-01-01': 0 } }, 2025)).to.equal(null);
    expect(labourSupplyParams(model, dynamic, 2025)).to.deep.equal({ income: -0.1, substitution: 0.2, delta: 100, incomeBound: 1, wageBound: 1 });
  });

  it('changes employment income by the income and substitution effects', async () => {
    const out = await runSimulation({ country: 'flatland', modelFolder: FLATLAND, datasetFile: file, year: 2025, reform, dynamic, outputFile: path.join(dir, 'dyn.h5') }, () => undefined);
    const data = await loadOutcome(out.outputFile);
    const response = Array.from(data.columns.employment_income_behavioral_response);
    const expected = [-125, -130, -260, 0, 0];
    response.forEach((r, i) => expect(r).to.be.closeTo(expected[i], 1e-6));
    const net = Array.from(data.columns.household_net_income);
    [6912.5, 21727, 0].forEach((n, i) => expect(net[i]).to.be.closeTo(n, 1e-6));
    const s = out.summary as SimulationSummary;
    expect(s.labour_supply_response!.employment_income_change).to.be.closeTo(-125 + 2 * (-130 - 260), 1e-6);
    expect(s.labour_supply_response!.people_responding).to.equal(1 + 2 * 2); // weighted
  });

  it('leaves a static run unchanged', async () => {
    const out = await runSimulation({ country: 'flatland', modelFolder: FLATLAND, datasetFile: file, year: 2025, reform, outputFile: path.join(dir, 'static.h5') }, () => undefined);
    const s = out.summary as SimulationSummary;
    expect(s.labour_supply_response).to.equal(null);
    expect(s.household_net_income).to.be.closeTo(7000 + 2 * 22000, 1e-9);
  });
});
