import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { buildPopulation, populationFromArrays } from '../../core/population';
import { EngineError } from '../../core/types';
import { validateSpec } from '../../core/variables';
import { fixtureModel, miniModel, sim } from './helpers';

function tempCountry(countryYaml: string, variables: Record<string, string> = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-country-'));
  fs.writeFileSync(path.join(dir, 'country.yaml'), countryYaml);
  fs.mkdirSync(path.join(dir, 'variables'));
  for (const [f, text] of Object.entries(variables)) fs.writeFileSync(path.join(dir, 'variables', f), text);
  return dir;
}

const GOOD_COUNTRY = `id: t\nlabel: T\nversion: 1.0.0\ncurrency: X\nyear_instant: "01-01"\nentities:\n  - {key: person, plural: people, person: true}\n  - {key: household, plural: households}\n`;

describe('core: loading countries and variables', () => {
  it('loads the fixture country', () => {
    const m = fixtureModel();
    expect(m.country.id).to.equal('testland');
    expect(m.entity('family').within).to.deep.equal(['household']);
    expect(m.entityByPlural('families')!.key).to.equal('family');
    expect(m.variables.size).to.be.greaterThan(20);
  });

  it('rejects a bad country.yaml, naming the field', () => {
    const dir = tempCountry(GOOD_COUNTRY.replace('currency: X\n', 'currency: X\ncolour: red\n'));
    expect(() => CountryModel.load(dir)).to.throw(EngineError, /country.yaml: \/ must NOT have additional properties \(colour\)/);
    const dir2 = tempCountry(GOOD_COUNTRY.replace(', person: true', ''));
    expect(() => CountryModel.load(dir2)).to.throw(EngineError, 'exactly one entity must have person: true (found 0)');
    const dir3 = tempCountry(GOOD_COUNTRY.replace('"01-01"', '"13-01"'));
    expect(() => CountryModel.load(dir3)).to.throw(EngineError, '/year_instant must match pattern');
  });

  it("reads the reference model's variables, refusing rows with an unknown entity or period", () => {
    const withRef = GOOD_COUNTRY.replace('entities:', 'reference_variables: {model: Ref, file: ref.tsv}\nentities:');
    const dir = tempCountry(withRef);
    fs.writeFileSync(path.join(dir, 'ref.tsv'), '# note\nname\tentity\tperiod\nrent\thousehold\tyear\nhours\tperson\tmonth\n');
    const ref = CountryModel.load(dir).country.reference;
    expect(ref.model).to.equal('Ref');
    expect([...ref.variables]).to.deep.equal([['rent', { entity: 'household', period: 'year' }], ['hours', { entity: 'person', period: 'month' }]]);
    fs.writeFileSync(path.join(dir, 'ref.tsv'), 'name\tentity\tperiod\nrent\tbenunit\tyear\n');
    expect(() => CountryModel.load(dir)).to.throw(EngineError, /ref.tsv: row 1 \("rent\tbenunit\tyear"\): the entity must be one of the country's/);
    fs.rmSync(path.join(dir, 'ref.tsv'));
    expect(() => CountryModel.load(dir)).to.throw(EngineError, 'reference_variables file "ref.tsv" not found');
  });

  it('rejects variables with unknown keys, bad types, unknown entities and duplicates', () => {
    expect(() => validateSpec('x', { entity: 'person', period: 'year', type: 'float', colour: 1 }, 'f.yaml')).to.throw(
      EngineError,
      'f.yaml: variable x: must NOT have additional properties "colour"',
    );
    expect(() => validateSpec('x', { entity: 'person', period: 'week', type: 'float' }, 'f.yaml')).to.throw(EngineError, 'period: must be equal to one of the allowed values (year, month, eternity)');
    expect(() => validateSpec('x', { entity: 'person', period: 'year', type: 'enum' }, 'f.yaml')).to.throw(EngineError, 'an enum needs possible_values');
    expect(() => validateSpec('x', { entity: 'person', period: 'year', type: 'enum', possible_values: ['A'], default: 'B' }, 'f.yaml')).to.throw(EngineError, 'default "B" is not one of possible_values');
    expect(() => validateSpec('x', { entity: 'person', period: 'year', type: 'float', default: true }, 'f.yaml')).to.throw(EngineError, 'does not fit type float');
    expect(() => validateSpec('x', { entity: 'person', period: 'year', type: 'float', formula: '1', adds: ['y'] }, 'f.yaml')).to.throw(EngineError, 'either formula or adds/subtracts');
    expect(() => miniModel({ x: { entity: 'nobody', period: 'year', type: 'float' } })).to.throw(EngineError, 'variable x: unknown entity "nobody"');
    const dir = tempCountry(GOOD_COUNTRY, {
      'a.yaml': 'x:\n  entity: person\n  period: year\n  type: float\n',
      'b.yaml': 'x:\n  entity: person\n  period: year\n  type: float\n',
    });
    expect(() => CountryModel.load(dir)).to.throw(EngineError, /b.yaml: variable x is already defined in .*a.yaml/);
  });

  it('reads YAML 1.1 numbers and keeps dates as strings', () => {
    const dir = tempCountry(GOOD_COUNTRY, { 'a.yaml': 'x:\n  entity: person\n  period: year\n  type: float\n  default: 12_570\n' });
    expect(CountryModel.load(dir).variable('x').default).to.equal(12570);
  });
});

describe('core: populations and inputs', () => {
  const m = fixtureModel();
  it('gives a person outside every instance of a group an instance of their own', () => {
    const pop = buildPopulation(m, ['a', 'b'], { family: [{ id: 'f', members: ['a'] }] });
    expect(pop.count.family).to.equal(2);
    expect(pop.ids!.family).to.deep.equal(['f', 'b_family']);
    expect(pop.count.household).to.equal(2);
  });
  it('rejects unknown and duplicate members, naming them', () => {
    expect(() => buildPopulation(m, ['a'], { family: [{ id: 'f', members: ['zz'] }] })).to.throw(EngineError, 'families/f/members: unknown person "zz"');
    expect(() =>
      buildPopulation(m, ['a'], { family: [{ id: 'f', members: ['a'] }, { id: 'g', members: ['a'] }] }),
    ).to.throw(EngineError, 'families/g/members: person "a" is already in family "f"');
    expect(() => buildPopulation(m, ['a', 'a'], {})).to.throw(EngineError, 'person "a" is declared twice');
    expect(() => buildPopulation(m, ['a'], { club: [] })).to.throw(EngineError, 'unknown entity "club"');
  });
  it('validates membership arrays', () => {
    expect(() => populationFromArrays(m, 2, { family: Int32Array.of(0, 0) })).to.throw(EngineError, 'membership for entity household is missing');
    expect(() => populationFromArrays(m, 2, { family: Int32Array.of(0), household: Int32Array.of(0, 0) })).to.throw(EngineError, 'has 1 rows, expected 2');
  });
  it('rejects bad input values, naming the variable', () => {
    const s = sim(m, ['a']);
    expect(() => s.setInput('nope', '2025', [1])).to.throw(EngineError, 'unknown variable "nope"');
    expect(() => s.setInput('age', '2025', [1, 2])).to.throw(EngineError, 'age: 2 values given for 1 person rows');
    expect(() => s.setInput('region', '2025', ['MARS'])).to.throw(EngineError, 'region: "MARS" is not one of NORTH, SOUTH, CAPITAL');
    expect(() => s.setInput('employment_income', '2025', ['lots'])).to.throw(EngineError, 'employment_income: expected a number, got "lots"');
    expect(() => s.setInput('is_adult', '2025', ['yes'])).to.throw(EngineError, 'is_adult: expected true or false');
    expect(() => s.setInput('age', '2025-13', [1])).to.throw(EngineError, 'invalid period "2025-13"');
  });
});

describe('core: chunked evaluation', () => {
  it('gives the same results as one simulation, for households cut into chunks', () => {
    const { chunkRanges } = require('../../core/chunked') as typeof import('../../core/chunked');
    const { Simulation } = require('../../core/simulation') as typeof import('../../core/simulation');
    const m = fixtureModel();
    // 7 people: households [0,1,2] [3] [4,5,6]; families nested inside.
    const pop = populationFromArrays(m, 7, { household: Int32Array.of(0, 0, 0, 1, 2, 2, 2), family: Int32Array.of(0, 0, 1, 2, 3, 3, 3) });
    const ranges = chunkRanges(m, pop, 2)!;
    expect(ranges.map((r) => [r.person.lo, r.person.hi])).to.deep.equal([[0, 3], [3, 7]]);
    const inputs = [
      { name: 'age', period: '2025', values: Int32Array.of(40, 38, 5, 30, 50, 12, 9) },
      { name: 'employment_income', period: '2025', values: Float64Array.of(50000, 5000, 0, 15000, 80000, 0, 0) },
    ];
    const s = new Simulation(m, pop);
    for (const i of inputs) s.setInput(i.name, i.period, i.values);
    const chunked = s.computeReleasing(['household_net_income', 'income_tax'], '2025', { chunkPeople: 2 });
    const whole = new Simulation(m, pop);
    for (const i of inputs) whole.setInput(i.name, i.period, i.values);
    expect(Array.from(chunked.get('household_net_income')!)).to.deep.equal(Array.from(whole.calculate('household_net_income', '2025')));
    expect(Array.from(chunked.get('income_tax')!)).to.deep.equal(Array.from(whole.calculate('income_tax', '2025')));
  });
  it('refuses to chunk populations whose groups are not contiguous', () => {
    const { chunkRanges } = require('../../core/chunked') as typeof import('../../core/chunked');
    const m = fixtureModel();
    const pop = populationFromArrays(m, 3, { household: Int32Array.of(0, 1, 0), family: Int32Array.of(0, 1, 2) });
    expect(chunkRanges(m, pop, 1)).to.equal(null);
  });
});

describe('core: string inputs and the compiled-reform cache', () => {
  it('keeps string inputs as text and compares them in formulas', () => {
    const m = miniModel({ code: { entity: 'person', period: 'year', type: 'string', default: 'none' }, y: { entity: 'person', period: 'year', type: 'bool', formula: 'code == "02020"' } });
    const s = sim(m, ['a', 'b', 'c']);
    s.setInput('code', '2025', ['02020', 'abc', '02020']);
    expect(s.decode('code', s.calculate('code', '2025'))).to.deep.equal(['02020', 'abc', '02020']);
    const fresh = sim(m, ['a']);
    expect(fresh.decode('code', fresh.calculate('code', '2025'))).to.deep.equal(['none']);
    expect(Array.from(s.calculate('y', '2025'))).to.deep.equal([1, 0, 1]);
  });
  it('keeps at most MAX_COMPILED_REFORMS compiled reforms, always the baseline', () => {
    const m = miniModel({}, { gov: { a: { values: { '2000-01-01': 1 } } } });
    const base = m.compiled();
    const first = m.compiled({ 'gov.a': { '2000-01-01.2100-12-31': 2 } });
    for (let i = 0; i < 70; i++) m.compiled({ 'gov.a': { '2000-01-01.2100-12-31': 10 + i } });
    expect(m.compiled()).to.equal(base);
    expect(m.compiled({ 'gov.a': { '2000-01-01.2100-12-31': 2 } })).to.not.equal(first);
  });
});
