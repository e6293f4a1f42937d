/**
 * runSimulation: a country model over a dataset, in household jobs across the worker threads.
 *
 * 1. The model is loaded (once per process and folder) and the dataset read, checked and laid
 *    out in shared memory (once per file, model and region: prepare.ts).
 * 2. Output columns for every target are allocated in shared memory; the households are cut
 *    into jobs of consecutive rows, about eight per thread so threads finish together and
 *    progress moves in steps; each thread computes its jobs into the output columns.
 * 3. The main thread sums the aggregates (summary.ts) and writes the output file (output.ts).
 */
import * as path from 'path';
import type { Column } from '../../core/types';
import { COLUMN_TYPES } from '../../core/buffer-pool';
import { defaultCode, outputArrayType } from '../../core/compiler/formula';
import type { CountryModel } from '../../core/model';
import { labourSupplyParams } from './dynamics';
import type { JobTask } from './job';
import { loadModel, modelKey } from './models';
import { defaultThreads, threadPool } from './pool';
import { PreparedDataset, prepareDataset } from './prepare';
import { summarize } from './summary';
import { reportSpec, simulationTargets, splitTargets } from './targets';
import { keepOutcome, makeRoom, OutcomeData, recycle, releaseSharedBuffers, sharedBuffer, trackWrite } from './output';
import type { SimulationOutcome, SimulationSpec } from './types';

const RESPONSE = 'employment_income_behavioral_response';
/** Shared and other array memory above which simulation threads are asked to collect garbage after a run. */
const COLLECT_ABOVE_BYTES = 1.5e9;

export class SimulationAbortedError extends Error {
  constructor() {
    super('the simulation was cancelled');
    this.name = 'AbortError';
  }
}

