/** End to end: YAML text -> load -> normalize -> run, on the engine's own fixture country (test/fixtures/country). */
import { expect } from 'chai';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { engineFor } from '../../core/testing/engine';
import { loadTestText } from '../../core/testing/load';
import { normalizeCase } from '../../core/testing/normalize';
import { runCases } from '../../core/testing/run';
import type { CaseResult, LoadedCase, RawCase } from '../../core/testing/types';

const model = CountryModel.load(path.resolve(__dirname, '../../../test/fixtures/country'));

function runYaml(text: string): CaseResult[] {
  const cases = loadTestText('t.yaml', text).map((c) => normalizeCase(model, c as LoadedCase & { raw: RawCase }));
  return runCases(engineFor(model), cases);
}

describe('testing: YAML cases on the engine fixture country', () => {
  it('marginal tax, bracket overrides and dated formulas', () => {
    const results = runYaml(`
- name: two bands
  period: 2024
  input: {employment_income: 52_000}
  output:
    income_tax: 35_000 * 0.2 + (52_000 - 12_000 - 35_000) * 0.4
- name: first rate overridden through its bracket path
  period: 2024
  input:
    gov.tax.rates[0].rate: 0.1
    employment_income: 22_000
  output:
    income_tax: 10_000 * 0.1
- name: the formula stops in 2030
  period: 2030
  input: {employment_income: 50_000}
  output: {income_tax: 0}
`);
    expect(results.map((r) => [r.name, r.passed, r.errors, r.failures])).to.deep.equal([
      ['two bands', true, [], []],
      ['first rate overridden through its bracket path', true, [], []],
      ['the formula stops in 2030', true, [], []],
    ]);
  });

  it('families: enums, counts, defined_for, per-instance lists and ids', () => {
    const results = runYaml(`
- name: couple with a child, and a single adult alone in their family
  period: 2025
  input:
    people:
      a: {employment_income: 1_000}
      b: {employment_income: 2_000}
      c: {age: 5}
      d: {employment_income: 90_000}
    families:
      f: {members: [a, b, c]}
  output:
    family_type: [COUPLE, SINGLE]
    num_children: [1, 0]
    is_adult: [true, true, false, true]
    families:
      d: {family_income: 90_000, basic_benefit: 0}
    people:
      c: {is_eldest_child: true}
    region: NORTH
`);
    expect(results[0].errors).to.deep.equal([]);
    expect(results[0].failures).to.deep.equal([]);
    expect(results[0].passed).to.equal(true);
  });

  it('a default that is not zero fills the rows of batched cases that do not give the input', () => {
    const results = runYaml(`
- name: child
  period: 2025
  input: {age: 5}
  output: {is_adult: false}
- name: default age 30
  period: 2025
  input: {employment_income: 1}
  output: {is_adult: true, age: 30}
`);
    expect(results.map((r) => r.passed)).to.deep.equal([true, true]);
  });

  it('a failed check reports instance, period, expected and actual', () => {
    const [result] = runYaml(`
- name: wrong
  period: 2024-01
  input: {people: {p: {employment_income: 52_000}}}
  output: {people: {p: {income_tax: 1}}}
`);
    expect(result.passed).to.equal(false);
    expect(result.failures).to.have.length(1);
    expect(result.failures[0]).to.include({ variable: 'income_tax', entity: 'person', instance: 'p', period: '2024-01', expected: 1 });
    expect(result.failures[0].actual).to.be.closeTo(9_000 / 12, 1e-9);
  });
});
