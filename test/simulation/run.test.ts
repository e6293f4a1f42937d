import { expect } from 'chai';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { Simulation } from '../../core/simulation';
import { readDataset, synthesize, writeDataset } from '../../server/datasets';
import { toMicrodata } from '../../server/datasets/microdata';
import { canPair, economicImpact, outputWritten, regions, runSimulation, runSimulations, shutdownSimulationThreads, SimulationSummary } from '../../server/simulation';
import { forgetOutcomes, loadOutcome } from '../../server/simulation/output';
import { FLATLAND, flatland, tempDir, UK_MODEL } from './helpers';

const people = [
  { household: 10, family: 1, age: 40, earnings: 30000 },
  { household: 10, family: 1, age: 8, earnings: 0 },
  { household: 20, family: 2, age: 70, earnings: 0 },
  { household: 30, family: 3, age: 25, earnings: 12000 },
  { household: 30, family: 4, age: 23, earnings: 18000 },
];
const households = [
  { id: 10, weight: 100, region: 'NORTH' },
  { id: 20, weight: 50, region: 'SOUTH' },
  { id: 30, weight: 25, region: 'SOUTH' },
];

describe('simulation: runs over worker threads', function () {
  this.timeout(120_000);
  const dir = tempDir('simulation');
  const file = path.join(dir, 'flat.h5');
  before(() => writeDataset(file, flatland(people, households)));
  after(() => shutdownSimulationThreads());

  it('computes weighted totals worked by hand, on any number of threads', async () => {
    for (const threads of [1, 2]) {
      const progress: number[] = [];
      const out = await runSimulation({ country: 'flatland', modelFolder: FLATLAND, datasetFile: file, year: 2025, outputFile: path.join(dir, `out${threads}.h5`), threads }, (f) => progress.push(f));
      const s = out.summary as SimulationSummary;
      // Household 10: 30,000 earned, 6,000 tax, 1,000 child benefit; household 30: 30,000 earned, 6,000 tax.
      expect(s.household_net_income).to.equal(100 * 25000 + 25 * 24000);
      expect(s.household_tax).to.equal(100 * 6000 + 25 * 6000);
      expect(s.programs).to.deep.equal([
        { name: 'income_tax', label: 'Income tax', entity: 'person', is_tax: true, total: 750000, count: 150 },
        { name: 'child_benefit', label: 'Child benefit', entity: 'family', is_tax: false, total: 100000, count: 100 },
      ]);
      expect(s.weighted_households).to.equal(175);
      expect(s.weighted_people).to.equal(100 * 2 + 50 + 25 * 2);
      expect(s.counts).to.deep.equal({ person: 5, family: 4, household: 3 });
      expect(progress[progress.length - 1]).to.equal(1);
      const poverty = s.poverty;
      expect(poverty).to.deep.equal([]);
    }
  });

  it('writes an output file in our layout that reports can read instead of memory', async () => {
    const outputFile = path.join(dir, 'out-file.h5');
    const outcome = await runSimulation({ country: 'flatland', modelFolder: FLATLAND, datasetFile: file, year: 2025, outputFile }, () => undefined);
    // The file follows the outcome, written in the background.
    await outputWritten(outputFile);
    const tables = await readDataset(outputFile);
    expect(tables.layout).to.equal('fiscus');
    expect(Array.from(tables.tables.get('household')!.columns.get('household_net_income') as Float64Array)).to.deep.equal([25000, 0, 24000]);
    expect(Array.from(tables.tables.get('person')!.columns.get('person_household_id') as ArrayLike<number>)).to.deep.equal([10, 10, 20, 30, 30]);
    const inMemory = await economicImpact('flatland', outcome, outcome);
    forgetOutcomes();
    const fromFile = await loadOutcome(outputFile);
    expect(Array.from(fromFile.columns.household_net_income)).to.deep.equal([25000, 0, 24000]);
    expect(await economicImpact('flatland', outcome, outcome)).to.deep.equal(inMemory);
    expect(inMemory.budget_summary.budgetary_impact).to.equal(0);
    expect(inMemory.decile_impacts.every((d) => d.absolute_change === 0 && d.count_better_off === 0 && d.count_worse_off === 0)).to.equal(true);
  });

  it('reports a reform against the baseline', async () => {
    const base = { country: 'flatland', modelFolder: FLATLAND, datasetFile: file, year: 2025 };
    const baseline = await runSimulation({ ...base, outputFile: path.join(dir, 'b.h5') }, () => undefined);
    const reform = await runSimulation({ ...base, reform: { 'gov.tax.rate': { '2025-01-01.2100-12-31': 0.25 } }, outputFile: path.join(dir, 'r.h5') }, () => undefined);
    const report = await economicImpact('flatland', baseline, reform);
    const tax = report.program_statistics.find((p) => p.program_name === 'income_tax')!;
    expect(tax).to.deep.include({ baseline_total: 750000, reform_total: 937500, change: 187500, winners: 0, losers: 125 });
    expect(report.budget_summary).to.deep.include({ tax_change: 187500, benefit_change: 0, budgetary_impact: 187500, net_income_change: -187500 });
    const worse = report.decile_impacts.reduce((a, d) => a + d.count_worse_off, 0);
    expect(worse).to.equal(125);
    expect(report.intra_decile[0].lose_more_than_5pct + report.intra_decile[0].no_change).to.be.closeTo(1, 1e-12);
  });

  it('stops when its signal is aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    let error: unknown;
    await runSimulation({ country: 'flatland', modelFolder: FLATLAND, datasetFile: file, year: 2025, outputFile: path.join(dir, 'aborted.h5') }, () => undefined, controller.signal).catch((e) => (error = e));
    expect((error as Error).name).to.equal('AbortError');
  });

  it('fails with the reason for a bad dataset or region', async () => {
    const bad = path.join(dir, 'bad.h5');
    const t = flatland(people, households);
    t.tables.get('household')!.columns.set('household_weight', Float64Array.of(1, -1, 1));
    await writeDataset(bad, t);
    let error: unknown;
    await runSimulation({ country: 'flatland', modelFolder: FLATLAND, datasetFile: bad, year: 2025, outputFile: path.join(dir, 'x.h5') }, () => undefined).catch((e) => (error = e));
    expect((error as { problems: { column: string }[] }).problems[0].column).to.equal('household_weight');
    error = undefined;
    await runSimulation({ country: 'uk', modelFolder: UK_MODEL, datasetFile: file, year: 2025, region: 'region/atlantis', outputFile: path.join(dir, 'y.h5') }, () => undefined).catch((e) => (error = e));
    expect(String(error)).to.match(/unknown region "region\/atlantis"/);
  });
});

