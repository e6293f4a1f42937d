import type { PopulationView } from './compiler/builder';
import { BufferPool } from './buffer-pool';
import { Column, EngineError, Population } from './types';
import { Blocks, computeBlocks } from './blocks';

const orderedCache = new WeakMap<Population, boolean>();

/**
 * Whether every membership array runs 0, 0, 1, 1, 1, 2, ...: each group's members are consecutive
 * rows and groups come in order (microdata sorted by household). Cached per population.
 */
export function isOrdered(pop: Population): boolean {
  if (pop.ordered !== undefined) return pop.ordered;
  let known = orderedCache.get(pop);
  if (known === undefined) {
    known = true;
    for (const m of Object.values(pop.membership)) {
      if (m.length > 0 && m[0] !== 0) known = false;
      for (let i = 1; known && i < m.length; i++) if (m[i] !== m[i - 1] && m[i] !== m[i - 1] + 1) known = false;
    }
    orderedCache.set(pop, known);
  }
  return known;
}

/** Maps between entities of one population, built on demand and kept for the simulation's life. */
export class PopulationIndex implements PopulationView {
  private readonly maps = new Map<string, Map<string, Int32Array>>();
  private readonly firsts = new Map<string, Int32Array>();
  /** Row lists by mask column, then by maps and size (rowsWhere). */
  private readonly rowLists = new Map<Column, Map<string, Int32Array>>();
  private readonly mapIds = new WeakMap<Int32Array, number>();
  /** By map, the first row of each group it maps to (an ordered population's; see starts). */
  private readonly runStarts = new Map<Int32Array, Int32Array>();
  private mapCount = 0;
  private blockCache: Blocks | null | undefined;

  constructor(
    readonly population: Population,
    readonly personKey: string,
    /** Shared between simulations of one run (chunks) so buffers are reused across them. */
    readonly pool: BufferPool = new BufferPool(),
  ) {}

  count(entity: string): number {
    const n = this.population.count[entity];
    if (n === undefined) throw new EngineError(`the population has no entity "${entity}"`);
    return n;
  }

  ordered(): boolean {
    return isOrdered(this.population);
  }

  alloc(type: string, n: number): Column {
    return this.pool.alloc(type, n);
  }

  /** Give a column back for reuse; the caller must hold no other reference to it. */
  recycle(col: Column): void {
    const lists = this.rowLists.get(col);
    if (lists) {
      this.rowLists.delete(col);
      for (const rows of lists.values()) this.pool.recycle(rows);
    }
    this.pool.recycle(col);
  }

  /**
   * Give this index's own arrays (maps between groups, first members, row lists) back to the pool:
   * the index is not used again (a chunk's index at the end of the chunk).
   */
  dispose(): void {
    for (const byTo of this.maps.values()) for (const m of byTo.values()) this.pool.recycle(m);
    for (const f of this.firsts.values()) this.pool.recycle(f);
    for (const lists of this.rowLists.values()) for (const rows of lists.values()) this.pool.recycle(rows);
    for (const starts of this.runStarts.values()) this.pool.recycle(starts);
    this.maps.clear();
    this.runStarts.clear();
    this.firsts.clear();
    this.rowLists.clear();
    if (this.blockCache) for (const arrays of [this.blockCache.of, this.blockCache.start]) for (const a of Object.values(arrays)) this.pool.recycle(a);
    this.blockCache = undefined;
  }

  /** The population's blocks (core/blocks.ts); null when its rows are not ordered by group. */
  blocks(): Blocks | null {
    if (this.blockCache === undefined) this.blockCache = this.ordered() ? computeBlocks(this.population, this.personKey, this.pool) : null;
    return this.blockCache;
  }

  rowsWhere(mask: Column, maps: Int32Array[], n: number): Int32Array {
    let byMaps = this.rowLists.get(mask);
    if (!byMaps) this.rowLists.set(mask, (byMaps = new Map()));
    const key = `${n}|${maps.map((m) => this.mapId(m)).join(',')}`;
    let rows = byMaps.get(key);
    if (!rows) {
      const alloc = (size: number) => this.pool.alloc('Int32Array', size) as Int32Array;
      const starts = maps.length === 1 && mask instanceof Uint8Array ? this.starts(maps[0], mask.length, n) : null;
      rows = starts ? selectRuns(mask as Uint8Array, starts, n, alloc) : selectRows(mask, maps, n, alloc);
      byMaps.set(key, rows);
    }
    return rows;
  }

  /**
   * The first of the `n` rows that `m` maps to each of `groups` groups, and the end (`n`), when the
   * population is ordered by group: every map between its entities then never decreases, and a
   * group's rows are one run.
   */
  private starts(m: Int32Array, groups: number, n: number): Int32Array | null {
    if (!this.ordered()) return null;
    let starts = this.runStarts.get(m);
    if (!starts) {
      starts = (this.pool.alloc('Int32Array', groups + 1) as Int32Array).fill(-1);
      // Backwards, a store per row and no branch: the last store to a group is its first row.
      for (let j = n - 1; j >= 0; j--) starts[m[j]] = j;
      starts[groups] = n;
      for (let g = groups - 1; g >= 0; g--) if (starts[g] < 0) starts[g] = starts[g + 1];
      this.runStarts.set(m, starts);
    }
    return starts;
  }

