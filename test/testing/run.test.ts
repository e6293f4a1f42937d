import { expect } from 'chai';
import { engineFor } from '../../core/testing/engine';
import { normalizeCase } from '../../core/testing/normalize';
import { batchKey, runCases, TestEngine } from '../../core/testing/run';
import type { NormalizedCase } from '../../core/testing/types';
import { fixtureModel } from './fixture';
import { loaded } from './helpers';

/** The real engine, counting the simulations it creates (to see the batching). */
function countingEngine(): { engine: TestEngine; simulations: () => number } {
  const real = engineFor(fixtureModel());
  let count = 0;
  return {
    engine: { ...real, createSimulation: (population, reform) => { count++; return real.createSimulation(population, reform); } },
    simulations: () => count,
  };
}

const norm = (raw: Record<string, unknown>, index = 0): NormalizedCase =>
  normalizeCase(fixtureModel(), { ...loaded(raw, 'run.yaml'), index });

describe('testing/run (fixture country)', () => {
  it('passes correct cases and reports expected and actual for a wrong one', () => {
    const { engine } = countingEngine();
    const results = runCases(engine, [
      norm({ name: 'ok', period: 2024, input: { employment_income: 20000 }, output: { income_tax: 1600, tax_band: 'BASIC' } }, 0),
      norm({ name: 'wrong', period: 2024, input: { employment_income: 20000 }, output: { income_tax: 1000 } }, 1),
    ]);
    expect(results[0]).to.deep.equal({ file: 'run.yaml', index: 0, name: 'ok', passed: true, errors: [], failures: [] });
    expect(results[1].passed).to.equal(false);
    expect(results[1].failures).to.deep.equal([
      { variable: 'income_tax', entity: 'person', instance: '0', period: '2024', expected: 1000, actual: 1600, reason: 'differs by 600 (absolute margin 0.001)' },
    ]);
  });

  it('runs a case whose outputs read population statistics alone, never batched with others', () => {
    const { engine, simulations } = countingEngine();
    const cases = [100, 200].map((income, i) =>
      norm({ name: `d${i}`, period: 2024, input: { people: { a: { employment_income: income } } }, output: { income_decile_here: 10 } }, i));
    const results = runCases(engine, cases);
    expect(results.map((r) => r.passed)).to.deep.equal([true, true]);
    expect(simulations()).to.equal(2);
  });

  it('batches cases with the same inputs into one simulation, keeping their rows apart', () => {
    const { engine, simulations } = countingEngine();
    const cases = [10000, 20000, 30000].map((income, i) =>
      norm({ name: `c${i}`, period: 2024, input: { people: { a: { employment_income: income } } }, output: { income_tax: Math.max(0, income - 12000) * 0.2, family_income: income } }, i));
    const results = runCases(engine, cases);
    expect(results.map((r) => r.passed)).to.deep.equal([true, true, true]);
    expect(simulations()).to.equal(1);
  });

  it('never batches a case giving a formula variable with one that lets the formula run', () => {
    const { engine, simulations } = countingEngine();
    const given = norm({ name: 'given', period: 2024, input: { people: { a: { age: 10, is_adult: true } } }, output: { is_adult: true } }, 0);
    const computed = norm({ name: 'computed', period: 2024, input: { people: { a: { age: 10 } } }, output: { is_adult: false } }, 1);
    expect(batchKey(given, fixtureModel())).to.not.equal(batchKey(computed, fixtureModel()));
    expect(runCases(engine, [given, computed]).map((r) => r.passed)).to.deep.equal([true, true]);
    expect(simulations()).to.equal(2);
  });

  it('plain input variables given for their own period do not split batches', () => {
    const { engine, simulations } = countingEngine();
    const results = runCases(engine, [
      norm({ period: 2024, input: { people: { a: { age: 30 } } }, output: { is_adult: true } }, 0),
      norm({ period: 2024, input: { people: { a: { employment_income: 5 } } }, output: { is_adult: false, income_tax: 0 } }, 1),
      norm({ period: 2023, input: { household: { members: ['a'], region: 'NORTH' }, people: { a: {} } }, output: { is_north: true } }, 2),
      norm({ period: 2024, input: { people: { a: {} } }, output: { is_north: false, region: 'SOUTH' } }, 3),
    ]);
    expect(results.map((r) => r.passed)).to.deep.equal([true, true, true, true]);
    expect(simulations()).to.equal(1);
  });

  it('a plain input given for another period than its own splits the batch (setting it moves values across periods)', () => {
    const { engine, simulations } = countingEngine();
    const results = runCases(engine, [
      norm({ period: 2024, input: { monthly_pay: 1200 }, output: { monthly_pay: { '2024-03': 100 }, annual_pay: 1200 } }, 0),
      norm({ period: '2024-03', input: { monthly_pay: 70 }, output: { monthly_pay: 70, annual_pay: { 2024: 70 } } }, 1),
    ]);
    expect(results.map((r) => [r.passed, r.failures])).to.deep.equal([[true, []], [true, []]]);
    expect(simulations()).to.equal(2);
  });

  it('instances a case leaves out of a given variable get its default, not its formula (as in PolicyEngine)', () => {
    const { engine } = countingEngine();
    const c = norm({ period: 2024, input: { people: { a: { age: 10, is_adult: true }, b: { age: 30 } } }, output: { people: { a: { is_adult: true }, b: { is_adult: false } } } });
    expect(runCases(engine, [c])[0].passed).to.equal(true);
  });

  it('separates cases by parameter overrides', () => {
    const { engine, simulations } = countingEngine();
    const results = runCases(engine, [
      norm({ period: 2024, input: { employment_income: 20000 }, output: { income_tax: 1600 } }, 0),
      norm({ period: 2024, input: { 'gov.tax.rate': 0.5, employment_income: 20000 }, output: { income_tax: 4000 } }, 1),
      norm({ period: 2024, input: { employment_income: 22000 }, output: { income_tax: 2000 } }, 2),
    ]);
    expect(results.map((r) => r.passed)).to.deep.equal([true, true, true]);
    expect(simulations()).to.equal(2);
  });

  it('months: inputs per month, a monthly variable summed for a year, a yearly one divided for a month', () => {
    const { engine } = countingEngine();
    const results = runCases(engine, [
      norm({ period: 2024, input: { monthly_pay: { '2024-01': 100, '2024-02': 50 } }, output: { annual_pay: 150, monthly_pay: { '2024-02': 50 } } }, 0),
      norm({ period: '2024-01', input: { employment_income: 24000 }, output: { income_tax: 200 } }, 1),
    ]);
    expect(results.map((r) => [r.passed, r.failures])).to.deep.equal([[true, []], [true, []]]);
  });

  it('a batch error falls back to one case at a time: only the bad case fails, with the engine message', () => {
    const { engine, simulations } = countingEngine();
    const results = runCases(engine, [
      norm({ name: 'good', period: 2024, input: { employment_income: 1 }, output: { income_tax: 0 } }, 0),
      norm({ name: 'bad', period: 2024, input: { employment_income: 2 }, output: { broken: 0, income_tax: 0 } }, 1),
    ]);
    expect(results[0].passed).to.equal(true);
    expect(results[1].passed).to.equal(false);
    expect(results[1].failures).to.have.length(1);
    expect(results[1].failures[0]).to.include({ variable: 'broken', instance: '*', actual: null });
    expect(results[1].failures[0].reason).to.contain('parameter gov.tax has no key "missing"');
    expect(simulations()).to.equal(2);
  });

  it('an unknown parameter override fails the case with the reform error', () => {
    const { engine } = countingEngine();
    const [result] = runCases(engine, [norm({ period: 2024, input: { 'gov.tax.nope': 1 }, output: { income_tax: 0 } })]);
    expect(result.passed).to.equal(false);
    expect(result.errors).to.deep.equal(['the engine rejected the case: reform: unknown parameter gov.tax.nope (no "gov.tax.nope")']);
  });

  it('unrunnable cases fail with their reasons without running', () => {
    const { engine, simulations } = countingEngine();
    const [result] = runCases(engine, [norm({ period: 2024, input: { salary: 1 }, output: { income_tax: 0 } })]);
    expect(result).to.deep.include({ passed: false, errors: ['input/salary: unknown variable salary'], failures: [] });
    expect(simulations()).to.equal(0);
  });

  it('an unknown output variable fails the case while the other outputs are still checked', () => {
    const { engine } = countingEngine();
    const [result] = runCases(engine, [norm({ period: 2024, input: { employment_income: 20000 }, output: { wealth: 1, income_tax: 1 } })]);
    expect(result.errors).to.deep.equal(['output/wealth: unknown variable wealth']);
    expect(result.failures.map((f) => f.variable)).to.deep.equal(['income_tax']);
  });

  it('splits large batches', () => {
    const { engine, simulations } = countingEngine();
    const cases = [0, 1, 2, 3, 4].map((i) => norm({ period: 2024, input: { age: i }, output: { age: i } }, i));
    expect(runCases(engine, cases, { maxBatch: 2 }).every((r) => r.passed)).to.equal(true);
    expect(simulations()).to.equal(3);
  });
});
