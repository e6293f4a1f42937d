import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { checkDataset, readDataset, writeDataset } from '../../server/datasets';
import { compareHouseholds, readExpected } from '../../server/datasets/compare';
import { resolveUnassigned } from '../../server/datasets/read';
import { SHARED_DATASETS, tempDir, UK_MODEL, US_MODEL } from '../simulation/helpers';

/** PolicyEngine's own sample files (../shared/datasets): the tests skip, saying why, when they are absent. */
function needShared(ctx: Mocha.Context): void {
  if (!fs.existsSync(path.join(SHARED_DATASETS, 'uk_tables.h5'))) {
    console.log(`      skipped: PolicyEngine's sample datasets are not at ${SHARED_DATASETS}`);
    ctx.skip();
  }
}

describe("datasets: PolicyEngine's layouts", function () {
  this.timeout(60_000);
  before(function () {
    needShared(this);
  });

  it('reads the pandas HDFStore tables of PolicyEngine-UK (compound rows, enums as bytes)', async () => {
    const t = await readDataset(path.join(SHARED_DATASETS, 'uk_tables.h5'));
    expect(t.layout).to.equal('policyengine_tables');
    expect(t.year).to.equal(2025);
    expect([...t.tables.keys()].sort()).to.deep.equal(['benunit', 'household', 'person']);
    expect(t.tables.get('person')!.rows).to.equal(194);
    const household = t.tables.get('household')!;
    expect(household.rows).to.equal(100);
    expect(household.columns.has('index')).to.equal(false);
    const region = household.columns.get('region') as string[];
    const model = CountryModel.load(UK_MODEL);
    for (const r of region) expect(model.variable('region').possible_values).to.include(r);
    expect(t.tables.get('person')!.columns.get('is_blind')).to.be.instanceOf(Uint8Array);
    const check = checkDataset(t, model);
    expect(check.errors).to.deep.equal([]);
    expect(check.weighted_households).to.equal(100);
  });

  it('reads the US tables and the time-period arrays to the same values', async () => {
    const tables = await readDataset(path.join(SHARED_DATASETS, 'us_tables.h5'));
    const arrays = await readDataset(path.join(SHARED_DATASETS, 'us_time_period_arrays.h5'));
    expect(tables.layout).to.equal('policyengine_tables');
    expect(arrays.layout).to.equal('policyengine_time_period_arrays');
    expect(tables.year).to.equal(2025);
    expect(arrays.year).to.equal(2025);
    const entities = ['family', 'household', 'marital_unit', 'person', 'spm_unit', 'tax_unit'];
    expect([...tables.tables.keys()].sort()).to.deep.equal(entities);
    // Without a model, a column whose length fits several entities waits in a `?rows` table.
    expect(arrays.tables.get('?100')!.columns.has('state_fips')).to.equal(true);
    expect(arrays.tables.get('household')!.columns.has('household_weight')).to.equal(true);
    for (const [name, col] of tables.tables.get('person')!.columns) {
      expect(Array.from(arrays.tables.get('person')!.columns.get(name) as ArrayLike<number>), name).to.deep.equal(Array.from(col as ArrayLike<number>));
    }
    if (!fs.existsSync(path.join(US_MODEL, 'country.yaml'))) return;
    const model = CountryModel.load(US_MODEL);
    const resolved = resolveUnassigned(arrays, model);
    if (model.variables.has('state_fips')) expect(resolved.tables.get('household')!.columns.has('state_fips')).to.equal(true);
    for (const t of [tables, arrays]) expect(checkDataset(t, model).errors).to.deep.equal([]);
  });

  it('converts a PolicyEngine file to our layout without losing a value', async () => {
    const t = await readDataset(path.join(SHARED_DATASETS, 'uk_tables.h5'));
    const file = path.join(tempDir('convert'), 'uk.h5');
    await writeDataset(file, { ...t, layout: 'fiscus' });
    const back = await readDataset(file);
    for (const [key, table] of t.tables) {
      for (const [name, col] of table.columns) expect(Array.from(back.tables.get(key)!.columns.get(name) as ArrayLike<unknown>), `${key}.${name}`).to.deep.equal(Array.from(col as ArrayLike<unknown>));
    }
  });

  it("computes the UK sample's household net income (agreement with PolicyEngine printed)", async () => {
    const model = CountryModel.load(UK_MODEL);
    const t = await readDataset(path.join(SHARED_DATASETS, 'uk_tables.h5'), { model });
    const rows = compareHouseholds(t, model, 2025, readExpected(path.join(SHARED_DATASETS, 'uk_expected_household.csv')));
    const net = rows.find((r) => r.variable === 'household_net_income')!;
    expect(net.households).to.equal(100);
    console.log(`      household_net_income within £1 of PolicyEngine: ${net.within} of ${net.households}`);
  });
});