  private mapId(m: Int32Array): number {
    let id = this.mapIds.get(m);
    if (id === undefined) this.mapIds.set(m, (id = this.mapCount++));
    return id;
  }

  /** First member (lowest person row) of each instance of a group; -1 for an empty group. */
  firstMember(group: string): Int32Array {
    let f = this.firsts.get(group);
    if (!f) {
      const m = this.population.membership[group];
      f = (this.pool.alloc('Int32Array', this.count(group)) as Int32Array).fill(-1);
      for (let i = m.length - 1; i >= 0; i--) f[m[i]] = i;
      this.firsts.set(group, f);
    }
    return f;
  }

  map(from: string, to: string): Int32Array {
    if (from === this.personKey) {
      const m = this.population.membership[to];
      if (!m) throw new EngineError(`the population has no membership for "${to}"`);
      return m;
    }
    let byTo = this.maps.get(from);
    if (!byTo) this.maps.set(from, (byTo = new Map()));
    let out = byTo.get(to);
    if (!out) {
      const first = this.firstMember(from);
      const m = this.population.membership[to];
      out = this.pool.alloc('Int32Array', first.length) as Int32Array;
      for (let g = 0; g < first.length; g++) out[g] = first[g] >= 0 ? m[first[g]] : 0;
      byTo.set(to, out);
    }
    return out;
  }
}

/** Rows whose (mapped) mask holds, listed in one pass into a buffer of `n` rows from `alloc` (a view of its start). */
function selectRows(mask: Column, maps: Int32Array[], n: number, alloc: (n: number) => Int32Array): Int32Array {
  const out = alloc(n);
  let w: number;
  if (!(mask instanceof Uint8Array) || maps.length > 2) w = listTruthy(mask, maps, n, out);
  else if (maps.length === 0) w = listBool(mask, n, out);
  else if (maps.length === 1) w = listBoolThrough(mask, maps[0], n, out);
  else w = listBoolThrough2(mask, maps[0], maps[1], n, out);
  return w === n ? out : out.subarray(0, w);
}

/**
 * Rows of groups whose mask holds, the groups' rows being runs (`starts`, see PopulationIndex.starts):
 * a state's mask holds on few groups, and four groups at a time are skipped where it holds on none.
 */
function selectRuns(mask: Uint8Array, starts: Int32Array, n: number, alloc: (n: number) => Int32Array): Int32Array {
  const out = alloc(n);
  let w = 0;
  const words = wordsOf(mask);
  const emit = (g: number) => {
    for (let j = starts[g]; j < starts[g + 1]; j++) out[w++] = j;
  };
  for (let k = 0; k < words.length; k++) {
    if (words[k] === 0) continue;
    for (let g = 4 * k; g < 4 * k + 4; g++) if (mask[g] !== 0) emit(g);
  }
  for (let g = 4 * words.length; g < mask.length; g++) if (mask[g] !== 0) emit(g);
  return w === n ? out : out.subarray(0, w);
}

/** A byte mask read four bytes at a time (none when it is not aligned: every byte is then a tail byte). */
function wordsOf(mask: Uint8Array): Uint32Array {
  return mask.byteOffset % 4 === 0 ? new Uint32Array(mask.buffer, mask.byteOffset, mask.length >> 2) : new Uint32Array(0);
}

// A boolean mask of the rows themselves (an eligibility flag, true on about half the rows) is
// listed without a branch per row, which would mispredict every other row; a mask read through a
// map (a state, the same for a group's consecutive rows) branches well. One function per shape,
// so each loop stays monomorphic.
function listBool(mask: Uint8Array, n: number, out: Int32Array): number {
  let w = 0;
  // Four rows at a time are skipped where the mask holds on none (most masks hold on few rows).
  const words = wordsOf(mask.length === n ? mask : mask.subarray(0, n));
  for (let k = 0; k < words.length; k++) {
    if (words[k] === 0) continue;
    for (let j = 4 * k; j < 4 * k + 4; j++) {
      out[w] = j;
      w += +(mask[j] !== 0);
    }
  }
  for (let j = 4 * words.length; j < n; j++) {
    out[w] = j;
    w += +(mask[j] !== 0);
  }
  return w;
}

function listBoolThrough(mask: Uint8Array, m: Int32Array, n: number, out: Int32Array): number {
  let w = 0;
  for (let j = 0; j < n; j++) if (mask[m[j]] !== 0) out[w++] = j;
  return w;
}

function listBoolThrough2(mask: Uint8Array, m0: Int32Array, m1: Int32Array, n: number, out: Int32Array): number {
  let w = 0;
  for (let j = 0; j < n; j++) if (mask[m1[m0[j]]] !== 0) out[w++] = j;
  return w;
}

/** Other columns keep JavaScript's truthiness (NaN is false). */
function listTruthy(mask: Column, maps: Int32Array[], n: number, out: Int32Array): number {
  let w = 0;
  for (let j = 0; j < n; j++) {
    let k = j;
    for (const m of maps) k = m[k];
    if (mask[k]) out[w++] = j;
  }
  return w;
}

/**
 * One index kept for the life of the process. Compiled kernels are optimised for the hidden class
 * of PopulationIndex; a full garbage collection that finds no index alive (between two runs)
 * frees that class and deoptimises every kernel that checked it (about 330 in the US
 * household_net_income), and the next run pays for optimising them again.
 */
export const KEEP_INDEX_SHAPE = new PopulationIndex({ count: {}, membership: {} }, '');
