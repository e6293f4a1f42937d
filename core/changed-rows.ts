import type { Kernel } from './compiler/variable';
import { BufferPool, copyColumn } from './buffer-pool';
import type { Blocks } from './blocks';
import { PopulationIndex } from './population-index';
import type { TableChange, Twin } from './twins';
import type { Column } from './types';

/**
 * Above this share of blocks to compute again, a kernel runs on every row: gathering the rows and
 * scattering the results back would cost more than the rows saved.
 */
const MAX_SHARE = 0.25;

/**
 * Buffers of the populations of a few blocks, kept apart from the chunks' pool: their sizes vary
 * from one set of blocks to the next, and in the chunks' pool a small request takes a chunk-sized
 * buffer, so the next chunk-sized request misses and allocates.
 */
const subPool = new BufferPool(true);

/**
 * Some blocks as a population of their own: each entity's rows in them, and their index. Rows and
 * membership arrays are built when first asked for: a kernel reads one or two groups' maps and the
 * rows of its columns' entities, not all of them.
 */
class SubPopulation {
  readonly index: PopulationIndex;
  private readonly rowsOf = new Map<string, Int32Array>();
  private readonly members = new Map<string, Int32Array>();

  constructor(
    /** The blocks it is made of. */
    readonly list: Int32Array,
    private readonly parent: PopulationIndex,
    private readonly blocks: Blocks,
  ) {
    const count: Record<string, number> = {};
    for (const [entity, start] of Object.entries(blocks.start)) {
      let n = 0;
      for (let q = 0; q < list.length; q++) n += start[list[q] + 1] - start[list[q]];
      count[entity] = n;
    }
    const membership: Record<string, Int32Array> = {};
    for (const g of Object.keys(parent.population.membership)) {
      Object.defineProperty(membership, g, { enumerable: true, get: () => this.membership(g) });
    }
    this.index = new PopulationIndex({ count, membership, ordered: true }, parent.personKey, subPool);
  }

  /** The rows of an entity in these blocks, in order. */
  rows(entity: string): Int32Array {
    let r = this.rowsOf.get(entity);
    if (!r) {
      const start = this.blocks.start[entity];
      const list = this.list;
      r = subPool.alloc('Int32Array', this.index.count(entity)) as Int32Array;
      for (let q = 0, w = 0; q < list.length; q++) for (let x = start[list[q]]; x < start[list[q] + 1]; x++) r[w++] = x;
      this.rowsOf.set(entity, r);
    }
    return r;
  }

  /**
   * A group's membership: a person's group renumbered as the position of its old row among the
   * groups kept, counted as persons move from one group to the next.
   */
  private membership(g: string): Int32Array {
    let local = this.members.get(g);
    if (!local) {
      const persons = this.rows(this.parent.personKey);
      const m = this.parent.population.membership[g];
      local = subPool.alloc('Int32Array', persons.length) as Int32Array;
      let next = -1;
      let last = -1;
      for (let q = 0; q < persons.length; q++) {
        const old = m[persons[q]];
        if (old !== last) {
          next++;
          last = old;
        }
        local[q] = next;
      }
      this.members.set(g, local);
    }
    return local;
  }

  release(): void {
    this.index.dispose();
    for (const a of [...this.members.values(), ...this.rowsOf.values()]) subPool.recycle(a);
  }
}

/**
 * Kernels whose twin (the same code, a month before) read columns that differ from their own only
 * on some rows, in one run of a plan over a population whose rows are ordered by group. Such a
 * kernel's column is its twin's, computed again on the blocks (households) where some column it
 * reads differs: those blocks become a population of their own (their rows gathered from each
 * column read), the kernel runs on it, and its results are written over a copy of the twin's
 * column. A state's rule that changes in July then costs that state's households, not every row.
 *
 * Which blocks two columns differ on, and the population of a set of blocks, are kept for the
 * run: the kernels of a month's chain compare the same columns and reach the same households.
 */
