/**
 * The few HDF5 operations datasets need, on top of h5wasm (an ES module, loaded once with a
 * dynamic import). Whole datasets are read and written through h5wasm's own low-level calls into
 * the WebAssembly heap, so numbers are copied once and text columns are decoded with a small
 * dictionary instead of one TextDecoder call per row (enum columns repeat a few values).
 */
import type { Dataset, File as H5File, Group } from 'h5wasm/node' with { 'resolution-mode': 'import' };
import { DatasetColumn, textFromCodes } from './types';

type H5Namespace = typeof import('h5wasm/node', { with: { 'resolution-mode': 'import' } });
let loading: Promise<H5Namespace> | undefined;

/** h5wasm, ready to use (the first call loads the WebAssembly module, about 70 ms). */
export function h5(): Promise<H5Namespace> {
  loading ??= (async () => {
    const ns = await import('h5wasm/node');
    await ns.ready;
    return ns;
  })();
  return loading;
}

/** HDF5 type classes (H5T_class_t). */
export const H5T = { INTEGER: 0, FLOAT: 1, STRING: 3, BITFIELD: 4, COMPOUND: 6, ENUM: 8 } as const;

export interface ScalarType {
  type: number;
  size: number;
  signed: boolean;
  littleEndian: boolean;
  vlen: boolean;
  /** Enum types: the base integer type. */
  base?: ScalarType;
}

/** Open a file, run `fn`, always close it. */
export async function withFile<T>(file: string, mode: 'r' | 'w', fn: (f: H5File, ns: H5Namespace) => T): Promise<T> {
  const ns = await h5();
  const f = new ns.File(file, mode);
  try {
    return fn(f, ns);
  } finally {
    f.close();
  }
}

/** The raw bytes of a whole dataset (a fresh copy, 8-byte aligned). */
export function readRaw(ns: H5Namespace, ds: Dataset): Uint8Array {
  const md = ds.metadata;
  const out = new Uint8Array(md.size * md.total_size);
  readInto(ns, ds, out);
  return out;
}

/**
 * Read a whole dataset's raw bytes into `target` (exactly its size). HDF5 can only write into the
 * WebAssembly heap, so the bytes pass through a scratch block there, kept between calls so that
 * reading many columns does not grow and shrink the heap each time.
 */
export function readInto(ns: H5Namespace, ds: Dataset, target: Uint8Array): void {
  const nbytes = target.length;
  if (nbytes === 0) return;
  const M = ns.Module;
  if (scratch.bytes < nbytes) {
    if (scratch.ptr) M._free(scratch.ptr);
    scratch.ptr = M._malloc(nbytes);
    scratch.bytes = scratch.ptr ? nbytes : 0;
    if (!scratch.ptr) throw new Error(`out of memory reading ${ds.path} (${nbytes} bytes)`);
  }
  if (M.get_dataset_data(ds.file_id, ds.path, null, null, null, BigInt(scratch.ptr)) < 0) throw new Error(`cannot read ${ds.path}`);
  target.set(M.HEAPU8.subarray(scratch.ptr, scratch.ptr + nbytes));
}

const scratch = { ptr: 0, bytes: 0 };

/** Give the scratch block back (after reading a file). */
export function releaseScratch(ns: H5Namespace): void {
  if (scratch.ptr) ns.Module._free(scratch.ptr);
  scratch.ptr = 0;
  scratch.bytes = 0;
}

/** Decode `rows` scalars of `t` found every `stride` bytes from `offset` in `bytes`. */
export function decodeScalars(bytes: Uint8Array, t: ScalarType, rows: number, offset: number, stride: number): DatasetColumn | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = t.littleEndian;
  if (t.type === H5T.FLOAT) {
    const out = new Float64Array(rows);
    if (t.size === 8) for (let i = 0, o = offset; i < rows; i++, o += stride) out[i] = view.getFloat64(o, le);
    else if (t.size === 4) for (let i = 0, o = offset; i < rows; i++, o += stride) out[i] = view.getFloat32(o, le);
    else return null;
    return out;
  }
  if (t.type === H5T.INTEGER) return decodeIntegers(view, t, rows, offset, stride);
  if (t.type === H5T.BITFIELD || (t.type === H5T.ENUM && t.base && t.base.size === 1)) {
    // numpy booleans: a one-byte bitfield (PyTables) or an enum FALSE/TRUE over int8 (h5py).
    if (t.size !== 1) return null;
    const out = new Uint8Array(rows);
    for (let i = 0, o = offset; i < rows; i++, o += stride) out[i] = bytes[o] ? 1 : 0;
    return out;
  }
  if (t.type === H5T.STRING && !t.vlen) return decodeFixedStrings(bytes, t.size, rows, offset, stride);
  return null;
}

/** Integers as Int32Array when every value fits, else Float64Array (exact to 2^53: PolicyEngine ids are int64). */
function decodeIntegers(view: DataView, t: ScalarType, rows: number, offset: number, stride: number): DatasetColumn | null {
  const le = t.littleEndian;
  const read: ((o: number) => number) | null =
    t.size === 8 ? (t.signed ? (o) => Number(view.getBigInt64(o, le)) : (o) => Number(view.getBigUint64(o, le)))
    : t.size === 4 ? (t.signed ? (o) => view.getInt32(o, le) : (o) => view.getUint32(o, le))
    : t.size === 2 ? (t.signed ? (o) => view.getInt16(o, le) : (o) => view.getUint16(o, le))
    : t.size === 1 ? (t.signed ? (o) => view.getInt8(o) : (o) => view.getUint8(o))
    : null;
  if (!read) return null;
  const wide = new Float64Array(rows);
  let fits = true;
  for (let i = 0, o = offset; i < rows; i++, o += stride) {
    const v = read(o);
    wide[i] = v;
    if (v > 2147483647 || v < -2147483648) fits = false;
  }
  return fits ? Int32Array.from(wide) : wide;
}

