import { startsBlock } from './blocks';
import { BufferPool } from './buffer-pool';
import type { CountryModel } from './model';
import { Column, Population } from './types';
import { isOrdered, PopulationIndex } from './population-index';
import { Plan, runPlan } from './plan';

interface Range {
  lo: number;
  hi: number;
}

/**
 * Row ranges of each chunk, for populations whose persons are ordered so every group's members
 * are contiguous and groups appear in order (each membership array is non-decreasing and starts
 * at 0). Null when the population is not ordered like that.
 */
export function chunkRanges(model: CountryModel, pop: Population, chunkPeople: number): Record<string, Range>[] | null {
  const person = model.personEntity().key;
  const n = pop.count[person];
  const groups = Object.keys(pop.membership);
  if (!isOrdered(pop)) return null;
  const ms = groups.map((g) => pop.membership[g]);
  // Cut only where every group changes instance, so no group straddles two chunks.
  const chunks: Record<string, Range>[] = [];
  let lo = 0;
  while (lo < n) {
    let hi = Math.min(n, lo + chunkPeople);
    while (hi < n && !startsBlock(ms, hi)) hi++;
    const c: Record<string, Range> = { [person]: { lo, hi } };
    for (const g of groups) c[g] = { lo: pop.membership[g][lo], hi: pop.membership[g][hi - 1] + 1 };
    chunks.push(c);
    lo = hi;
  }
  return chunks;
}

/**
 * Buffers of chunk columns, kept from one run to the next (a chunk's intermediates: tens of MB).
 * Fresh buffers on every run cost about 0.5 s of the US household_net_income on 1M people when
 * the run follows a full garbage collection (page faults on new memory), as a forced one before
 * each benchmark run, or an idle server's, does.
 */
const chunkPool = new BufferPool();

/**
 * Run a plan chunk by chunk: each chunk of households is a population of its own over row ranges
 * of the inputs (views, not copies), so the columns of every formula stay in cache and memory
 * holds one chunk's intermediates at a time. `inputs` are the whole population's columns of
 * `plan.inputs`. Results are the same as one run over the whole population.
 */
export function runPlanInChunks(plan: Plan, model: CountryModel, pop: Population, inputs: Column[], ranges: Record<string, Range>[]): Map<string, Column> {
  const entities = plan.inputs.map((i) => model.variable(i.name).entity);
  const person = model.personEntity().key;
  const pool = chunkPool;
  const out = new Map<string, Column>();
  for (const chunk of ranges) {
    const index = chunkIndex(pop, chunk, person, pool);
    const cols = runPlan(plan, index, inputs.map((col, k) => col.subarray(chunk[entities[k]].lo, chunk[entities[k]].hi)));
    for (const [name, col] of cols) {
      const entity = model.variable(name).entity;
      let full = out.get(name);
      if (!full) {
        full = new (col.constructor as new (n: number) => Column)(pop.count[entity]);
        out.set(name, full);
      }
      full.set(col, chunk[entity].lo);
      if (!inputs.some((c) => c.buffer === col.buffer)) pool.recycle(col);
    }
    releaseChunk(index, pool);
  }
  return out;
}

/** One chunk as a population of its own: its rows and groups numbered from 0, membership arrays from `pool`. */
export function chunkIndex(pop: Population, chunk: Record<string, Range>, person: string, pool: BufferPool): PopulationIndex {
  const count: Record<string, number> = {};
  const membership: Record<string, Int32Array> = {};
  for (const [entity, r] of Object.entries(chunk)) count[entity] = r.hi - r.lo;
  const p = chunk[person];
  for (const [g, m] of Object.entries(pop.membership)) {
    const base = chunk[g].lo;
    const local = pool.alloc('Int32Array', p.hi - p.lo) as Int32Array;
    for (let i = 0; i < local.length; i++) local[i] = m[p.lo + i] - base;
    membership[g] = local;
  }
  return new PopulationIndex({ count, membership, ordered: true }, person, pool);
}

/** Give a chunk's arrays (its index's maps and lists, its membership) back to `pool` after its last use. */
export function releaseChunk(index: PopulationIndex, pool: BufferPool): void {
  index.dispose();
  for (const m of Object.values(index.population.membership)) pool.recycle(m);
}
