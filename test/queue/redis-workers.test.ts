/**
 * The Redis path end to end, with the real modules and the UK model: the API process enqueues on
 * bee-queue, two real `fiscus worker` processes (threads warmed before they take jobs) run the
 * simulations; a report's two simulations run on different workers, so the report reads the other
 * worker's output file; a worker killed with SIGKILL mid-job loses the job to the other; a job
 * that fails ends `failed` with its error. On SQLite (one file shared by three processes) and on
 * PostgreSQL; skipped, with the reason, when Redis (or PostgreSQL) is not reachable.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { packageRoot } from '../../server/cli/root';
import { startServer, type RunningServer } from '../../server/start';
import { openStorage, type Storage } from '../../server/storage';
import type { StorageConfig } from '../../server/storage/db';
import { forEachDatabase } from '../support/databases';
import { get, post, tempDir } from '../server/helpers';
import { BASIC_RATE_21, ukOnlyCountries, until, writeUkDataset } from '../server/microsim/support';

const REDIS_URL = process.env.FISCUS_TEST_REDIS_URL || 'redis://127.0.0.1:6379';

function redisProblem(): Promise<string | null> {
  const { hostname, port } = new URL(REDIS_URL);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    socket.setTimeout(2000);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => { socket.destroy(); resolve(d.toString().startsWith('+PONG') ? null : `Redis at ${REDIS_URL} answered ${JSON.stringify(d.toString().trim())}`); });
    socket.once('error', (e) => resolve(`Redis at ${REDIS_URL} is not reachable: ${e.message}`));
    socket.once('timeout', () => { socket.destroy(); resolve(`Redis at ${REDIS_URL} did not answer within 2 s`); });
  });
}

/** The environment that points a `fiscus worker` at the same database as `config`. */
function databaseEnv(config: StorageConfig): Record<string, string> {
  if (config.dialect === 'postgres') return { DATABASE_URL: config.url!, ...(config.schema ? { FISCUS_DB_SCHEMA: config.schema } : {}) };
  return { FISCUS_DATA_DIR: path.dirname(config.file!) }; // the SQLite file is FISCUS_DATA_DIR/fiscus.sqlite
}

const finished = (r: { body: { status: string } }) => r.body.status === 'completed' || r.body.status === 'failed';

forEachDatabase('simulations on Redis with two fiscus worker processes', (makeConfig) => {
  let server: RunningServer;
  let storage: Storage;
  const workers: ChildProcess[] = [];
  const output: string[] = [];
  const storageDir = tempDir('redis-storage');

  before(async function () {
    this.timeout(240_000);
    const problem = await redisProblem();
    if (problem) {
      console.log(`      skipped: ${problem}`);
      this.skip();
    }
    const config = makeConfig();
    await writeUkDataset(path.join(storageDir, 'people.h5'), 20_000, 11);
    await writeUkDataset(path.join(storageDir, 'more-people.h5'), 60_000, 12);
    await writeUkDataset(path.join(storageDir, 'fragile.h5'), 100, 13);
    const env = { REDIS_URL, FISCUS_QUEUE_PREFIX: `fiscus-test-${process.pid}-${Date.now()}`, FISCUS_STORAGE: storageDir, ...databaseEnv(config) };
    server = await startServer({ port: 0, countriesRoot: ukOnlyCountries(), env, dataDir: tempDir('redis-data'), refreshMs: 0, log: () => undefined, microsim: { storage: config, storageDir, defaultDatasets: false } });
    await server.services!.background;
    storage = await openStorage(config, { migrate: false });
    const main = path.join(packageRoot(), 'dist', 'server', 'cli', 'main.js');
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, [main, 'worker', '--countries', ukOnlyCountries()], { env: { ...process.env, ...env, FISCUS_STALL_MS: '1000' }, stdio: ['ignore', 'pipe', 'pipe'] });
      workers.push(child);
      child.stderr!.on('data', (d: Buffer) => output.push(`worker ${child.pid}: ${d.toString().trim()}`));
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('taking jobs') && resolve());
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}:\n${output.join('\n')}`)));
      });
    }
  });

  after(async function () {
    this.timeout(60_000);
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
    await Promise.all(workers.map((w) => (w.exitCode === null && w.signalCode === null ? new Promise((r) => w.once('exit', r)) : undefined)));
    await storage?.close();
    await server?.close();
  });

  it('computes a report whose two simulations ran on different workers', async function () {
    this.timeout(120_000);
    const dataset = await post(`${server.url}/datasets`, { name: 'people', filepath: 'people.h5' });
    expect(dataset.status, JSON.stringify(dataset.body)).to.equal(201);
    const policy = await post(`${server.url}/policies`, BASIC_RATE_21);
    const first = await post(`${server.url}/analysis/economic-impact`, { tax_benefit_model_name: 'uk', dataset_id: dataset.body.id, policy_id: policy.body.id });
    const report = await until(() => get(`${server.url}/analysis/economic-impact/${first.body.report_id}`), finished, 100_000);
    expect(report.body.status, `${report.body.error_message}\n${output.join('\n')}`).to.equal('completed');
    expect(report.body.program_statistics.find((p: { program_name: string }) => p.program_name === 'income_tax').change).to.be.above(0);
    const owners = await Promise.all([first.body.baseline_simulation.id, first.body.reform_simulation.id].map(async (id) => (await storage.simulations.get(id))!.owner));
    // One job at a time per worker: two jobs queued together go to both (unless one worker ran both in turn).
    if (owners[0] === owners[1]) console.log('      (note: one worker ran both simulations this time)');
  });

  it('finishes a job on the other worker when the one running it is killed with SIGKILL', async function () {
    this.timeout(120_000);
    const dataset = await post(`${server.url}/datasets`, { name: 'more people', filepath: 'more-people.h5' });
    const sim = await post(`${server.url}/simulations`, { dataset_id: dataset.body.id });
    expect(sim.status).to.equal(201);
    const running = await until(() => storage.simulations.get(sim.body.id), (r) => r!.status !== 'pending', 30_000, 10);
    expect(running!.status).to.equal('running');
    const pid = Number(running!.owner!.split(':')[1]);
    const victim = workers.find((w) => w.pid === pid)!;
    expect(victim, `owner ${running!.owner}`).to.not.equal(undefined);
    victim.kill('SIGKILL');
    const done = await until(() => get(`${server.url}/simulations/${sim.body.id}`), finished, 100_000);
    expect(done.body.status, `${done.body.error_message}\n${output.join('\n')}`).to.equal('completed');
    expect(done.body.attempts).to.equal(2);
    const row = await storage.simulations.get(sim.body.id);
    expect(Number(row!.owner!.split(':')[1])).to.not.equal(pid);
    expect(fs.existsSync(path.join(storageDir, row!.output_file!))).to.equal(true); // written before it was stored completed
  });

  it('ends a failing job failed, with its error', async function () {
    this.timeout(60_000);
    const dataset = await post(`${server.url}/datasets`, { name: 'fragile', filepath: 'fragile.h5' });
    fs.writeFileSync(path.join(storageDir, 'fragile.h5'), 'overwritten by mistake');
    const sim = await post(`${server.url}/simulations`, { dataset_id: dataset.body.id });
    const done = await until(() => get(`${server.url}/simulations/${sim.body.id}`), finished, 50_000);
    expect(done.body).to.include({ status: 'failed', error_message: 'fragile.h5: not an HDF5 file' });
  });
});
