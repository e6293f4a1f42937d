import type { BufferPool } from './buffer-pool';
import type { Population } from './types';

/**
 * Blocks of an ordered population: the shortest runs of persons that no group straddles (in the
 * US and the UK, households), with the rows each entity has in each block. A kernel's value on a
 * row depends only on rows of the same block, unless it reads population statistics.
 */
export interface Blocks {
  count: number;
  /** Block of each row, by entity. */
  of: Record<string, Int32Array>;
  /** First row of each block, then the number of rows, by entity. */
  start: Record<string, Int32Array>;
}

/**
 * Whether a block starts at person `p` of an ordered population (`ms`: its membership arrays):
 * every group changes instance there, so no group straddles a cut at `p`.
 */
export function startsBlock(ms: readonly Int32Array[], p: number): boolean {
  // A loop, not ms.some(): this runs for every person of every chunk of every run.
  for (let k = 0; k < ms.length; k++) if (ms[k][p] === ms[k][p - 1]) return false;
  return true;
}

/** The blocks of an ordered population (null when a group count disagrees with the membership: a group without members). */
export function computeBlocks(pop: Population, person: string, pool: BufferPool): Blocks | null {
  const n = pop.count[person];
  const groups = Object.keys(pop.membership);
  const ms = groups.map((g) => pop.membership[g]);
  if (groups.some((g, k) => pop.count[g] !== (n > 0 ? ms[k][n - 1] + 1 : 0))) return null;
  const personOf = pool.alloc('Int32Array', n) as Int32Array;
  const personStart = pool.alloc('Int32Array', n + 1) as Int32Array;
  let b = -1;
  for (let p = 0; p < n; p++) {
    if (p === 0 || startsBlock(ms, p)) personStart[++b] = p;
    personOf[p] = b;
  }
  const count = b + 1;
  personStart[count] = n;
  const of: Record<string, Int32Array> = { [person]: personOf };
  const start: Record<string, Int32Array> = { [person]: personStart };
  groups.forEach((g, k) => {
    const m = ms[k];
    const gs = pool.alloc('Int32Array', count + 1) as Int32Array;
    const go = pool.alloc('Int32Array', pop.count[g]) as Int32Array;
    for (let q = 0; q < count; q++) gs[q] = m[personStart[q]];
    gs[count] = pop.count[g];
    for (let q = 0; q < count; q++) for (let r = gs[q]; r < gs[q + 1]; r++) go[r] = q;
    of[g] = go;
    start[g] = gs;
  });
  return { count, of, start };
}
