/** The storage layer on SQLite and PostgreSQL: migrations, catalogue seeding, sets, simulations. */
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CountryModel } from '../../core/model';
import { seedCatalogue } from '../../server/microsim/seed';
import { loadCountryModel } from '../../server/models/engine';
import { ModelRegistry } from '../../server/models/registry';
import { openStorage, type Storage } from '../../server/storage';
import { simulationId } from '../../server/storage/ids';
import { migrate } from '../../server/storage/migrate';
import { MIGRATIONS } from '../../server/storage/migrations';
import type { SimulationRow } from '../../server/storage/rows';
import { forEachDatabase } from '../support/databases';
import { FIXTURE_COUNTRIES, tempDir } from '../server/helpers';

function registry(countriesRoot = FIXTURE_COUNTRIES): ModelRegistry<CountryModel> {
  return new ModelRegistry({ countriesRoot, loadModel: loadCountryModel, refreshMs: 0 });
}

function simulationRow(storageId: { dataset: string; version: string }, over: Partial<SimulationRow> = {}): SimulationRow {
  const key = { dataset_id: storageId.dataset, tax_benefit_model_version_id: storageId.version, policy_id: null, dynamic_id: null, region: null, year: 2025 };
  const t = new Date().toISOString();
  return { id: simulationId(key), ...key, status: 'pending', progress: 0, error_message: null, attempts: 0, owner: null, heartbeat_at: null, summary: null, output_file: null, created_at: t, updated_at: t, started_at: null, completed_at: null, ...over };
}

