/**
 * What a worker does with a job, whichever queue delivered it: claim the simulation in the
 * database (one owner at a time), run it with the simulation module, beat a heartbeat with its
 * progress, store the outcome; then finish the reports that were waiting on it. The same handler
 * runs in the API process (in-process queue) and in `fiscus worker` processes (Redis).
 *
 * Output files are written in the background after `runSimulation` resolves. In the API process
 * the simulation is stored completed at once (its reports read the results from memory); a
 * `fiscus worker` waits for the file first (`awaitOutputs`), because the report may be computed
 * by another process that reads it, and a worker killed before writing it must leave the job to
 * be retried, not a completed simulation without results.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { CountryModel } from '../../core/model';
import type { Reform } from '../../parameters/types';
import { modelFolderPath } from '../microsim/model-folders';
import type { ModelRegistry } from '../models/registry';
import type { Job, JobHandler } from '../queue/types';
import { economicImpact, outputWritten, runSimulations, type SimulationOutcome, type SimulationSpec } from '../simulation';
import type { Storage } from '../storage';
import type { ParameterSetStore } from '../storage/parameter-sets';
import type { SimulationRow } from '../storage/rows';

export interface JobContext {
  storage: Storage;
  registry: ModelRegistry<CountryModel>;
  storageDir: string;
  /** This process, as recorded in `simulations.owner`. */
  owner: string;
  log(message: string): void;
  /** Heartbeat period (ms, default 1000); a running simulation silent for `staleMs` has lost its owner. */
  heartbeatMs?: number;
  staleMs?: number;
  /** Attempts before a simulation whose workers keep dying is failed (default 3). */
  maxAttempts?: number;
  threads?: number;
  /** Store a simulation completed only once its output file is written (worker processes). */
  awaitOutputs?: boolean;
  /** Queues a simulation to run again (one whose output file was lost). */
  enqueue(job: Job): Promise<void>;
}

export interface JobRunner {
  handler: JobHandler;
  /** Resolves when the output files of the simulations this process ran are written (orderly stops). */
  outputsWritten(): Promise<void>;
}

export const DEFAULT_STALE_MS = 15_000;

