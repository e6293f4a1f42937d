/**
 * A simulation thread: answers `warm` (load a model) and `job` (compute a range of households
 * into shared output columns) messages from pool.ts, one at a time.
 */
import { parentPort } from 'worker_threads';
import { runJob } from './job';
import { loadModel } from './models';
import type { WorkerReply, WorkerRequest } from './pool';

parentPort!.on('message', (msg: WorkerRequest) => {
  const t = performance.now();
  let reply: WorkerReply;
  try {
    const model = loadModel(msg.modelFolder, msg.modelKey);
    if (msg.type === 'job') runJob(model, msg.data, msg.task);
    reply = { id: msg.id, ok: true, ms: performance.now() - t };
  } catch (error) {
    reply = { id: msg.id, ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(reply);
});
