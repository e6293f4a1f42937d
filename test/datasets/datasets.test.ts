import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { checkDataset, DatasetReadError, readDataset, synthesize, writeDataset } from '../../server/datasets';
import { toMicrodata } from '../../server/datasets/microdata';
import { FLATLAND, flatland, tempDir, UK_MODEL, US_MODEL, withColumn } from '../simulation/helpers';

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

describe('datasets: our layout', () => {
  const model = CountryModel.load(FLATLAND);
  const dir = tempDir('datasets');

  it('writes and reads back every column with its type, and the year', async () => {
    const file = path.join(dir, 'flat.h5');
    const t = flatland(people, households);
    await writeDataset(file, t);
    const back = await readDataset(file);
    expect(back.layout).to.equal('fiscus');
    expect(back.year).to.equal(2025);
    for (const [key, table] of t.tables) {
      const got = back.tables.get(key)!;
      expect(got.rows).to.equal(table.rows);
      for (const [name, col] of table.columns) {
        const g = got.columns.get(name)!;
        expect(g.constructor, `${key}.${name}`).to.equal(col.constructor);
        expect(Array.from(g as ArrayLike<unknown>), `${key}.${name}`).to.deep.equal(Array.from(col as ArrayLike<unknown>));
      }
    }
  });

  it('accepts a sound dataset, with weights summed', () => {
    const check = checkDataset(flatland(people, households), model);
    expect(check.errors).to.deep.equal([]);
    expect(check.warnings).to.deep.equal([]);
    expect(check.counts).to.deep.equal({ person: 5, family: 4, household: 3 });
    expect(check.weighted_households).to.equal(175);
  });

  it('names the table, column and first bad row of each problem', () => {
    const t = flatland(people, households);
    const noHousehold = withColumn(t, 'person', 'person_household_id', Int32Array.of(10, 10, 20, 99, 30));
    expect(checkDataset(noHousehold, model).errors).to.deep.include({ table: 'person', column: 'person_household_id', row: 3, message: 'person_household_id 99 matches no household (household_id): every person must be in exactly one household' });
    const duplicate = withColumn(t, 'household', 'household_id', Int32Array.of(10, 20, 20));
    expect(checkDataset(duplicate, model).errors).to.deep.include({ table: 'household', column: 'household_id', row: 2, message: 'duplicate id 20' });
    const text = withColumn(t, 'person', 'employment_income', ['30000', '0', 'n/a', '1', '2']);
    const err = checkDataset(text, model).errors;
    expect(err).to.have.length(1);
    expect(err[0]).to.include({ table: 'person', column: 'employment_income', row: 2 });
    expect(err[0].message).to.match(/a number: the column holds text/);
    const badEnum = withColumn(t, 'household', 'region', ['NORTH', 'EAST', 'SOUTH']);
    expect(checkDataset(badEnum, model).errors[0]).to.include({ table: 'household', column: 'region', row: 1 });
    const negative = withColumn(t, 'household', 'household_weight', Float64Array.of(1, -2, 3));
    expect(checkDataset(negative, model).errors[0]).to.include({ table: 'household', column: 'household_weight', row: 1 });
    const noWeights = withColumn(t, 'household', 'household_weight', null);
    expect(checkDataset(noWeights, model).errors[0]).to.include({ table: 'household', column: 'household_weight' });
    const split = withColumn(t, 'person', 'person_family_id', Int32Array.of(1, 2, 1, 3, 4));
    expect(checkDataset(split, model).errors[0].message).to.match(/family row 0 has members in two households/);
    const missing = { ...t, tables: new Map([...t.tables].filter(([k]) => k !== 'family')) };
    expect(checkDataset(missing, model).errors[0]).to.deep.equal({ table: 'family', message: 'the family table is missing' });
  });

  it('lists unknown columns and tables as warnings and ignores them', () => {
    const t = withColumn(flatland(people, households), 'person', 'shoe_size', Float64Array.of(1, 2, 3, 4, 5));
    const check = checkDataset(t, model);
    expect(check.errors).to.deep.equal([]);
    expect(check.warnings).to.deep.equal([{ table: 'person', column: 'shoe_size', message: 'not a variable of the flatland model: ignored' }]);
  });

  it('refuses corrupted files written to disk with the problem named', async () => {
    const t = flatland(people, households);
    const cases: [string, ReturnType<typeof flatland>, string][] = [
      ['no-household.h5', withColumn(t, 'person', 'person_household_id', Int32Array.of(10, 10, 20, 99, 30)), 'person_household_id'],
      ['duplicate.h5', withColumn(t, 'person', 'person_id', Int32Array.of(1, 2, 2, 3, 4)), 'person_id'],
      ['text.h5', withColumn(t, 'person', 'age', ['40', '8', 'seventy', '25', '23']), 'age'],
    ];
    for (const [name, tables, column] of cases) {
      const file = path.join(dir, name);
      await writeDataset(file, tables);
      const check = checkDataset(await readDataset(file), model);
      expect(check.errors.map((e) => e.column), name).to.deep.equal([column]);
    }
  });

  it('refuses files that are not HDF5 with a DatasetReadError', async () => {
    const file = path.join(dir, 'not.h5');
    fs.writeFileSync(file, 'hello');
    let error: unknown;
    await readDataset(file).catch((e) => (error = e));
    expect(error).to.be.instanceOf(DatasetReadError);
    expect((error as DatasetReadError).problems[0].message).to.match(/not an HDF5 file/);
  });

  it('orders people by household and renumbers groups for simulations', () => {
    // Households interleaved in the file: person rows 0 and 3 share household 30.
    const shuffled = [people[3], people[0], people[2], people[4], people[1]];
    const md = toMicrodata(flatland(shuffled, households), model);
    // Households in their table's order, people in household order, groups numbered as they appear.
    expect(Array.from(md.ids.household)).to.deep.equal([10, 20, 30]);
    expect(Array.from(md.ids.person)).to.deep.equal([101, 104, 102, 100, 103]);
    expect(Array.from(md.membership.household)).to.deep.equal([0, 0, 1, 2, 2]);
    expect(Array.from(md.membership.family)).to.deep.equal([0, 0, 1, 2, 3]);
    expect(Array.from(md.ids.family)).to.deep.equal([1, 2, 3, 4]);
    expect(Array.from(md.starts.person)).to.deep.equal([0, 2, 3, 5]);
    expect(Array.from(md.starts.family)).to.deep.equal([0, 1, 2, 4]);
    const earnings = md.inputs.find((i) => i.name === 'employment_income')!.values;
    expect(Array.from(earnings)).to.deep.equal([30000, 0, 0, 12000, 18000]);
    expect(Array.from(md.weights)).to.deep.equal([100, 50, 25]);
    const region = md.inputs.find((i) => i.name === 'region')!.values;
    expect(Array.from(region)).to.deep.equal([0, 1, 1]);
  });
});

