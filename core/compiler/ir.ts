import type { ValueAt } from '../../parameters/types';

/** Enum metadata carried by enum-valued expressions so names can be turned into codes. */
export interface EnumInfo {
  /** Variable that defines the enum (for messages). */
  variable: string;
  values: string[];
}

export type ScalarType = 'num' | 'bool' | 'enum' | 'str';

/** A compile-time constant (folded). */
export interface ConstIR {
  k: 'const';
  v: number | boolean | string;
}

/** A per-row value: `code` is a JS expression valid inside a loop over `entity` with index `idx`. */
export interface RowIR {
  k: 'row';
  code: string;
  entity: string;
  t: ScalarType;
  enumInfo?: EnumInfo;
  /** Set when `code` is exactly a constant table read at a per-row position (a parameter broken down by a column). */
  table?: TableRead;
  /** Bounds every row's value keeps (NaN aside), when known (`max(0, x)` is at least 0): `min(0, max(0, x))` folds to 0. */
  lo?: number;
  hi?: number;
}

/**
 * A constant table read at a per-row position. An operation between such reads at one position and
 * constants folds into another table, so a month's literal compared with a state's table leaves the
 * code of every month alike (the months then differ only where their tables do).
 */
export interface TableRead {
  values: ArrayLike<number | boolean>;
  index: string;
  code: string;
}

/** A parameter value that is not a scalar yet (a node, a scale, a list), possibly indexed by columns. */
export interface ParamIR {
  k: 'param';
  path: string;
  /** One leaf per combination of the dynamic dimensions (row-major), a single leaf when there are none. */
  leaves: ValueAt[];
  dims: ParamDim[];
}

export interface ParamDim {
  /** Row expression giving the position (0..size-1) in this dimension. */
  code: string;
  entity: string;
  size: number;
}

export type IR = ConstIR | RowIR | ParamIR;

export function isConst(ir: IR): ir is ConstIR {
  return ir.k === 'const';
}

/** The bounds a scalar keeps on every row (NaN aside), where known. */
export function bounds(ir: ConstIR | RowIR): Bounds {
  if (ir.k === 'row') return { lo: ir.lo, hi: ir.hi };
  const v = typeof ir.v === 'number' ? ir.v : typeof ir.v === 'boolean' ? Number(ir.v) : undefined;
  return { lo: v, hi: v };
}

export function literal(v: number | boolean | string): string {
  if (typeof v === 'string') return JSON.stringify(v);
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  return Object.is(v, -0) ? '-0' : String(v);
}

export function typeOfConst(v: number | boolean | string): ScalarType {
  return typeof v === 'number' ? 'num' : typeof v === 'boolean' ? 'bool' : 'str';
}

/** The typed array holding values of a type (enums with more than 255 values need 32 bits). */
export function arrayType(t: ScalarType, enumInfo?: EnumInfo): string {
  if (t === 'num') return 'Float64Array';
  if (t === 'bool') return 'Uint8Array';
  if (t === 'str') return 'Int32Array';
  return enumInfo && enumInfo.values.length > 255 ? 'Int32Array' : 'Uint8Array';
}

/** Bounds a value keeps on every row (NaN aside), where known. */
export type Bounds = { lo?: number; hi?: number };
export const neg = (x: number | undefined) => (x === undefined ? undefined : -x);
/** Bounds of a value that is one of two values. */
export function either(a: Bounds, b: Bounds): Bounds {
  return { lo: a.lo !== undefined && b.lo !== undefined ? Math.min(a.lo, b.lo) : undefined, hi: a.hi !== undefined && b.hi !== undefined ? Math.max(a.hi, b.hi) : undefined };
}
/** Bounds of a sum. */
export function sum(a: Bounds, b: Bounds): Bounds {
  return { lo: a.lo !== undefined && b.lo !== undefined ? a.lo + b.lo : undefined, hi: a.hi !== undefined && b.hi !== undefined ? a.hi + b.hi : undefined };
}
/** Bounds of a value times a constant. */
export function scaled(a: Bounds, k: number): Bounds {
  const lo = a.lo === undefined ? undefined : a.lo * k, hi = a.hi === undefined ? undefined : a.hi * k;
  return k >= 0 ? { lo, hi } : { lo: hi, hi: lo };
}