export async function runSimulation(spec: SimulationSpec, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<SimulationOutcome> {
  return (await runSimulations([spec], onProgress, signal))[0];
}

/** Whether two simulations can run in one pass: the same households, model and year, and no behavioural response. */
export function canPair(a: SimulationSpec, b: SimulationSpec): boolean {
  const plain = (s: SimulationSpec) => !s.dynamic || Object.keys(s.dynamic).length === 0;
  return a.country === b.country && a.modelFolder === b.modelFolder && path.resolve(a.datasetFile) === path.resolve(b.datasetFile)
    && a.year === b.year && (a.region ?? null) === (b.region ?? null) && plain(a) && plain(b);
}

/**
 * Run simulations: one, or two that `canPair` (a report's baseline and reform) in one pass over
 * the households, where the second computes only what its rules change (core/plan-merge.ts).
 * Each gets its own outcome, summary and output file, the same as when run alone.
 */
export async function runSimulations(specs: SimulationSpec[], onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<SimulationOutcome[]> {
  if (specs.length === 0 || specs.length > 2 || (specs.length === 2 && !canPair(specs[0], specs[1]))) throw new Error('runSimulations takes one simulation, or two that can run in one pass');
  const spec = specs[0];
  const t0 = performance.now();
  const key = modelKey(spec.modelFolder);
  const model = loadModel(spec.modelFolder, key);
  if (model.country.id !== spec.country) throw new Error(`${spec.modelFolder} is the ${model.country.id} model, not ${spec.country}`);
  const tModel = performance.now();
  const threads = Math.max(1, spec.threads ?? defaultThreads());
  const prep = await prepareDataset(spec.datasetFile, model, key, spec.region, threads);
  const tData = performance.now();
  if (signal?.aborted) throw new SimulationAbortedError();

  const rspec = reportSpec(model, spec.year);
  const labourSupply = labourSupplyParams(model, spec.dynamic, spec.year);
  const targets = simulationTargets(rspec, model);
  if (labourSupply && model.variables.has('employment_income') && !targets.includes('employment_income')) targets.push('employment_income');
  makeRoom();
  const runs = specs.map(() => allocateOutputs(model, prep, targets, labourSupply !== null));
  const computed = runs[0].computed;
  /** Computed outputs whose columns are never reused for another simulation (summaries may cache their totals). */
  const stable = new Set<string>();
  // Threads receive only the columns they fill: any other (an ordinary ArrayBuffer) would be copied into every message.
  const filled = runs.map((r) => Object.fromEntries([...computed, RESPONSE].filter((n) => r.outputs[n]).map((n) => [n, r.outputs[n]])));
  const pool = threadPool(threads);
  const cpuBefore = pool.cpuSeconds;
  pool.startRun();
  try {
    const pair = specs.length === 2 ? { reform: specs[1].reform, outputs: filled[1] } : undefined;
    const jobs = await runJobs(model.country.folder, key, prep, { year: spec.year, reform: spec.reform, labourSupply, targets: computed, pair }, filled[0], threads, onProgress, signal);
    if (pair) for (const name of shareOutputs(prep, model, jobs, runs[0], runs[1], filled[1])) stable.add(name);
  } finally {
    pool.endRun();
  }
  const tRun = performance.now();
  const md = prep.microdata;
  const entities: Record<string, string> = {};
  for (const name of Object.keys(runs[0].outputs)) entities[name] = name === RESPONSE ? md.person : model.variable(name).entity;
  const outcomes = specs.map((s, k): SimulationOutcome => {
    const { outputs, owned } = runs[k];
    const tSummary = performance.now();
    const timings: Record<string, number> = { model: (tModel - t0) / 1000, read: prep.ms.read / 1000, prepare: prep.ms.prepare / 1000, load_dataset: (tData - tModel) / 1000, compute: (tRun - tData) / 1000, compute_cpu: pool.cpuSeconds - cpuBefore };
    if (specs.length > 1) timings.paired = 1;
    const data: OutcomeData = {
      meta: {
        country: s.country, year: s.year, region: s.region ?? null, person: md.person, top: md.top!,
        net: rspec.net, tax: rspec.tax, benefits: rspec.benefits, income_measure: rspec.incomeMeasure, programmes: rspec.programmes, entities,
      },
      counts: md.counts,
      membership: md.membership,
      weights: md.weights,
      columns: outputs,
      orders: new Map(),
      owned,
      writing: true,
    };
    keepOutcome(s.outputFile, data);
    // The file is written on a simulation thread, in the background: the simulation is complete
    // with its summary, and readers of the file (loadOutcome) wait for it (docs/simulation.md).
    const written = pool.submit({ type: 'write', file: s.outputFile, data: { ...data, columns: filled[k] }, ids: md.ids, computed: Object.keys(filled[k]) }, { background: true });
    trackWrite(s.outputFile, written.then(() => undefined).finally(() => {
      data.writing = false;
      recycle(data);
    }));
    const summary = summarize({ prep, spec: rspec, outputs, model, country: s.country, year: s.year, region: s.region ?? null, responded: labourSupply !== null, timings, computed: new Set(computed.filter((n) => !stable.has(n))), orders: data.orders });
    const tEnd = performance.now();
    timings.summary = (tEnd - tSummary) / 1000;
    timings.total = (tEnd - t0) / 1000;
    return { summary, outputFile: s.outputFile };
  });
  // Threads let go of the columns they wrote (their memory is shared; see worker.ts). A full
  // collection costs a few tenths of a CPU second per thread, so only when shared memory is large.
  if (process.memoryUsage().arrayBuffers > COLLECT_ABOVE_BYTES) pool.broadcast({ type: 'collect' }).catch(() => undefined);
  onProgress(1);
  return outcomes;
}

/**
 * Output columns. Targets the dataset gives are its own (shared) columns; targets nothing gives
 * and no formula computes are their default everywhere (most benefit inputs of a dataset without
 * them), one column shared by every simulation of the dataset: neither is computed by the
 * threads. The others get shared columns the threads fill.
 */
function allocateOutputs(model: CountryModel, prep: PreparedDataset, targets: string[], responded: boolean): { outputs: Record<string, Column>; computed: string[]; owned: SharedArrayBuffer[] } {
  const outputs: Record<string, Column> = {};
  const given = new Map(prep.microdata.inputs.map((i) => [i.name, i.values]));
  const split = splitTargets(model, targets, new Set(given.keys()), responded);
  for (const name of split.given) outputs[name] = given.get(name)!;
  for (const name of split.constant) {
    let col = prep.constants.get(name);
    if (!col) {
      const spec = model.variable(name);
      col = new COLUMN_TYPES[outputArrayType(spec)](prep.microdata.counts[spec.entity]);
      const d = defaultCode(spec);
      if (d !== 0) col.fill(d);
      prep.constants.set(name, col);
    }
    outputs[name] = col;
  }
  const owned: SharedArrayBuffer[] = [];
  const shared = (bytes: number) => {
    const b = sharedBuffer(bytes);
    owned.push(b);
    return b as unknown as ArrayBuffer;
  };
  for (const name of split.computed) {
    const spec = model.variable(name);
    const C = COLUMN_TYPES[outputArrayType(spec)];
    outputs[name] = new C(shared(C.BYTES_PER_ELEMENT * prep.microdata.counts[spec.entity]));
  }
  if (responded) outputs[RESPONSE] = new Float64Array(shared(8 * prep.microdata.counts[prep.microdata.person]));
  return { outputs, computed: split.computed, owned };
}

/** Cut households into jobs of about `persons` people each (whole households). */
export function jobRanges(personStarts: Int32Array, persons: number): { lo: number; hi: number }[] {
  const households = personStarts.length - 1;
  const ranges: { lo: number; hi: number }[] = [];
  let lo = 0;
  while (lo < households) {
    let hi = lo + 1;
    while (hi < households && personStarts[hi] - personStarts[lo] < persons) hi++;
    ranges.push({ lo, hi });
    lo = hi;
  }
  return ranges;
}

/** The households of one job and, for a pair, the outputs its two simulations shared. */
interface JobDone {
  lo: number;
  hi: number;
  shared: string[];
}

async function runJobs(
  folder: string, key: string, prep: PreparedDataset, task: Omit<JobTask, 'outputs' | 'lo' | 'hi'>,
  outputs: Record<string, Column>, threads: number, onProgress: (f: number) => void, signal?: AbortSignal,
): Promise<JobDone[]> {
  const people = prep.microdata.counts[prep.microdata.person];
  // About eight jobs per thread, each at least one cache-sized chunk and at most 256k people.
  const size = Math.min(262144, Math.max(16384, Math.ceil(people / (threads * 8))));
  const ranges = jobRanges(prep.data.starts[prep.data.person], size);
  const pool = threadPool(threads);
  let next = 0;
  let done = 0;
  const finished: JobDone[] = [];
  let failure: unknown = null;
  const lane = async () => {
    while (next < ranges.length && failure === null) {
      if (signal?.aborted) throw new SimulationAbortedError();
      const r = ranges[next++];
      const { shared } = await pool.submitJob({ type: 'job', modelFolder: folder, modelKey: key, data: prep.data, task: { ...task, outputs, lo: r.lo, hi: r.hi } });
      finished.push({ ...r, shared });
      done++;
      onProgress(Math.min(0.99, done / ranges.length));
    }
  };
  // `threads` lanes: each keeps one job in flight, so a simulation uses at most that many threads.
  const lanes = Array.from({ length: Math.min(threads, ranges.length) }, () => lane().catch((e) => {
    failure ??= e;
  }));
  await Promise.all(lanes);
  if (failure !== null) throw failure;
  return finished;
}

/**
 * A pair's second simulation takes the first one's column for every output the two shared in all
 * jobs (its own buffer was never written: no memory, no copy); returns their names. An output
 * shared in some jobs only is copied for their rows.
 */
function shareOutputs(prep: PreparedDataset, model: CountryModel, jobs: JobDone[], first: { outputs: Record<string, Column>; owned: SharedArrayBuffer[] }, second: { outputs: Record<string, Column>; owned: SharedArrayBuffer[] }, filled: Record<string, Column>): string[] {
  const count = new Map<string, number>();
  for (const j of jobs) for (const n of j.shared) count.set(n, (count.get(n) ?? 0) + 1);
  const unused = new Set<SharedArrayBuffer>();
  const aliased = new Set<SharedArrayBuffer>();
  const names: string[] = [];
  for (const [name, n] of count) {
    if (n === jobs.length) {
      names.push(name);
      unused.add(second.outputs[name].buffer as SharedArrayBuffer);
      aliased.add(first.outputs[name].buffer as SharedArrayBuffer);
      second.outputs[name] = filled[name] = first.outputs[name];
      continue;
    }
    const starts = prep.data.starts[model.variable(name).entity];
    for (const j of jobs) {
      if (!j.shared.includes(name)) continue;
      const [lo, hi] = [starts[j.lo], starts[j.hi]];
      second.outputs[name].set(first.outputs[name].subarray(lo, hi) as ArrayLike<number>, lo);
    }
  }
  // A column both simulations hold is reused by neither when it is recycled (output.ts): the
  // other may still be read. The buffers the second never wrote go back to the pool now.
  first.owned = first.owned.filter((b) => !aliased.has(b));
  second.owned = second.owned.filter((b) => !unused.has(b));
  releaseSharedBuffers([...unused]);
  return names;
}