describe('simulation: the UK on a synthetic population', function () {
  this.timeout(180_000);
  const dir = tempDir('uk-simulation');
  const file = path.join(dir, 'uk.h5');
  before(async () => writeDataset(file, await synthesize('uk', { households: 3000, year: 2025, seed: 11 })));
  after(() => shutdownSimulationThreads());

  it('gives programme totals equal, to the penny, to the weighted sums the engine computes directly', async () => {
    const outcome = await runSimulation({ country: 'uk', modelFolder: UK_MODEL, datasetFile: file, year: 2025, outputFile: path.join(dir, 'out.h5'), threads: 2 }, () => undefined);
    const summary = outcome.summary as SimulationSummary;
    const model = CountryModel.load(UK_MODEL);
    const md = toMicrodata(await readDataset(file, { model }), model);
    const sim = new Simulation(model, { count: md.counts, membership: md.membership });
    for (const i of md.inputs) sim.setInput(i.name, '2025', i.values);
    const names = summary.programs.map((p) => p.name);
    const direct = sim.computeReleasing([...names, 'household_net_income'], '2025');
    const hh = md.membership.household;
    for (const p of summary.programs) {
      const col = direct.get(p.name)!;
      const weightOf = (r: number) => {
        if (p.entity === 'household') return md.weights[r];
        if (p.entity === 'person') return md.weights[hh[r]];
        const first = md.membership[p.entity].indexOf(r);
        return md.weights[hh[first]];
      };
      let total = 0;
      for (let r = 0; r < col.length; r++) total += weightOf(r) * col[r];
      expect(Math.abs(total - p.total), p.name).to.be.lessThan(0.005);
    }
    expect(summary.programs.map((p) => p.name)).to.include.members(['income_tax', 'national_insurance', 'universal_credit', 'child_benefit', 'state_pension', 'pension_credit', 'housing_benefit', 'council_tax']);
    const net = direct.get('household_net_income')!;
    let sum = 0;
    for (let h = 0; h < net.length; h++) sum += md.weights[h] * net[h];
    expect(Math.abs(sum - summary.household_net_income)).to.be.lessThan(0.005);
    const relative = summary.poverty.find((p) => p.measure === 'relative_bhc' && p.group === 'all');
    expect(relative && relative.rate).to.be.within(0.05, 0.4);
    expect(summary.inequality.gini).to.be.within(0.2, 0.5);
  });

  it('runs a baseline and its reform in one pass with the same results as run apart', async () => {
    const reform = { 'gov.hmrc.income_tax.rates.uk[0].rate': { '2025-01-01.2100-12-31': 0.22 }, 'gov.dwp.universal_credit.means_test.reduction_rate': { '2025-01-01.2100-12-31': 0.5 } };
    const spec = (name: string, r?: typeof reform) => ({ country: 'uk', modelFolder: UK_MODEL, datasetFile: file, year: 2025, reform: r, outputFile: path.join(dir, `${name}.h5`), threads: 2 });
    const apart = [await runSimulation(spec('apart-b'), () => undefined), await runSimulation(spec('apart-r', reform), () => undefined)];
    const paired = await runSimulations([spec('pair-b'), spec('pair-r', reform)], () => undefined);
    const strip = (o: { summary: unknown }) => ({ ...(o.summary as SimulationSummary), timings: null });
    expect((paired[0].summary as SimulationSummary).timings.paired).to.equal(1);
    expect(strip(paired[0])).to.deep.equal(strip(apart[0]));
    expect(strip(paired[1])).to.deep.equal(strip(apart[1]));
    // The reform changed something the pass had to recompute, and left the rest shared.
    const b = apart[0].summary as SimulationSummary;
    const r = apart[1].summary as SimulationSummary;
    expect(r.household_tax).to.be.above(b.household_tax);
    expect(r.programs.find((p) => p.name === 'universal_credit')!.total).to.be.above(b.programs.find((p) => p.name === 'universal_credit')!.total);
    expect(r.programs.find((p) => p.name === 'child_benefit')!.total).to.equal(b.programs.find((p) => p.name === 'child_benefit')!.total);
    for (const [k, name] of ['pair-b', 'pair-r'].entries()) {
      await outputWritten(path.join(dir, `${name}.h5`));
      await outputWritten(apart[k].outputFile);
      const [x, y] = [await readDataset(path.join(dir, `${name}.h5`)), await readDataset(apart[k].outputFile)];
      for (const [table, t] of y.tables) for (const [col, values] of t.columns) expect(Array.from(x.tables.get(table)!.columns.get(col) as ArrayLike<number>), `${name} ${table}.${col}`).to.deep.equal(Array.from(values as ArrayLike<number>));
    }
    // Simulations that cannot share a pass are refused, not run wrong.
    expect(canPair(spec('a'), { ...spec('b'), year: 2026 })).to.equal(false);
    expect(canPair(spec('a'), { ...spec('b'), dynamic: { 'gov.simulation.labour_supply_responses.income_elasticity': { '2025-01-01': -0.05 } } })).to.equal(false);
    let refused: Error | null = null;
    await runSimulations([spec('a'), { ...spec('b'), year: 2026 }], () => undefined).catch((e) => (refused = e));
    expect(refused).to.be.instanceOf(Error);
  });

  it('limits a simulation to a region', async () => {
    const all = await runSimulation({ country: 'uk', modelFolder: UK_MODEL, datasetFile: file, year: 2025, outputFile: path.join(dir, 'all.h5') }, () => undefined);
    const parts = [];
    for (const r of regions('uk').filter((r) => r.type === 'country')) {
      const out = await runSimulation({ country: 'uk', modelFolder: UK_MODEL, datasetFile: file, year: 2025, region: r.name, outputFile: path.join(dir, `${r.name.replace('/', '-')}.h5`) }, () => undefined);
      parts.push(out.summary as SimulationSummary);
    }
    const a = all.summary as SimulationSummary;
    expect(parts.reduce((n, s) => n + s.counts.household, 0)).to.equal(a.counts.household);
    expect(parts.reduce((n, s) => n + s.household_net_income, 0)).to.be.closeTo(a.household_net_income, 1);
    expect(parts.every((s) => s.counts.household > 0 && s.region !== null)).to.equal(true);
  });

  it('lists regions for the UK and the US', () => {
    expect(regions('uk').map((r) => r.name)).to.include.members(['uk', 'country/scotland', 'region/london']);
    expect(regions('uk')).to.have.length(1 + 4 + 12);
    expect(regions('us')).to.have.length(1 + 51);
    expect(regions('us')).to.deep.include({ name: 'state/ca', label: 'California', type: 'state' });
  });
});