describe('datasets: synthetic UK population', () => {
  it('is the same for the same seed and different for another', async () => {
    const a = await synthesize('uk', { households: 300, year: 2025, seed: 3 });
    const b = await synthesize('uk', { households: 300, year: 2025, seed: 3 });
    const c = await synthesize('uk', { households: 300, year: 2025, seed: 4 });
    const earnings = (t: typeof a) => Array.from(t.tables.get('person')!.columns.get('employment_income_before_lsr') as Float64Array);
    expect(earnings(a)).to.deep.equal(earnings(b));
    expect(earnings(a)).to.not.deep.equal(earnings(c));
  });

  it('fits the UK model, without warnings, and grosses up to the UK households', async () => {
    const t = await synthesize('uk', { households: 2000, year: 2025, seed: 1 });
    const check = checkDataset(t, CountryModel.load(UK_MODEL));
    expect(check.errors).to.deep.equal([]);
    expect(check.warnings).to.deep.equal([]);
    expect(check.weighted_households / 1e6).to.be.closeTo(28.4 * 1.006 ** 2, 0.01);
    const persons = check.counts.person / check.counts.household;
    expect(persons).to.be.within(2.1, 2.5);
  });

  it('reports progress and refuses unknown countries', async () => {
    const seen: number[] = [];
    await synthesize('uk', { households: 500, year: 2025, seed: 1 }, (done) => seen.push(done));
    expect(seen[seen.length - 1]).to.equal(500);
    let error: unknown;
    await synthesize('atlantis', { households: 5, year: 2025, seed: 1 }).catch((e) => (error = e));
    expect(String(error)).to.match(/no synthetic population for "atlantis"/);
  });
});

describe('datasets: synthetic US population', () => {
  it('fits the US model and grosses up to the US households, the same for a seed', async () => {
    const a = await synthesize('us', { households: 1500, year: 2025, seed: 2 });
    const b = await synthesize('us', { households: 1500, year: 2025, seed: 2 });
    expect(Array.from(a.tables.get('person')!.columns.get('employment_income_before_lsr') as Float64Array)).to.deep.equal(Array.from(b.tables.get('person')!.columns.get('employment_income_before_lsr') as Float64Array));
    const check = checkDataset(a, CountryModel.load(US_MODEL));
    expect(check.errors).to.deep.equal([]);
    expect(check.warnings).to.deep.equal([]);
    expect(check.weighted_households / 1e6).to.be.closeTo(132.2 * 1.008, 0.01);
    expect(Object.keys(check.counts).sort()).to.deep.equal(['family', 'household', 'marital_unit', 'person', 'spm_unit', 'tax_unit']);
  });
});
