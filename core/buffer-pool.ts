import type { Column } from './types';

type Ctor = Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;
/** The column types, by name (as kernels and outputArrayType name them). */
export const COLUMN_TYPES: Record<string, Ctor> = { Float64Array, Int32Array, Uint8Array };

/** A copy of a column in a buffer from `from` (a pool, a population). */
export function copyColumn(from: { alloc(type: string, n: number): Column }, col: Column): Column {
  const copy = from.alloc(col.constructor.name, col.length);
  copy.set(col as ArrayLike<number>);
  return copy;
}

/** A buffer the pool owns: the whole array, and the last view of its first rows handed out. */
interface Entry {
  whole: Column;
  view: Column;
}

/**
 * Recycled column buffers. A request for n rows is served by any free buffer of the same type
 * with room for n (as a view of its first n rows), so chunks of slightly different sizes share
 * buffers. Only columns the engine allocated itself are ever given back.
 *
 * A chunked run allocates and recycles tens of thousands of columns, mostly of the same few
 * sizes: each buffer keeps its last view, so a request of the same size creates no new array
 * object (and leaves nothing for the garbage collector).
 */
export class BufferPool {
  /** Free buffers by type, then by the length of their current view (the size last asked for). */
  private readonly free = new Map<string, Map<number, Entry[]>>();
  // Weak: a buffer handed out for good (an output) must not be kept alive by the pool.
  private readonly entries = new WeakMap<ArrayBufferLike, Entry>();

  /**
   * With `sizeClasses`, buffers are allocated a power of two long and filed by that length: a pool
   * of many small requests of scattered sizes (the populations of a few households) then finds a
   * buffer by one lookup instead of a scan of every free buffer.
   */
  constructor(private readonly sizeClasses = false) {}

  alloc(type: string, n: number): Column {
    if (this.sizeClasses) return this.allocClass(type, n);
    const bySize = this.free.get(type);
    if (bySize) {
      const same = bySize.get(n)?.pop();
      if (same) return same.view;
      for (const list of bySize.values()) {
        for (let k = list.length - 1; k >= 0; k--) {
          const e = list[k];
          if (e.whole.length >= n) {
            list.splice(k, 1);
            e.view = e.whole.length === n ? e.whole : e.whole.subarray(0, n);
            return e.view;
          }
        }
      }
    }
    const C = COLUMN_TYPES[type];
    if (!C) throw new Error(`unknown column type ${type}`);
    return new C(n);
  }

  private allocClass(type: string, n: number): Column {
    const size = n <= 16 ? 16 : 2 ** Math.ceil(Math.log2(n));
    const e = this.free.get(type)?.get(size)?.pop();
    if (e) {
      if (e.view.length !== n) e.view = e.whole.subarray(0, n);
      return e.view;
    }
    const C = COLUMN_TYPES[type];
    if (!C) throw new Error(`unknown column type ${type}`);
    return new C(size).subarray(0, n);
  }

  recycle(col: Column): void {
    let e = this.entries.get(col.buffer);
    if (!e) {
      const C = COLUMN_TYPES[col.constructor.name];
      const whole = col.byteOffset === 0 && col.byteLength === col.buffer.byteLength ? col : (new C(col.buffer as ArrayBuffer, 0, col.buffer.byteLength / C.BYTES_PER_ELEMENT) as Column);
      e = { whole, view: col.byteOffset === 0 ? col : whole };
      this.entries.set(col.buffer, e);
    }
    // A buffer this pool did not size is left to the collector: no request would ever find it.
    if (this.sizeClasses && (e.whole.length & (e.whole.length - 1)) !== 0) return;
    const type = e.whole.constructor.name;
    let bySize = this.free.get(type);
    if (!bySize) this.free.set(type, (bySize = new Map()));
    const key = this.sizeClasses ? e.whole.length : e.view.length;
    const list = bySize.get(key);
    if (list) list.push(e);
    else bySize.set(key, [e]);
  }
}
