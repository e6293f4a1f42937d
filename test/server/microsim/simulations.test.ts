/**
 * Datasets, simulations and economic-impact reports over HTTP on loopback, on SQLite and on
 * PostgreSQL, with the in-process queue and the real modules: HDF5 files written by the datasets
 * module, the UK model run on the simulation threads. Small populations, so each run takes a
 * moment; the threads are warmed once and kept from suite to suite.
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readDataset } from '../../../server/datasets';
import { forgetOutcomes } from '../../../server/simulation/output';
import { startServer, type RunningServer } from '../../../server/start';
import { forEachDatabase } from '../../support/databases';
import { get, post, tempDir } from '../helpers';
import { BASIC_RATE_21, del, ukOnlyCountries, until, writeUkDataset } from './support';

/** The pid of a process that has exited (a child run to completion). */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

forEachDatabase('microsimulation API: datasets, simulations, reports', (config) => {
  let server: RunningServer;
  let url: string;
  let storageDir: string;
  const logs: string[] = [];
  before(async function () {
    this.timeout(120_000);
    storageDir = tempDir('storage');
    await writeUkDataset(path.join(storageDir, 'people.h5'), 400);
    await writeUkDataset(path.join(storageDir, 'fragile.h5'), 300, 5);
    await writeUkDataset(path.join(storageDir, 'broken.h5'), 50, 3, (t) => {
      (t.tables.get('person')!.columns.get('person_household_id') as Int32Array)[7] = 987_654;
    });
    fs.writeFileSync(path.join(storageDir, 'notes.h5'), 'not a dataset');
    server = await startServer({ port: 0, countriesRoot: ukOnlyCountries(), releasesRoot: tempDir('releases'), env: {}, dataDir: tempDir('data'), refreshMs: 0, log: (m) => logs.push(m), microsim: { storage: config(), storageDir, defaultDatasets: false, keepThreads: true } });
    url = server.url;
    await server.services!.background;
    await server.services!.warm();
  });
  after(async () => server?.close());

  it('registers datasets from the storage folder and by upload; refuses bad files and paths with 422', async () => {
    const ok = await post(`${url}/datasets`, { name: 'people', filepath: 'people.h5' });
    expect(ok.status, JSON.stringify(ok.body)).to.equal(201);
    expect(ok.body).to.include({ year: 2025, layout: 'fiscus', tax_benefit_model_name: 'fiscus-uk', filepath: 'people.h5', is_default: false });
    expect(ok.body.counts.household).to.equal(400);
    expect(ok.body.warnings).to.deep.equal([]);
    const broken = await post(`${url}/datasets`, { name: 'broken', filepath: 'broken.h5' });
    expect(broken.status).to.equal(422);
    expect(broken.body.errors[0]).to.include({ path: 'person/person_household_id', row: 7 });
    const notes = await post(`${url}/datasets`, { name: 'notes', filepath: 'notes.h5' });
    expect(notes.status).to.equal(422);
    expect(notes.body.detail).to.equal('The file cannot be read as a dataset: notes.h5: not an HDF5 file');
    expect((await post(`${url}/datasets`, { name: 'x', filepath: '../../etc/passwd' })).body.errors[0].path).to.equal('filepath');
    const upload = await fetch(`${url}/datasets/upload?name=uploaded&year=2025`, { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: fs.readFileSync(path.join(storageDir, 'people.h5')) });
    const uploaded = await upload.json();
    expect(upload.status, JSON.stringify(uploaded)).to.equal(201);
    expect(uploaded.filepath).to.match(/^uploads\/.+\.h5$/);
    expect((await del(`${url}/datasets/${uploaded.id}`)).status).to.equal(204);
    expect(fs.existsSync(path.join(storageDir, uploaded.filepath))).to.equal(false);
  });

  it('runs a simulation once: same inputs, same id, and racing POSTs make one row', async () => {
    const dataset = (await get(`${url}/datasets`)).body.find((d: { name: string }) => d.name === 'people');
    const [a, b, c] = await Promise.all([0, 1, 2].map(() => post(`${url}/simulations`, { dataset_id: dataset.id, region: 'country/scotland' })));
    expect([a, b, c].map((r) => r.status).sort()).to.deep.equal([200, 200, 201]);
    expect(new Set([a, b, c].map((r) => r.body.id)).size).to.equal(1);
    const done = await until(() => get(`${url}/simulations/${a.body.id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(done.body).to.include({ status: 'completed', progress: 1, region: 'country/scotland', year: 2025, error_message: null, attempts: 1 });
    expect(done.body.output_file).to.equal(`outputs/${a.body.id}.h5`);
    // The output file follows the completed status (written in the background): it appears, in our layout.
    const output = path.join(storageDir, done.body.output_file);
    await until(async () => fs.existsSync(output), Boolean, 20_000);
    const households = (await readDataset(output)).tables.get('household')!;
    expect(households.rows).to.be.above(0).and.below(400);
    expect(households.columns.has('household_net_income')).to.equal(true);
    const again = await post(`${url}/simulations`, { dataset_id: dataset.id, region: 'country/scotland' });
    expect(again.status).to.equal(200);
    expect(again.body).to.deep.include({ status: 'completed', attempts: 1, completed_at: done.body.completed_at });
    const badRegion = await post(`${url}/simulations`, { dataset_id: dataset.id, region: 'atlantis' });
    expect(badRegion.status).to.equal(422);
    expect(badRegion.body.errors[0].path).to.equal('region');
    expect((await post(`${url}/simulations`, { dataset_id: '00000000-0000-4000-8000-000000000000' })).status).to.equal(404);
    expect((await get(`${url}/regions?tax_benefit_model_name=uk`)).body).to.deep.include({ name: 'country/scotland', label: 'Scotland', type: 'country', country: 'uk' });
  });

  it('reports an economic impact: deterministic id, polled to completion, reused without running again', async () => {
    const dataset = (await get(`${url}/datasets`)).body.find((d: { name: string }) => d.name === 'people');
    const policy = (await post(`${url}/policies`, BASIC_RATE_21)).body;
    const body = { tax_benefit_model_name: 'policyengine_uk', dataset_id: dataset.id, policy_id: policy.id };
    const first = await post(`${url}/analysis/economic-impact`, body);
    expect(first.status).to.equal(200);
    expect(first.body.status).to.be.oneOf(['pending', 'running']);
    const report = await until(() => get(`${url}/analysis/economic-impact/${first.body.report_id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(report.body.status, report.body.error_message).to.equal('completed');
    expect(report.body.decile_impacts.map((d: { decile: number }) => d.decile)).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const tax = report.body.program_statistics.find((p: { program_name: string }) => p.program_name === 'income_tax');
    expect(tax.is_tax).to.equal(true);
    expect(tax.change).to.be.above(0);
    expect(report.body.budget_summary.budgetary_impact).to.be.above(0);
    // Both simulations were new: one worker pass ran them together (workers/jobs.ts claimPartner).
    for (const side of ['baseline_simulation', 'reform_simulation']) {
      const row = await server.services!.context.storage.simulations.get(report.body[side].id);
      expect(JSON.parse(row!.summary!).timings.paired, side).to.equal(1);
    }
    const again = await post(`${url}/analysis/economic-impact`, { ...body, tax_benefit_model_name: 'fiscus-uk' });
    expect(again.body.report_id).to.equal(first.body.report_id);
    expect(again.body.status).to.equal('completed');
    for (const side of ['baseline_simulation', 'reform_simulation']) expect(again.body[side]).to.deep.equal(report.body[side]);
    expect((await del(`${url}/policies/${policy.id}`)).status).to.equal(409);
    expect((await del(`${url}/datasets/${dataset.id}`)).body.used_by).to.be.an('array');
  });

  it('runs a simulation again when its output file was lost with the process that was writing it', async () => {
    const dataset = (await get(`${url}/datasets`)).body.find((d: { name: string }) => d.name === 'people');
    const baseline = (await post(`${url}/simulations`, { dataset_id: dataset.id })).body;
    expect(baseline.status).to.equal('completed');
    // As if another server process had completed it and died before its file was written.
    await until(async () => fs.existsSync(path.join(storageDir, baseline.output_file)), Boolean, 20_000);
    await server.services!.context.storage.db.knex('simulations').where({ id: baseline.id }).update({ owner: `${os.hostname()}:${deadPid()}:gone` });
    fs.rmSync(path.join(storageDir, baseline.output_file));
    forgetOutcomes();
    const policy = (await post(`${url}/policies`, { ...BASIC_RATE_21, name: 'Basic rate 22p', parameter_values: [{ ...BASIC_RATE_21.parameter_values[0], value_json: 0.22 }] })).body;
    const first = await post(`${url}/analysis/economic-impact`, { tax_benefit_model_name: 'uk', dataset_id: dataset.id, policy_id: policy.id });
    expect(first.body.baseline_simulation.id).to.equal(baseline.id);
    const report = await until(() => get(`${url}/analysis/economic-impact/${first.body.report_id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(report.body.status, report.body.error_message).to.equal('completed');
    expect(report.body.baseline_simulation).to.include({ status: 'completed', attempts: 2 });
    expect(logs.some((m) => m.includes(`simulation ${baseline.id}: its output file was lost`))).to.equal(true);
  });

  it('fails a report with the reason of its failed simulation, and runs it again once the data is fixed', async () => {
    const fragile = path.join(storageDir, 'fragile.h5');
    const good = fs.readFileSync(fragile);
    const dataset = (await post(`${url}/datasets`, { name: 'fragile', filepath: 'fragile.h5' })).body;
    fs.writeFileSync(fragile, 'overwritten by mistake');
    const policy = (await post(`${url}/policies`, { ...BASIC_RATE_21, name: 'fragile 21p' })).body;
    const body = { tax_benefit_model_name: 'uk', dataset_id: dataset.id, policy_id: policy.id };
    const first = await post(`${url}/analysis/economic-impact`, body);
    const report = await until(() => get(`${url}/analysis/economic-impact/${first.body.report_id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(report.body.status).to.equal('failed');
    expect(report.body.error_message).to.match(/^baseline simulation .* failed: fragile\.h5: not an HDF5 file$/);
    expect(report.body.baseline_simulation.error_message).to.equal('fragile.h5: not an HDF5 file');
    fs.writeFileSync(fragile, good);
    const retried = await post(`${url}/analysis/economic-impact`, body);
    expect(retried.body.report_id).to.equal(first.body.report_id);
    const done = await until(() => get(`${url}/analysis/economic-impact/${first.body.report_id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(done.body.status, done.body.error_message).to.equal('completed');
  });
});