export function ownerName(): string {
  return `${os.hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
}

export function createJobHandler(ctx: JobContext): JobRunner {
  const writing = new Set<string>();
  const handler: JobHandler = async (job: Job, lease) => {
    if (job.kind === 'simulation') await runSimulationJob(ctx, job.id, lease.force, writing);
    else await finishReport(ctx, job.id);
  };
  return {
    handler,
    outputsWritten: async () => {
      await Promise.allSettled([...writing].map((file) => outputWritten(file)));
    },
  };
}

async function runSimulationJob(ctx: JobContext, id: string, force: boolean, writing: Set<string>): Promise<void> {
  const sims = ctx.storage.simulations;
  const staleBefore = new Date(Date.now() - (ctx.staleMs ?? DEFAULT_STALE_MS)).toISOString();
  const maxAttempts = ctx.maxAttempts ?? 3;
  const claim = await sims.claim(id, ctx.owner, { staleBefore, force, maxAttempts });
  if ('skipped' in claim) {
    // Done already (a duplicate delivery, or run with its report's other simulation), or failed
    // for good: its reports may still wait.
    if (claim.skipped === 'completed' || claim.skipped === 'failed') await finishReportsOf(ctx, id);
    return;
  }
  const partner = await claimPartner(ctx, claim.claimed, staleBefore, maxAttempts);
  // The baseline (no policy) first: the reform's pass shares its columns (run.ts).
  const rows = partner ? [claim.claimed, partner].sort((a, b) => Number(a.policy_id !== null) - Number(b.policy_id !== null)) : [claim.claimed];
  const abort = new AbortController();
  const held = new Set(rows.map((r) => r.id));
  let progress = 0;
  const beat = setInterval(() => {
    for (const r of rows) {
      if (!held.has(r.id)) continue;
      sims.heartbeat(r.id, ctx.owner, progress).then((ok) => {
        if (ok) return;
        held.delete(r.id);
        // Another worker took it over: stop when none of the simulations is ours any more.
        if (held.size === 0) abort.abort(new Error('the claim on this simulation was taken over'));
      }, (error) => ctx.log(`simulation ${r.id}: heartbeat failed: ${(error as Error).message}`));
    }
  }, ctx.heartbeatMs ?? 1000);
  const onProgress = (f: number) => (progress = Math.max(progress, Math.min(1, f)));
  let results: (SimulationOutcome | Error)[];
  try {
    results = await execute(ctx, rows, onProgress, abort.signal);
  } catch (error) {
    results = rows.map(() => asError(error));
  }
  // A pair fails together whatever failed (a policy that does not compile, say): each alone, so
  // that a bad policy fails its own simulation and not the baseline it was paired with.
  if (rows.length === 2 && !abort.signal.aborted && results[0] instanceof Error) {
    ctx.log(`simulations ${rows.map((r) => r.id).join(' and ')} failed together (${results[0].message}): running each alone`);
    results = [];
    for (const r of rows) results.push(await execute(ctx, [r], onProgress, abort.signal).then((o) => o[0], asError));
  }
  clearInterval(beat);
  if (abort.signal.aborted) return; // other workers own them now
  for (const [k, o] of results.entries()) {
    if (o instanceof Error) continue;
    const file = o.outputFile;
    writing.add(file);
    const written = outputWritten(file).finally(() => writing.delete(file));
    // A worker process's reports may be computed elsewhere, from the file: no file, no result.
    if (ctx.awaitOutputs) await written.catch((error) => (results[k] = asError(error)));
    else written.catch((error) => ctx.log(`simulation ${rows[k].id}: its output file could not be written (reports on it will run it again): ${(error as Error).message}`));
  }
  for (const [k, r] of rows.entries()) {
    const o = results[k];
    if (o instanceof Error) {
      const message = relative(ctx, o.message);
      ctx.log(`simulation ${r.id} failed: ${message}`);
      await sims.fail(r.id, ctx.owner, message);
    } else {
      // Stored relative to the storage folder: workers on other machines may mount it elsewhere.
      await sims.complete(r.id, ctx.owner, o.summary, path.relative(ctx.storageDir, o.outputFile).split(path.sep).join('/'));
    }
  }
  for (const r of rows) await finishReportsOf(ctx, r.id);
}

/**
 * The other simulation of a report on this one, claimed to run in the same pass when it waits
 * (or its worker died) and can run with it: the same dataset, model version, year and region, no
 * behavioural response. A cold report then costs a baseline and what its policy changes, instead
 * of two whole simulations. The partner's own job, when it comes, finds it done.
 */
async function claimPartner(ctx: JobContext, row: SimulationRow, staleBefore: string, maxAttempts: number): Promise<SimulationRow | null> {
  if (row.dynamic_id !== null) return null;
  const sims = ctx.storage.simulations;
  for (const report of await sims.openReportsOf(row.id)) {
    const otherId = report.baseline_simulation_id === row.id ? report.reform_simulation_id : report.baseline_simulation_id;
    if (otherId === row.id) continue;
    const other = await sims.get(otherId);
    if (!other || (other.status !== 'pending' && other.status !== 'running') || other.dynamic_id !== null) continue;
    if (other.dataset_id !== row.dataset_id || other.tax_benefit_model_version_id !== row.tax_benefit_model_version_id || other.year !== row.year || other.region !== row.region) continue;
    const claim = await sims.claim(other.id, ctx.owner, { staleBefore, maxAttempts });
    if ('claimed' in claim) return claim.claimed;
  }
  return null;
}

async function execute(ctx: JobContext, rows: SimulationRow[], onProgress: (f: number) => void, signal: AbortSignal): Promise<SimulationOutcome[]> {
  const specs = await Promise.all(rows.map(async (row): Promise<SimulationSpec> => {
    const version = await ctx.storage.catalogue.getVersion(row.tax_benefit_model_version_id);
    const dataset = await ctx.storage.datasets.get(row.dataset_id);
    if (!version || !dataset) throw new Error(`the simulation's ${version ? 'dataset' : 'model version'} is no longer stored`);
    const { country, folder } = await modelFolderPath(ctx, version);
    return {
      country,
      modelFolder: folder,
      datasetFile: path.join(ctx.storageDir, dataset.filepath),
      year: row.year,
      reform: row.policy_id ? await reformOf(ctx.storage.policies, row.policy_id) : undefined,
      dynamic: row.dynamic_id ? await reformOf(ctx.storage.dynamics, row.dynamic_id) : undefined,
      region: row.region,
      outputFile: outputPath(ctx, row.id),
      threads: ctx.threads,
    };
  }));
  return runSimulations(specs, onProgress, signal);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