/**
 * Fixed-length byte strings (NUL- or space-padded). Each row's bytes are hashed and looked up in
 * a dictionary of the values seen so far, so a column of a few distinct values costs no string
 * allocation per row.
 */
export function decodeFixedStrings(bytes: Uint8Array, size: number, rows: number, offset: number, stride: number): string[] {
  const codes = new Int32Array(rows);
  const values: string[] = [];
  const seen = new Map<number, { bytes: Uint8Array; code: number }[]>();
  const decoder = new TextDecoder('utf-8');
  for (let i = 0, o = offset; i < rows; i++, o += stride) {
    let end = o;
    const stop = o + size;
    while (end < stop && bytes[end] !== 0) end++;
    while (end > o && bytes[end - 1] === 0x20) end--;
    let h = 2166136261;
    for (let k = o; k < end; k++) h = Math.imul(h ^ bytes[k], 16777619);
    h = (h ^ (end - o)) >>> 0;
    let bucket = seen.get(h);
    let hit = -1;
    if (bucket) {
      for (const e of bucket) {
        if (e.bytes.length !== end - o) continue;
        let same = true;
        for (let k = 0; k < e.bytes.length; k++) if (e.bytes[k] !== bytes[o + k]) { same = false; break; }
        if (same) { hit = e.code; break; }
      }
    } else {
      bucket = [];
      seen.set(h, bucket);
    }
    if (hit < 0) {
      const b = bytes.slice(o, end);
      hit = values.length;
      values.push(decoder.decode(b));
      bucket.push({ bytes: b, code: hit });
    }
    codes[i] = hit;
  }
  return textFromCodes(codes, values);
}

/** A 1-D dataset as a column (null when its type is not one a dataset column can have). */
export function readColumn(ns: H5Namespace, ds: Dataset, alloc?: (bytes: number) => Uint8Array): DatasetColumn | null {
  const md = ds.metadata;
  const shape = md.shape ?? [];
  if (shape.length !== 1) return null;
  const rows = shape[0];
  if (md.type === H5T.STRING && md.vlen) {
    const v = ds.value;
    return Array.isArray(v) ? (v as unknown[]).map((x) => String(x)) : null;
  }
  const t: ScalarType = { ...md };
  if (md.type === H5T.ENUM) t.base = { type: md.enum_type?.type ?? H5T.INTEGER, size: md.size, signed: md.signed, littleEndian: md.littleEndian, vlen: false };
  if (VALUES_ATTRIBUTE in ds.attrs) {
    const values = JSON.parse(String(ds.attrs[VALUES_ATTRIBUTE].value)) as string[];
    const raw = readRaw(ns, ds);
    return textFromCodes(md.size === 4 ? new Int32Array(raw.buffer, raw.byteOffset, rows) : raw, values);
  }
  // Our own layout's types need no decoding: views of the bytes read, where `alloc` says.
  const direct = (md.type === H5T.FLOAT && md.size === 8 && md.littleEndian) || (md.type === H5T.INTEGER && md.size === 4 && md.signed && md.littleEndian) || (md.type === H5T.INTEGER && md.size === 1 && !md.signed);
  if (direct) {
    const raw = alloc ? alloc(md.size * rows) : new Uint8Array(md.size * rows);
    readInto(ns, ds, raw);
    if (md.size === 8) return new Float64Array(raw.buffer, raw.byteOffset, rows);
    if (md.size === 4) return new Int32Array(raw.buffer, raw.byteOffset, rows);
    return raw;
  }
  return decodeScalars(readRaw(ns, ds), t, rows, 0, md.size);
}

/** Attribute naming the values of a text column stored as codes (Fiscus's layout). */
export const VALUES_ATTRIBUTE = 'fiscus_values';

/**
 * Write a column as a 1-D dataset: numbers as little-endian doubles or int32, booleans as uint8.
 * Text is stored as codes (uint8, or int32 beyond 256 distinct values) into the list of its
 * distinct values, kept as a JSON attribute: reading a million enum values back is then a copy,
 * not a million string decodings.
 */
export function writeColumn(ns: H5Namespace, group: Group, name: string, col: DatasetColumn): void {
  if (Array.isArray(col)) {
    const index = new Map<string, number>();
    const values: string[] = [];
    const codes = new Int32Array(col.length);
    let last: string | undefined;
    let code = -1;
    for (let i = 0; i < col.length; i++) {
      if (col[i] !== last) {
        last = col[i];
        code = index.get(last) ?? -1;
        if (code < 0) {
          code = values.length;
          values.push(last);
          index.set(last, code);
        }
      }
      codes[i] = code;
    }
    const ds = values.length <= 256 ? group.create_dataset({ name, data: Uint8Array.from(codes), dtype: '<B' }) : group.create_dataset({ name, data: codes, dtype: '<i' });
    ds.create_attribute(VALUES_ATTRIBUTE, JSON.stringify(values));
    return;
  }
  const dtype = col instanceof Float64Array ? '<d' : col instanceof Int32Array ? '<i' : '<B';
  group.create_dataset({ name, data: col, dtype });
}

/** Read whole datasets' raw bytes into their targets (a share of a file read by several threads). */
export async function readRawItems(file: string, items: { path: string; target: Uint8Array }[]): Promise<void> {
  if (!items.length) return;
  await withFile(file, 'r', (f, ns) => {
    try {
      for (const item of items) {
        const ds = f.get(item.path);
        if (!(ds instanceof ns.Dataset)) throw new Error(`${file}: ${item.path} is not a dataset`);
        readInto(ns, ds, item.target);
      }
    } finally {
      releaseScratch(ns);
    }
  });
}