export class ChangedBlocks {
  private readonly diffs = new Map<string, Int32Array | null>();
  /** Columns computed here: the twin's slot and the blocks computed again (where alone they can differ from it). */
  private readonly computed = new Map<number, { twinSlot: number; list: Int32Array }>();
  /** By a hash of their blocks (lists with the same blocks are often distinct arrays). */
  private readonly subs = new Map<number, SubPopulation[]>();
  /** The same by list (most lists are reused: a column's blocks are read by each of its readers). */
  private readonly byList = new Map<Int32Array, SubPopulation>();
  private readonly blocks: Blocks | null;
  private readonly pool: BufferPool;

  constructor(private readonly index: PopulationIndex) {
    this.blocks = index.blocks();
    this.pool = index.pool;
  }

  /**
   * The kernel's column (the twin's own when it comes out the same), or null when it should run
   * on every row (no blocks, columns of other types than the twin's, too many blocks differing).
   * `changed` lists the columns read that may differ from the twin's: their position among the
   * kernel's columns and the two slots; the twin's tables that differ from the kernel's (if any)
   * are read at the keys of `cols`.
   */
  run(
    kernel: Kernel,
    cols: Column[],
    twinCols: Column[],
    twinOut: Column,
    changed: { k: number; slot: number; twinSlot: number }[],
    twin: Twin,
    /** The kernel's slot. */
    slot: number,
  ): { out: Column; same: boolean } | null {
    const blocks = this.blocks;
    const entities = twin.entities;
    // Every column read must be of an entity the blocks cover (each group has a membership).
    if (!blocks || !(kernel.entity in blocks.of) || entities.some((e) => !(e in blocks.of))) return null;
    const limit = MAX_SHARE * blocks.count;
    const lists: Int32Array[] = [];
    for (const c of changed) {
      const l = this.differing(c.slot, c.twinSlot, cols[c.k], twinCols[c.k], entities[c.k]);
      if (l === null) return null;
      if (l.length > 0 && !lists.includes(l)) lists.push(l);
    }
    for (const t of twin.tables ?? []) {
      const l = keyedBlocks(cols[t.k], t, blocks.of[entities[t.k]], limit);
      if (l === null) return null;
      if (l.length > 0) lists.push(l);
    }
    const list = lists.length === 1 ? lists[0] : union(lists);
    if (list.length > limit) return null;
    if (list.length === 0) return { out: twinOut, same: true };
    const sub = this.population(list);
    const subCols = cols.map((col, k) => gather(col, sub.rows(entities[k]), subPool));
    const result = kernel.run(subCols, sub.index);
    for (const c of subCols) subPool.recycle(c);
    const rows = sub.rows(kernel.entity);
    // A result equal to the twin's on these rows is the twin's column: no copy.
    const same = sameRows(result, twinOut, rows);
    let out = twinOut;
    if (!same) {
      out = copyColumn(this.pool, twinOut);
      for (let q = 0; q < rows.length; q++) out[rows[q]] = result[q];
      // Its readers compare it with the twin on these blocks only.
      this.computed.set(slot, { twinSlot: twin.slot, list });
    }
    subPool.recycle(result);
    return { out, same };
  }

  /** Give back every array kept for the run. */
  release(): void {
    for (const sub of [...this.subs.values()].flat()) sub.release();
    this.diffs.clear();
    this.computed.clear();
    this.subs.clear();
    this.byList.clear();
  }

  /** The blocks where two columns hold different bits (null: too many), once per pair of slots. */
  private differing(slot: number, twinSlot: number, a: Column, b: Column, entity: string): Int32Array | null {
    const computed = this.computed.get(slot);
    if (computed && computed.twinSlot === twinSlot) return computed.list;
    const key = `${slot}|${twinSlot}`;
    let result = this.diffs.get(key);
    if (result === undefined) {
      result = a.constructor === b.constructor && a.length === b.length ? differingBlocks(a, b, this.blocks!.of[entity], MAX_SHARE * this.blocks!.count) : null;
      this.diffs.set(key, result);
    }
    return result;
  }

