/**
 * A simulation's results: the computed columns with the population they belong to. Kept in
 * memory for the most recent simulations (economicImpact pairs a baseline and a reform without
 * reading files when both ran in this process) and written as an HDF5 file in Fiscus's layout
 * (readable by readDataset): one group per entity with its ids, the person table's links, the
 * household weights and every variable the simulation computed (the reports' inputs, such as
 * ages, are in the dataset). A variable that is zero on every row is not written; the root
 * attribute `fiscus_output` (JSON) lists it under `zero`, with the country, region, year, the
 * report's choice of variables and each variable's entity.
 */
import type { Column } from '../../core/types';
import { withFile, writeColumn } from '../datasets/h5';
import { readDataset } from '../datasets/read';
import type { DatasetColumn } from '../datasets/types';
import type { Programme } from './targets';
import * as fs from 'fs';
import * as path from 'path';

export interface OutputMeta {
  country: string;
  year: number;
  region: string | null;
  person: string;
  top: string;
  net: string;
  tax: string;
  benefits: string;
  income_measure: string;
  programmes: Programme[];
  /** Variable -> entity, for every column the reports use. */
  entities: Record<string, string>;
  /** Columns taken from the dataset (not written: they are in the dataset). */
  from_dataset?: string[];
  zero?: string[];
}

export interface OutcomeData {
  meta: OutputMeta;
  counts: Record<string, number>;
  membership: Record<string, Int32Array>;
  weights: Float64Array;
  columns: Record<string, Column | Float64Array>;
  /** In memory only: households in ascending order of an income measure, as the summary sorted them. */
  orders?: Map<string, Uint32Array>;
  /** In memory only: the shared buffers of the columns the threads computed, reused once nothing needs them. */
  owned?: SharedArrayBuffer[];
  /** Readers using the columns now (a report), a write in progress, and whether it has left the cache. */
  pins?: number;
  writing?: boolean;
  evicted?: boolean;
}

/**
 * Results kept in memory, most recently used last: a report's baseline and reform, and one more
 * so that a baseline reused by the next report (the usual case) is still there. Others are read
 * from their files.
 */
const MAX_KEPT = 3;
const kept = new Map<string, OutcomeData>();

export function keepOutcome(file: string, data: OutcomeData): void {
  const key = path.resolve(file);
  const previous = kept.get(key);
  kept.delete(key);
  if (previous && previous !== data) retire(previous);
  if (kept.size >= MAX_KEPT) {
    const oldest = kept.keys().next().value!;
    retire(kept.get(oldest)!);
    kept.delete(oldest);
  }
  kept.set(key, data);
}

/** Make room for a new outcome before its simulation allocates, so it can reuse the buffers of the one it displaces. */
export function makeRoom(): void {
  while (kept.size >= MAX_KEPT) {
    const oldest = kept.keys().next().value!;
    retire(kept.get(oldest)!);
    kept.delete(oldest);
  }
}

/** Drop one outcome from the cache (its buffers go back once written and unread). */
export function forgetOutcome(file: string): void {
  const key = path.resolve(file);
  const d = kept.get(key);
  if (!d) return;
  kept.delete(key);
  retire(d);
}

export function forgetOutcomes(): void {
  for (const d of kept.values()) retire(d);
  kept.clear();
}

/** An outcome out of the cache: its shared buffers go back for reuse as soon as nothing uses them. */
function retire(d: OutcomeData): void {
  d.evicted = true;
  recycle(d);
}

/** Give an outcome's buffers back when it is out of the cache, unread and written. */
export function recycle(d: OutcomeData): void {
  if (!d.evicted || (d.pins ?? 0) > 0 || d.writing || !d.owned) return;
  releaseSharedBuffers(d.owned);
  d.owned = undefined;
  d.columns = {};
}

/** Stop using an outcome a reader pinned (loadOutcome with pin). */
export function unpin(d: OutcomeData): void {
  d.pins = Math.max(0, (d.pins ?? 0) - 1);
  recycle(d);
}

/**
 * Shared buffers for output columns, reused from simulation to simulation: a new buffer costs a
 * page fault per 4 KB on first write, and every thread that saw it must collect its garbage
 * before its memory is freed. Reuse keeps a server's memory flat.
 */
const freeBuffers = new Map<number, SharedArrayBuffer[]>();
const MAX_FREE_BYTES = 1e9;

export function sharedBuffer(bytes: number): SharedArrayBuffer {
  const list = freeBuffers.get(bytes);
  return list?.pop() ?? new SharedArrayBuffer(bytes);
}

export function releaseSharedBuffers(buffers: SharedArrayBuffer[]): void {
  let held = 0;
  for (const list of freeBuffers.values()) for (const b of list) held += b.byteLength;
  for (const b of buffers) {
    if (held + b.byteLength > MAX_FREE_BYTES) break;
    held += b.byteLength;
    const list = freeBuffers.get(b.byteLength);
    if (list) list.push(b);
    else freeBuffers.set(b.byteLength, [b]);
  }
}

/** Drop the reusable buffers (after a dataset is forgotten). */
export function clearSharedBuffers(): void {
  freeBuffers.clear();
}

/**
 * Output files being written in the background (runSimulation resolves once the summary is
 * ready; the file follows, written on a simulation thread and renamed into place when complete).
 */
const writing = new Map<string, Promise<void>>();