function outputPath(ctx: JobContext, id: string): string {
  return path.join(ctx.storageDir, 'outputs', `${id}.h5`);
}

/** Error messages name files inside the storage folder as clients do: relative to it. */
function relative(ctx: JobContext, message: string): string {
  return message.split(path.resolve(ctx.storageDir) + path.sep).join('');
}

/** A stored policy or dynamic as a reform: `{name: {"start.end": value}}` ("start" alone when open-ended). */
export async function reformOf(store: ParameterSetStore, id: string): Promise<Reform> {
  const reform: Reform = {};
  for (const v of await store.values(id)) {
    const period = v.end_date ? `${v.start_date}.${v.end_date}` : v.start_date;
    (reform[v.parameter_name] ??= {})[period] = JSON.parse(v.value_json);
  }
  return reform;
}

async function finishReportsOf(ctx: JobContext, simulationId: string): Promise<void> {
  for (const report of await ctx.storage.simulations.openReportsOf(simulationId)) await finishReport(ctx, report.id);
}

/** Computes a report whose simulations are both done (or fails it with the failed one's reason). */
export async function finishReport(ctx: JobContext, id: string): Promise<void> {
  const sims = ctx.storage.simulations;
  const report = await sims.getReport(id);
  if (!report || report.status !== 'pending') return;
  const [baseline, reform] = await Promise.all([sims.get(report.baseline_simulation_id), sims.get(report.reform_simulation_id)]);
  if (!baseline || !reform) return void (await sims.failReport(id, 'its simulations are no longer stored'));
  const failed = [baseline, reform].find((s) => s.status === 'failed');
  if (failed) return void (await sims.failReport(id, `${failed === baseline ? 'baseline' : 'reform'} simulation ${failed.id} failed: ${failed.error_message ?? 'no reason recorded'}`));
  if (baseline.status !== 'completed' || reform.status !== 'completed') return;
  // A file whose writer died will never appear: run that simulation again rather than wait for it.
  if (await rerunLost(ctx, [baseline, reform].filter((s) => !outputExists(ctx, s) && ownerGone(s.owner)))) return;
  try {
    const version = await ctx.storage.catalogue.getVersion(baseline.tax_benefit_model_version_id);
    const model = version && (await ctx.storage.catalogue.getModel(version.model_id));
    if (!model) throw new Error('the simulations name a model version that is not stored');
    const result = await economicImpact(model.country, outcomeOf(ctx, baseline), outcomeOf(ctx, reform));
    await sims.completeReport(id, result);
  } catch (error) {
    // Results neither in memory nor in a file (the write failed, or its process died on another
    // machine): the report stays pending and is computed when the simulations have run again.
    await Promise.allSettled([baseline, reform].map((s) => outputWritten(outcomeOf(ctx, s).outputFile)));
    if (await rerunLost(ctx, [baseline, reform].filter((s) => !outputExists(ctx, s)))) return;
    const message = relative(ctx, (error as Error).message);
    ctx.log(`report ${id} failed: ${message}`);
    await sims.failReport(id, `the report could not be computed: ${message}`);
  }
}

function outcomeOf(ctx: JobContext, row: SimulationRow): SimulationOutcome {
  return { summary: row.summary === null ? null : JSON.parse(row.summary), outputFile: path.join(ctx.storageDir, row.output_file ?? '') };
}

function outputExists(ctx: JobContext, row: SimulationRow): boolean {
  return row.output_file !== null && fs.existsSync(path.join(ctx.storageDir, row.output_file));
}

/** True when the owner was a process on this machine that is no longer running. */
function ownerGone(owner: string | null): boolean {
  const [host, pid] = (owner ?? '').split(':');
  if (host !== os.hostname() || !pid || Number(pid) === process.pid) return false;
  try {
    process.kill(Number(pid), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

async function rerunLost(ctx: JobContext, lost: SimulationRow[]): Promise<boolean> {
  let any = false;
  for (const s of lost) {
    if (!(await ctx.storage.simulations.rerunLost(s.id, 'its output file was lost: running it again'))) continue;
    ctx.log(`simulation ${s.id}: its output file was lost; running it again`);
    await ctx.enqueue({ kind: 'simulation', id: s.id });
    any = true;
  }
  return any;
}