forEachDatabase('storage', (config) => {
  let storage: Storage;
  let versionId: string;
  let datasetId: string;
  before(async () => {
    storage = await openStorage(config());
    await seedCatalogue(registry(), storage.catalogue);
    const [model] = await storage.catalogue.listModels();
    versionId = (await storage.catalogue.versionsOfModel(model.id))[0].id;
    datasetId = '00000000-0000-4000-8000-000000000001';
    const t = new Date().toISOString();
    await storage.datasets.create({ id: datasetId, name: 'd', description: null, filepath: 'd.h5', year: 2025, tax_benefit_model_id: model.id, tax_benefit_model_version_id: versionId, layout: 'fiscus', counts: '{}', warnings: '[]', weighted_households: 1, size_bytes: 1, default_for: null, created_at: t, updated_at: t });
  });
  after(async () => storage?.close());

  it('migrates in order, and again without effect', async () => {
    const again = await migrate(storage.db);
    expect(again.applied).to.deep.equal([]);
    expect(again.current).to.deep.equal(MIGRATIONS.map((m) => m.name));
  });

  it('seeds the catalogue once: a second seed adds nothing', async () => {
    expect((await seedCatalogue(registry(), storage.catalogue)).added).to.deep.equal([]);
    const [model] = await storage.catalogue.listModels();
    expect(model.name).to.equal('fiscus-tinyland');
    const params = await storage.catalogue.listParameters({ versionId }, { limit: 100, offset: 0 });
    expect(params.map((p) => p.name)).to.include('gov.tax.rates[1].rate');
    const values = await storage.catalogue.listParameterValues({ parameterId: params.find((p) => p.name === 'gov.benefit.amount')!.id }, { limit: 10, offset: 0 });
    expect(values.map((v) => [v.start_date, v.end_date, JSON.parse(v.value_json)])).to.deep.equal([['2020-01-01', '2025-03-31', 100], ['2025-04-01', null, 120]]);
  });

  it('records edited rules as a new version row, leaving the old one as it was', async () => {
    const root = tempDir('countries');
    fs.cpSync(path.join(FIXTURE_COUNTRIES, 'tinyland'), path.join(root, 'tinyland'), { recursive: true });
    const file = path.join(root, 'tinyland', 'parameters', 'gov', 'benefit', 'amount.yaml');
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace('2025-04-01: 120', '2025-04-01: 125'));
    const before = await storage.catalogue.getVersion(versionId);
    expect((await seedCatalogue(registry(root), storage.catalogue)).added).to.deep.equal(['tinyland 1.0.0 (working tree)']);
    expect(await storage.catalogue.getVersion(versionId)).to.deep.equal(before);
    const [model] = await storage.catalogue.listModels();
    expect((await storage.catalogue.versionsOfModel(model.id)).map((v) => v.version)).to.deep.equal(['1.0.0', '1.0.0']);
  });

  it('searches names, labels and descriptions case-insensitively, with _ and % taken literally', async () => {
    const hits = await storage.catalogue.listParameters({ versionId, search: 'IN_EFFECT' }, { limit: 10, offset: 0 });
    expect(hits.map((p) => p.name)).to.deep.equal(['gov.benefit.in_effect']);
    expect(await storage.catalogue.listParameters({ versionId, search: '%' }, { limit: 10, offset: 0 })).to.deep.equal([]);
  });

  it('creates one simulation row when identical inserts race', async () => {
    const row = simulationRow({ dataset: datasetId, version: versionId });
    const created = await Promise.all(Array.from({ length: 5 }, () => storage.simulations.insert(row)));
    expect(created.filter(Boolean)).to.have.length(1);
  });

  it('lets one owner claim a simulation, takes it over when the owner went silent, and fails it after too many attempts', async () => {
    const row = simulationRow({ dataset: datasetId, version: versionId }, { year: 2030, id: '00000000-0000-4000-8000-0000000000aa' });
    await storage.simulations.insert(row);
    const long = { staleBefore: new Date(Date.now() - 60_000).toISOString(), maxAttempts: 3 };
    expect(await storage.simulations.claim(row.id, 'a', long)).to.have.property('claimed');
    expect(await storage.simulations.claim(row.id, 'b', long)).to.deep.equal({ skipped: 'busy' });
    expect(await storage.simulations.heartbeat(row.id, 'b', 0.5)).to.equal(false);
    expect(await storage.simulations.heartbeat(row.id, 'a', 0.5)).to.equal(true);
    const stale = { staleBefore: new Date(Date.now() + 1000).toISOString(), maxAttempts: 3 };
    const taken = await storage.simulations.claim(row.id, 'b', stale);
    expect(taken).to.have.property('claimed');
    expect(await storage.simulations.complete(row.id, 'a', {}, 'x.h5')).to.equal(false); // a lost its claim
    expect(await storage.simulations.claim(row.id, 'c', { ...stale, force: true })).to.have.property('claimed');
    expect(await storage.simulations.claim(row.id, 'd', { ...stale, force: true })).to.deep.equal({ skipped: 'failed' });
    const failed = await storage.simulations.get(row.id);
    expect(failed!.status).to.equal('failed');
    expect(failed!.error_message).to.match(/gave up after 3 attempts/);
    expect(await storage.simulations.retryFailed(row.id)).to.equal(true);
    expect((await storage.simulations.get(row.id))!.status).to.equal('pending');
  });

  it('completes a simulation and stores a report once', async () => {
    const row = simulationRow({ dataset: datasetId, version: versionId }, { year: 2031, id: '00000000-0000-4000-8000-0000000000bb' });
    await storage.simulations.insert(row);
    await storage.simulations.claim(row.id, 'a', { staleBefore: new Date(0).toISOString(), maxAttempts: 3 });
    expect(await storage.simulations.complete(row.id, 'a', { total: 1 }, 'outputs/x.h5')).to.equal(true);
    const t = new Date().toISOString();
    const report = { id: '00000000-0000-4000-8000-0000000000cc', kind: 'economic_impact', baseline_simulation_id: row.id, reform_simulation_id: row.id, status: 'pending' as const, error_message: null, result: null, created_at: t, updated_at: t, completed_at: null };
    expect(await storage.simulations.insertReport(report)).to.equal(true);
    expect(await storage.simulations.insertReport(report)).to.equal(false);
    expect(await storage.simulations.completeReport(report.id, { a: 1 })).to.equal(true);
    expect(await storage.simulations.completeReport(report.id, { a: 2 })).to.equal(false);
    expect(JSON.parse((await storage.simulations.getReport(report.id))!.result!)).to.deep.equal({ a: 1 });
  });

  it('refuses to delete a dataset or policy a simulation uses', async () => {
    const t = new Date().toISOString();
    const policy = '00000000-0000-4000-8000-0000000000dd';
    await storage.policies.create({ id: policy, name: 'p', description: null, tax_benefit_model_version_id: versionId, created_at: t, updated_at: t }, []);
    await storage.simulations.insert(simulationRow({ dataset: datasetId, version: versionId }, { id: '00000000-0000-4000-8000-0000000000ee', policy_id: policy, year: 2032 }));
    expect(await storage.policies.delete(policy)).to.have.property('usedBy');
    expect(await storage.datasets.delete(datasetId)).to.have.property('usedBy');
    expect(await storage.policies.delete('00000000-0000-4000-8000-0000000000ff')).to.equal('missing');
  });
});
