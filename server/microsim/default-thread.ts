/**
 * The default datasets' thread: synthesises a country's population, writes it, and checks it
 * against the model, off the main thread. Generating 100,000 households takes one to two seconds
 * of CPU and checking them a few tenths (plus loading the model, one or two seconds), and the main
 * thread is the one that answers household requests: none of it may run there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parentPort, Worker, workerData } from 'node:worker_threads';
import { CountryModel } from '../../core/model';
import { checkDataset, readDataset, synthesize, writeDataset, type DatasetTables } from '../datasets';
import type { FileCheck } from './dataset-files';

export interface DefaultDatasetTask {
  country: string;
  /** The model folder the dataset is checked against (the version it is registered with). */
  modelFolder: string;
  /** Written unless it exists already (a previous start wrote it and stopped before registering it). */
  file: string;
  households: number;
  year: number;
  seed: number;
}

type Reply = { ok: true; found: FileCheck; generated: boolean } | { ok: false; error: string };

/** Runs the task on a thread of its own; resolves with what the check found. */
export function makeDefaultDataset(task: DefaultDatasetTask): Promise<{ found: FileCheck; generated: boolean }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { fiscusDefaultDataset: true } });
    let settled = false;
    worker.once('message', (reply: Reply) => {
      settled = true;
      if (reply.ok) resolve({ found: reply.found, generated: reply.generated });
      else reject(new Error(reply.error));
      void worker.terminate();
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`the default dataset thread stopped (exit code ${code})`));
    });
    worker.postMessage(task);
  });
}

async function run(task: DefaultDatasetTask): Promise<{ found: FileCheck; generated: boolean }> {
  let tables: DatasetTables;
  const generated = !fs.existsSync(task.file);
  if (generated) {
    tables = await synthesize(task.country, { households: task.households, year: task.year, seed: task.seed });
    fs.mkdirSync(path.dirname(task.file), { recursive: true });
    // writeDataset writes beside the file and renames it into place: no reader sees half a file.
    await writeDataset(task.file, tables);
  } else {
    tables = await readDataset(task.file);
  }
  const check = checkDataset(tables, CountryModel.load(task.modelFolder));
  return { found: { layout: tables.layout, year: tables.year, check }, generated };
}

// Only in the thread started above (this module is imported on the main thread too).
if (parentPort && (workerData as { fiscusDefaultDataset?: boolean } | null)?.fiscusDefaultDataset) {
  const port = parentPort;
  port.once('message', (task: DefaultDatasetTask) => {
    run(task).then(
      (r) => port.postMessage({ ok: true, ...r } satisfies Reply),
      (error) => port.postMessage({ ok: false, error: (error as Error)?.message ?? String(error) } satisfies Reply),
    );
  });
}