  /** The population of some blocks, once per set of blocks in the run. */
  private population(list: Int32Array): SubPopulation {
    let sub = this.byList.get(list);
    if (!sub) {
      let h = list.length;
      for (let q = 0; q < list.length; q++) h = Math.imul(h ^ list[q], 0x9e3779b1);
      const same = this.subs.get(h) ?? [];
      sub = same.find((s) => s.list.length === list.length && s.list.every((b, q) => b === list[q]));
      if (!sub) {
        same.push((sub = new SubPopulation(list, this.index, this.blocks!)));
        this.subs.set(h, same);
      }
      this.byList.set(list, sub);
    }
    return sub;
  }
}

/**
 * The blocks (in order: rows of an ordered population come block by block) where two columns of
 * one type hold different bits, or null when there are more than `limit`. Float64 values are
 * compared as two words each: -0 differs from 0, a NaN equals itself.
 */
function differingBlocks(a: Column, b: Column, of: Int32Array, limit: number): Int32Array | null {
  const found: number[] = [];
  const mark = (r: number) => {
    if (found.length === 0 || found[found.length - 1] !== of[r]) found.push(of[r]);
  };
  if (a instanceof Float64Array) {
    const x = new Int32Array(a.buffer, a.byteOffset, a.length * 2);
    const y = new Int32Array(b.buffer, b.byteOffset, b.length * 2);
    for (let r = 0; r < a.length && found.length <= limit; r++) if (x[2 * r] !== y[2 * r] || x[2 * r + 1] !== y[2 * r + 1]) mark(r);
  } else {
    for (let r = 0; r < a.length && found.length <= limit; r++) if (a[r] !== b[r]) mark(r);
  }
  return found.length <= limit ? Int32Array.from(found) : null;
}

/** The blocks where a key column selects an entry its kernel's table and the twin's disagree on, or null when there are more than `limit`. */
function keyedBlocks(keys: Column, t: TableChange, of: Int32Array, limit: number): Int32Array | null {
  const differs = t.differs;
  const found: number[] = [];
  for (let r = 0; r < keys.length && found.length <= limit; r++) {
    if (differs[keys[r]] === 1 && (found.length === 0 || found[found.length - 1] !== of[r])) found.push(of[r]);
  }
  return found.length <= limit ? Int32Array.from(found) : null;
}

/** The blocks of several ordered lists, in order, each once (merged two at a time). */
function union(lists: Int32Array[]): Int32Array {
  let acc = lists[0] ?? new Int32Array(0);
  for (let l = 1; l < lists.length; l++) {
    const a = acc;
    const b = lists[l];
    const out = new Int32Array(a.length + b.length);
    let i = 0;
    let j = 0;
    let w = 0;
    while (i < a.length || j < b.length) {
      const v = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
      if (i < a.length && a[i] === v) i++;
      if (j < b.length && b[j] === v) j++;
      out[w++] = v;
    }
    acc = out.subarray(0, w);
  }
  return acc;
}

/**
 * Whether a sub-population's column holds the same bits as a column of the whole population at
 * the sub-population's rows (`rows[q]` for its row q; a NaN equals itself, -0 differs from 0).
 */
function sameRows(sub: Column, whole: Column, rows: Int32Array): boolean {
  for (let q = 0; q < rows.length; q++) {
    const x = sub[q];
    const y = whole[rows[q]];
    if (x !== y ? x === x || y === y : x === 0 && 1 / x !== 1 / y) return false;
  }
  return true;
}

/** The rows `rows` of a column, in order, in a buffer from `pool`. */
function gather(col: Column, rows: Int32Array, pool: BufferPool): Column {
  const out = pool.alloc(col.constructor.name, rows.length) as Column;
  for (let q = 0; q < rows.length; q++) out[q] = col[rows[q]];
  return out;
}
