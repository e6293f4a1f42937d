/**
 * The worker threads simulations run on: one per core by default, started on first use and kept
 * for the process's life, each loading a country model once and reusing it (and its compiled
 * plans) for every later job. Data never travels: jobs carry typed arrays over SharedArrayBuffers,
 * so a message costs the same for ten households or a million.
 *
 * Idle threads are unref'd, so a process with nothing else to do exits without calling
 * shutdownSimulationThreads (tests and servers still call it to stop cleanly).
 */
import * as os from 'os';
import * as path from 'path';
import { Worker } from 'worker_threads';
import type { JobData, JobTask } from './job';
import type { OutcomeData } from './output';
import { loadModel, modelKey } from './models';
import { allOutputsWritten } from './output';

export type WorkerRequest =
  | { type: 'warm'; id: number; modelFolder: string; modelKey: string; year: number }
  | { type: 'job'; id: number; modelFolder: string; modelKey: string; data: JobData; task: JobTask }
  /** Read a share of a dataset file's columns into shared memory. */
  | { type: 'read'; id: number; file: string; items: { path: string; target: Uint8Array }[] }
  /** Collect garbage: let go of the shared columns of finished simulations. */
  | { type: 'collect'; id: number }
  /** Write a simulation's output file (columns in shared memory), beside the main thread's summary. */
  | { type: 'write'; id: number; file: string; data: OutcomeData; ids: Record<string, Float64Array | Int32Array>; computed: string[] };

/** A request before the pool numbers it. */
export type NewRequest = WorkerRequest extends infer T ? (T extends unknown ? Omit<T, 'id'> : never) : never;

/** `shared`: for a job with a pair, the outputs the second simulation shares with the first (job.ts). */
export type WorkerReply = { id: number; ok: true; ms: number; cpu: number; shared?: string[] } | { id: number; ok: false; error: string };

interface Slot {
  worker: Worker;
  busy: boolean;
  /** Messages posted and not answered: the thread keeps the process alive while non-zero. */
  outstanding: number;
}

interface Pending {
  request: WorkerRequest;
  resolve: (ms: number, shared?: string[]) => void;
  reject: (e: Error) => void;
}

export function defaultThreads(): number {
  return Math.max(1, typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length);
}

class ThreadPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  /**
   * Work that no one waits for (output files): started only while no simulation is computing, so
   * it never delays one on a machine with few cores, or once it has waited BACKGROUND_WAIT_MS.
   */
  private readonly background: (Pending & { since: number })[] = [];
  /** Simulations computing now, and when the last one ended (run.ts reports them). */
  private busy = 0;
  private idleSince = Date.now();
  private backgroundRunning = 0;

  /** A simulation starts computing. */
  startRun(): void {
    this.busy++;
  }

  /** A simulation has finished computing: background work may start once the pool stays idle a moment. */
  endRun(): void {
    this.busy--;
    if (this.busy === 0) {
      this.idleSince = Date.now();
      if (this.background.length) setTimeout(() => this.dispatch(), IDLE_GRACE_MS + 5);
    }
  }

  /** Background work may start: nothing computing for a moment (a reform often follows its baseline at once), or it has waited long. */
  private backgroundMayStart(): boolean {
    if (!this.background.length) return false;
    if (Date.now() - this.background[0].since > BACKGROUND_WAIT_MS) return true;
    return this.busy === 0 && Date.now() - this.idleSince >= IDLE_GRACE_MS;
  }
  private readonly running = new Map<number, { slot: Slot; pending: Pending; broadcast: boolean }>();
  private nextId = 1;
  /** CPU seconds the threads spent on requests (Linux), for timings. */
  cpuSeconds = 0;

  constructor(size: number) {
    for (let i = 0; i < size; i++) this.addWorker();
  }

  get size(): number {
    return this.slots.length;
  }

  grow(size: number): void {
    while (this.slots.length < size) this.addWorker();
  }

  private addWorker(): void {
    const worker = new Worker(path.join(__dirname, 'worker.js'));
    const slot: Slot = { worker, busy: false, outstanding: 0 };
    worker.on('message', (reply: WorkerReply) => this.finish(slot, reply));
    worker.on('error', (error) => this.crash(slot, error instanceof Error ? error : new Error(String(error))));
    worker.on('exit', (code) => {
      if (code !== 0) this.crash(slot, new Error(`a simulation thread stopped (exit code ${code})`));
    });
    worker.unref();
    this.slots.push(slot);
  }

  /** Run a request on the next free thread; resolves with the milliseconds it took there. */
  submit(request: NewRequest, options: { background?: boolean } = {}): Promise<number> {
    return new Promise((resolve, reject) => this.enqueue(request, resolve, reject, options.background ?? false));
  }

  /** Run a job; resolves with its time and, for a pair, the outputs the two simulations share. */
  submitJob(request: NewRequest & { type: 'job' }): Promise<{ ms: number; shared: string[] }> {
    return new Promise((resolve, reject) => this.enqueue(request, (ms, shared) => resolve({ ms, shared: shared ?? [] }), reject, false));
  }

  private enqueue(request: NewRequest, resolve: Pending['resolve'], reject: Pending['reject'], background: boolean): void {
    const pending = { request: { ...request, id: this.nextId++ } as WorkerRequest, resolve, reject };
    if (background) {
      this.background.push({ ...pending, since: Date.now() });
      // Checked again later, in case nothing else calls dispatch meanwhile. The timers keep the
      // process alive (a few seconds at most), so a file is not lost when nothing else runs.
      setTimeout(() => this.dispatch(), IDLE_GRACE_MS + 5);
      setTimeout(() => this.dispatch(), BACKGROUND_WAIT_MS + 10);
    } else {
      this.queue.push(pending);
    }
    this.dispatch();
  }

  dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy) continue;
      let pending: Pending | undefined = this.queue.shift();
      let background = false;
      // Background tasks one at a time and on the first thread only: an output file passes through
      // its thread's WebAssembly heap, which never shrinks, so files written on every thread (or
      // two at once, a report's pair) each grow a heap of their own: the peak RSS passed 2 GB.
      if (!pending && slot === this.slots[0] && this.backgroundRunning === 0 && this.backgroundMayStart()) {
        pending = this.background.shift();
        background = pending !== undefined;
      }
      if (!pending) return;
      slot.busy = true;
      if (background) {
        this.backgroundRunning++;
        const { resolve, reject } = pending;
        const done = () => this.backgroundRunning--;
        pending = { ...pending, resolve: (v, x) => (done(), resolve(v, x)), reject: (e) => (done(), reject(e)) };
      }
      this.post(slot, pending, false);
    }
  }

  private post(slot: Slot, pending: Pending, broadcast: boolean): void {
    if (slot.outstanding++ === 0) slot.worker.ref();
    this.running.set(pending.request.id, { slot, pending, broadcast });
    slot.worker.postMessage(pending.request);
  }

  /** The same request to every thread (queued behind whatever each is doing). */
  broadcast(request: NewRequest): Promise<number[]> {
    return Promise.all(this.slots.map((slot) => new Promise<number>((resolve, reject) => {
      this.post(slot, { request: { ...request, id: this.nextId++ } as WorkerRequest, resolve, reject }, true);
    })));
  }

  private finish(slot: Slot, reply: WorkerReply): void {
    const run = this.running.get(reply.id);
    if (!run) return;
    this.running.delete(reply.id);
    if (--slot.outstanding === 0) slot.worker.unref();
    if (!run.broadcast) slot.busy = false;
    if (reply.ok) {
      this.cpuSeconds += reply.cpu;
      run.pending.resolve(reply.ms, reply.shared);
    }
    else run.pending.reject(new Error(reply.error));
    this.dispatch();
  }

  /** A thread that died takes its job down with it; a new thread replaces it. */
  private crash(slot: Slot, error: Error): void {
    const i = this.slots.indexOf(slot);
    if (i < 0) return;
    this.slots.splice(i, 1);
    for (const [id, run] of this.running) {
      if (run.slot === slot) {
        this.running.delete(id);
        run.pending.reject(error);
      }
    }
    if (!this.closing) this.addWorker();
    this.dispatch();
  }

  private closing = false;

  async close(): Promise<void> {
    this.closing = true;
    for (const p of [...this.queue.splice(0), ...this.background.splice(0)]) p.reject(new Error('simulation threads were shut down'));
    // A thread that is unref'd does not keep the process alive until it has stopped: ref it, or the
    // process may exit before this promise resolves.
    await Promise.all(this.slots.map((s) => {
      s.worker.ref();
      return s.worker.terminate();
    }));
    this.slots.length = 0;
  }
}

const BACKGROUND_WAIT_MS = 5000;
const IDLE_GRACE_MS = 300;

let pool: ThreadPool | undefined;

/** The shared pool, with at least `threads` threads. */
export function threadPool(threads = defaultThreads()): ThreadPool {
  if (!pool) pool = new ThreadPool(Math.max(threads, defaultThreads()));
  else pool.grow(threads);
  return pool;
}

/** Stop the worker threads (tests and processes exit cleanly). A later simulation starts new ones. */
export async function shutdownSimulationThreads(): Promise<void> {
  // Output files still being written are finished first.
  await allOutputsWritten();
  const p = pool;
  pool = undefined;
  if (p) await p.close();
}

/**
 * Start the threads and load these country folders in each (and in this thread), then run each
 * model once on a small synthetic population of `year`, so the first simulation pays neither for
 * loading (about a second per thread) nor for compiling its plan. A server calls it at start.
 */
export async function warmSimulationThreads(modelFolders: string[], threads = defaultThreads(), year = 2025): Promise<void> {
  const p = threadPool(threads);
  const keys = modelFolders.map((folder) => modelKey(folder));
  const work = Promise.all(modelFolders.map((folder, i) => p.broadcast({ type: 'warm', modelFolder: folder, modelKey: keys[i], year })));
  modelFolders.forEach((folder, i) => loadModel(folder, keys[i]));
  await work;
}
