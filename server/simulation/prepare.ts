/**
 * Datasets as simulations use them: read, checked against the model, ordered by household and
 * held in SharedArrayBuffers that every thread reads. Prepared datasets are kept (the two most
 * recent), so a baseline and its reform, or several reports on one dataset, read the file once.
 */
import * as fs from 'fs';
import * as path from 'path';
import type { CountryModel } from '../../core/model';
import { readRawItems } from '../datasets/h5';
import { RawReader, readDataset } from '../datasets/read';
import { threadPool } from './pool';
import { Microdata, toMicrodata } from '../datasets/microdata';
import type { JobData } from './job';
import { regionFilter } from './regions';

export interface PreparedDataset {
  key: string;
  microdata: Microdata;
  data: JobData;
  /** For each entity: row -> household row. */
  topOf: Record<string, Int32Array>;
  /** Persons per household. */
  size: Int32Array;
  /** Milliseconds spent reading and preparing. */
  ms: { read: number; prepare: number };
  /** Columns of variables nobody gives and no formula computes (their default), shared by every simulation of the dataset. */
  constants: Map<string, Float64Array | Int32Array | Uint8Array>;
}

const MAX_PREPARED = 2;
const prepared = new Map<string, Promise<PreparedDataset>>();

const shared = (bytes: number) => new SharedArrayBuffer(bytes);

export function prepareDataset(file: string, model: CountryModel, modelKey: string, region: string | null | undefined, threads = 1): Promise<PreparedDataset> {
  const abs = path.resolve(file);
  const st = fs.statSync(abs);
  const key = `${abs}|${st.size}|${st.mtimeMs}|${modelKey}|${region ?? ''}`;
  let p = prepared.get(key);
  if (p) {
    prepared.delete(key);
  } else {
    p = load(abs, model, region, key, threads);
    // A failed preparation is not kept: the next call tries again (the file may be fixed).
    p.catch(() => prepared.delete(key));
    if (prepared.size >= MAX_PREPARED) prepared.delete(prepared.keys().next().value!);
  }
  prepared.set(key, p);
  return p;
}

/**
 * Columns of our layout read by this thread and the simulation threads together, each a share of
 * the bytes (reading is copying: from the file into the WebAssembly heap, then into shared memory).
 */
function parallelReader(threads: number): RawReader {
  return async (file, items) => {
    const shares: { path: string; target: Uint8Array }[][] = Array.from({ length: threads + 1 }, () => []);
    const load = new Array<number>(threads + 1).fill(0);
    for (const item of [...items].sort((a, b) => b.target.length - a.target.length)) {
      const k = load.indexOf(Math.min(...load));
      shares[k].push(item);
      load[k] += item.target.length;
    }
    const pool = threadPool(threads);
    const others = shares.slice(1).filter((s) => s.length).map((share) => pool.submit({ type: 'read', file, items: share }));
    others.forEach((p) => p.catch(() => undefined));
    await readRawItems(file, shares[0]);
    await Promise.all(others);
  };
}

/** Forget one file's prepared forms (every model and region). */
export function forgetPreparedDataset(file: string): void {
  const abs = path.resolve(file);
  for (const key of [...prepared.keys()]) if (key.startsWith(`${abs}|`)) prepared.delete(key);
}

/** Forget prepared datasets (tests; servers after deleting a dataset). */
export function clearPreparedDatasets(): void {
  prepared.clear();
}

async function load(file: string, model: CountryModel, region: string | null | undefined, key: string, threads: number): Promise<PreparedDataset> {
  const t0 = performance.now();
  const tables = await readDataset(file, { model, shared: true, parallel: parallelReader(threads) });
  const t1 = performance.now();
  const country = model.country.id;
  const keep = regionFilter(country, region, (name) => {
    const spec = model.variables.get(name);
    return spec?.default as string | number | undefined;
  });
  const microdata = toMicrodata(tables, model, { alloc: shared, keep: keep ?? undefined });
  if (!microdata.top) throw new Error(`the ${country} model has no entity containing all others (a household): simulations run in household chunks`);
  const top = microdata.top;
  const data: JobData = { person: microdata.person, top, counts: microdata.counts, membership: microdata.membership, inputs: microdata.inputs, starts: microdata.starts };
  const topOf: Record<string, Int32Array> = {};
  const hh = microdata.membership[top];
  topOf[microdata.person] = hh;
  for (const [g, m] of Object.entries(microdata.membership)) {
    if (g === top) {
      topOf[g] = Int32Array.from({ length: microdata.counts[g] }, (_, i) => i);
      continue;
    }
    const t = new Int32Array(microdata.counts[g]);
    for (let p = 0; p < m.length; p++) t[m[p]] = hh[p];
    topOf[g] = t;
  }
  const s = microdata.starts[microdata.person];
  const size = new Int32Array(microdata.counts[top]);
  for (let h = 0; h < size.length; h++) size[h] = s[h + 1] - s[h];
  return { key, microdata, data, topOf, size, ms: { read: t1 - t0, prepare: performance.now() - t1 }, constants: new Map() };
}
