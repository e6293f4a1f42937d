import type { Column } from './types';

type Ctor = Float64ArrayConstructor | Int32ArrayConstructor | Uint8ArrayConstructor;
/** The column types, by name (as kernels and outputArrayType name them). */
export const COLUMN_TYPES: Record<string, Ctor> = { Float64Array, Int32Array, Uint8Array };

/**
 * Recycled column buffers. A request for n rows is served by any free buffer of the same type
 * with room for n (as a view of its first n rows), so chunks of slightly different sizes share
 * buffers. Only columns the engine allocated itself are ever given back.
 */
export class BufferPool {
  private readonly free = new Map<string, Column[]>();

  alloc(type: string, n: number): Column {
    const list = this.free.get(type);
    if (list) {
      for (let k = list.length - 1; k >= 0; k--) {
        const buf = list[k];
        if (buf.length >= n) {
          list.splice(k, 1);
          return buf.length === n ? buf : buf.subarray(0, n);
        }
      }
    }
    const C = COLUMN_TYPES[type];
    if (!C) throw new Error(`unknown column type ${type}`);
    return new C(n);
  }

  recycle(col: Column): void {
    const type = col.constructor.name;
    const C = COLUMN_TYPES[type];
    const buffer = col.buffer as ArrayBuffer;
    const whole = new C(buffer, 0, buffer.byteLength / C.BYTES_PER_ELEMENT) as Column;
    const list = this.free.get(type);
    if (list) list.push(whole);
    else this.free.set(type, [whole]);
  }
}