export function trackWrite(file: string, done: Promise<void>): void {
  const key = path.resolve(file);
  const p = done.finally(() => {
    if (writing.get(key) === p) writing.delete(key);
  });
  p.catch(() => undefined);
  writing.set(key, p);
}

/** Resolves when this process has finished writing `file` (at once if it is not writing it). */
export function outputWritten(file: string): Promise<void> {
  return writing.get(path.resolve(file)) ?? Promise.resolve();
}

/** Every output file this process is writing. */
export async function allOutputsWritten(): Promise<void> {
  await Promise.allSettled([...writing.values()]);
}

/** How long a report waits for another process's output file to appear. */
const APPEAR_TIMEOUT_MS = 60_000;

async function appeared(file: string): Promise<void> {
  await outputWritten(file);
  const start = Date.now();
  while (!fs.existsSync(file)) {
    if (Date.now() - start > APPEAR_TIMEOUT_MS) throw new Error(`${file}: the simulation's output file has not appeared`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Write the output file: ids, links, weights and the `computed` columns (dataset inputs are in the dataset). */
export async function writeOutcome(file: string, data: OutcomeData, ids: Record<string, Float64Array | Int32Array>, computed: Set<string>): Promise<void> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // Unique per write: a simulation run again to the same file may overlap the previous write.
  const tmp = `${file}.${process.pid}.${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}.tmp`;
  const zero: string[] = [];
  const { meta } = data;
  try {
    await withFile(tmp, 'w', (f, ns) => {
      const groups = new Map<string, ReturnType<typeof f.create_group>>();
      const group = (e: string) => {
        let g = groups.get(e);
        if (!g) {
          g = f.create_group(e);
          groups.set(e, g);
        }
        return g;
      };
      for (const [e, n] of Object.entries(data.counts)) {
        writeColumn(ns, group(e), `${e}_id`, ids[e] ?? Float64Array.from({ length: n }, (_, i) => i));
      }
      for (const [g, m] of Object.entries(data.membership)) {
        const gid = ids[g];
        const link = gid ? new (gid.constructor as Int32ArrayConstructor)(m.length) : new Int32Array(m.length);
        for (let p = 0; p < m.length; p++) link[p] = gid ? gid[m[p]] : m[p];
        writeColumn(ns, group(meta.person), `${meta.person}_${g}_id`, link);
      }
      writeColumn(ns, group(meta.top), `${meta.top}_weight`, data.weights);
      for (const [name, col] of Object.entries(data.columns)) {
        if (name === `${meta.top}_weight` || !computed.has(name)) continue;
        if (isZero(col)) {
          zero.push(name);
          continue;
        }
        writeColumn(ns, group(meta.entities[name]), name, col as DatasetColumn);
      }
      f.create_attribute('fiscus_layout', 1);
      f.create_attribute('year', meta.year);
      const fromDataset = Object.keys(meta.entities).filter((n) => !computed.has(n));
      f.create_attribute('fiscus_output', JSON.stringify({ ...meta, zero, from_dataset: fromDataset }));
    });
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}

function isZero(col: ArrayLike<number>): boolean {
  for (let i = 0; i < col.length; i++) if (col[i] !== 0) return false;
  return true;
}

/**
 * A simulation's results: from memory when this process ran it, else from its output file. With
 * `pin`, in-memory columns stay valid until `unpin` (their buffers are otherwise reused once the
 * outcome leaves the cache).
 */
export async function loadOutcome(file: string, options: { pin?: boolean } = {}): Promise<OutcomeData> {
  const key = path.resolve(file);
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    // Pinned before any await, so no other simulation can take the buffers meanwhile.
    if (options.pin) hit.pins = (hit.pins ?? 0) + 1;
    return hit;
  }
  await appeared(file);
  const meta = await withFile(file, 'r', (f) => {
    const a = f.attrs.fiscus_output;
    if (!a) throw new Error(`${file} is not a simulation output (no fiscus_output attribute)`);
    return JSON.parse(String(a.value)) as OutputMeta;
  });
  const tables = await readDataset(file);
  const counts: Record<string, number> = {};
  for (const [e, t] of tables.tables) counts[e] = t.rows;
  const people = tables.tables.get(meta.person)!;
  const membership: Record<string, Int32Array> = {};
  for (const [e, t] of tables.tables) {
    if (e === meta.person) continue;
    const ids = t.columns.get(`${e}_id`)!;
    const index = new Map<number | string, number>();
    for (let r = 0; r < ids.length; r++) index.set(ids[r], r);
    const link = people.columns.get(`${meta.person}_${e}_id`)!;
    membership[e] = Int32Array.from({ length: link.length }, (_, p) => index.get(link[p])!);
  }
  const columns: Record<string, Column | Float64Array> = {};
  const absent = new Set(meta.from_dataset ?? []);
  for (const [name, entity] of Object.entries(meta.entities)) {
    if (absent.has(name)) continue;
    const col = tables.tables.get(entity)?.columns.get(name);
    columns[name] = col && !Array.isArray(col) ? col : new Float64Array(counts[entity]);
  }
  const weights = tables.tables.get(meta.top)!.columns.get(`${meta.top}_weight`) as Float64Array;
  const data: OutcomeData = { meta, counts, membership, weights, columns, pins: options.pin ? 1 : 0 };
  keepOutcome(file, data);
  return data;
}
