/**
 * A simulation thread: answers `warm` (load a model), `job` (compute a range of households into
 * shared output columns) and `write` (write an output file) messages from pool.ts, one at a time.
 */
import * as fs from 'fs';
import * as v8 from 'v8';
import * as vm from 'vm';
import { parentPort } from 'worker_threads';
import { runJob } from './job';
import { loadModel } from './models';
import { writeOutcome } from './output';
import { readRawItems } from '../datasets/h5';
import { warmModel } from './warm';
import type { WorkerReply, WorkerRequest } from './pool';

let queue = Promise.resolve();

/**
 * A shared column's memory is freed only once every thread that saw it has dropped it, and a
 * simulation thread allocates little, so its garbage collector seldom runs by itself: without a
 * collection after each simulation, a server's memory grows by a simulation's columns each time.
 */
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc') as () => void;

parentPort!.on('message', (msg: WorkerRequest) => {
  // Writing is asynchronous (h5wasm loads once per thread): messages are still answered in order.
  queue = queue.then(() => handle(msg));
});

/** This thread's CPU seconds (Linux; 0 elsewhere): replies carry what each request cost. */
function threadCpu(): number {
  try {
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

async function handle(msg: WorkerRequest): Promise<void> {
  const t = performance.now();
  const cpu = threadCpu();
  let reply: WorkerReply;
  let shared: string[] | undefined;
  try {
    if (msg.type === 'write') {
      await writeOutcome(msg.file, msg.data, msg.ids, new Set(msg.computed));
    } else if (msg.type === 'read') {
      await readRawItems(msg.file, msg.items);
    } else if (msg.type === 'collect') {
      collect();
    } else {
      const model = loadModel(msg.modelFolder, msg.modelKey);
      if (msg.type === 'job') shared = runJob(model, msg.data, msg.task);
      else await warmModel(model, msg.year);
    }
    reply = { id: msg.id, ok: true, ms: performance.now() - t, cpu: threadCpu() - cpu, shared };
  } catch (error) {
    reply = { id: msg.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
}
