/**
 * The Redis path end to end: the API process enqueues on bee-queue, two real `fiscus worker`
 * processes take the jobs; one is killed with SIGKILL mid-job and the other finishes it; a job
 * that fails ends `failed` with its error. Skipped, with the reason, when Redis is not reachable.
 */
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { packageRoot } from '../../server/cli/root';
import { startServer, type RunningServer } from '../../server/start';
import { openStorage, type Storage } from '../../server/storage';
import { FIXTURE_COUNTRIES, get, post, tempDir } from '../server/helpers';
import { fakeModules } from '../server/microsim/fakes';

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

async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('simulations on Redis with two fiscus worker processes', function () {
  this.timeout(60_000);
  let server: RunningServer;
  let storage: Storage;
  const workers: ChildProcess[] = [];
  const dataDir = tempDir('redis-data');
  const storageDir = tempDir('redis-storage');
  const env = { REDIS_URL, FISCUS_QUEUE_PREFIX: `fiscus-test-${process.pid}-${Date.now()}`, FISCUS_DATA_DIR: dataDir, FISCUS_STORAGE: storageDir };

  before(async function () {
    const problem = await redisProblem();
    if (problem) {
      console.log(`      skipped: ${problem}`);
      this.skip();
    }
    fs.writeFileSync(path.join(storageDir, 'people.h5'), JSON.stringify({ year: 2025, households: 3 }));
    server = await startServer({ port: 0, countriesRoot: FIXTURE_COUNTRIES, env, dataDir, refreshMs: 0, log: () => undefined, microsim: { storageDir, modules: fakeModules({ specs: [], delayMs: 0 }), defaultDatasets: false } });
    await server.services!.background;
    storage = await openStorage({ dialect: 'sqlite', file: path.join(dataDir, 'fiscus.sqlite') }, { migrate: false });
    const main = path.join(packageRoot(), 'dist', 'server', 'cli', 'main.js');
    const fixture = path.join(__dirname, 'fixtures', 'slow-simulation.js');
    for (let i = 0; i < 2; i++) {
      const child = spawn(process.execPath, [main, 'worker', '--countries', FIXTURE_COUNTRIES], { env: { ...process.env, ...env, FISCUS_SIMULATION_MODULE: fixture, FISCUS_STALL_MS: '1000' }, stdio: ['ignore', 'pipe', 'pipe'] });
      workers.push(child);
      await new Promise<void>((resolve, reject) => {
        child.stdout!.on('data', (d: Buffer) => d.toString().includes('taking jobs') && resolve());
        child.once('exit', (code) => reject(new Error(`worker exited with ${code}`)));
      });
    }
  });

  after(async () => {
    for (const w of workers) if (w.exitCode === null && w.signalCode === null) w.kill('SIGTERM');
    await Promise.all(workers.map((w) => (w.exitCode === null && w.signalCode === null ? new Promise((r) => w.once('exit', r)) : undefined)));
    await storage?.close();
    await server?.close();
  });

  it('finishes a job on the other worker when the one running it is killed with SIGKILL', async () => {
    const dataset = await post(`${server.url}/datasets`, { name: 'people', filepath: 'people.h5' });
    expect(dataset.status, JSON.stringify(dataset.body)).to.equal(201);
    const sim = await post(`${server.url}/simulations`, { dataset_id: dataset.body.id });
    expect(sim.status).to.equal(201);
    const running = await until(() => storage.simulations.get(sim.body.id), (r) => r!.status === 'running' && r!.progress > 0.1);
    expect(running!.status).to.equal('running');
    const pid = Number(running!.owner!.split(':')[1]);
    const victim = workers.find((w) => w.pid === pid)!;
    expect(victim, `owner ${running!.owner}`).to.not.equal(undefined);
    victim.kill('SIGKILL');
    const done = await until(() => get(`${server.url}/simulations/${sim.body.id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(done.body.status).to.equal('completed');
    expect(done.body.attempts).to.equal(2);
    const row = await storage.simulations.get(sim.body.id);
    expect(Number(row!.owner!.split(':')[1])).to.not.equal(pid);
    expect(JSON.parse(row!.summary!).pid).to.not.equal(pid);
  });

  it('ends a failing job failed, with its error', async () => {
    const dataset = (await get(`${server.url}/datasets`)).body[0];
    const policy = await post(`${server.url}/policies`, { name: 'breaks', parameter_values: [{ parameter_name: 'gov.benefit.amount', value_json: 999, start_date: '2025-01-01' }] });
    const sim = await post(`${server.url}/simulations`, { dataset_id: dataset.id, policy_id: policy.body.id });
    const done = await until(() => get(`${server.url}/simulations/${sim.body.id}`), (r) => r.body.status === 'completed' || r.body.status === 'failed');
    expect(done.body).to.include({ status: 'failed', error_message: 'the reform broke the model' });
  });
});
