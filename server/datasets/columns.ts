/**
 * Dataset columns as model columns: the type checks validation reports and the conversion the
 * simulation uses, in one place. Model columns are Float64Array (float), Int32Array (int),
 * Uint8Array (bool, and enum codes; Int32Array for enums of more than 255 values).
 */
import type { VariableSpec } from '../../core/types';
import { codedText, DatasetColumn } from './types';

export type ModelColumn = Float64Array | Int32Array | Uint8Array;

/** Where a column cannot be read as the variable's type: the first bad row and why. */
export interface ColumnMismatch {
  row?: number;
  message: string;
}

export function isText(col: DatasetColumn): col is string[] {
  return Array.isArray(col);
}

/**
 * Check that `col` can hold values of `spec`; null when it can. Enum columns must be text naming
 * one of the variable's values (PolicyEngine saves enums as their names); numbers must be finite.
 */
export function columnMismatch(spec: VariableSpec, col: DatasetColumn): ColumnMismatch | null {
  if (spec.type === 'enum') {
    if (!isText(col)) return { message: `${spec.name} is an enum of the model: expected text naming one of its values, got numbers` };
    const allowed = new Set(spec.possible_values);
    const coded = codedText(col);
    if (coded) {
      // Each distinct value once; the first row using a bad one.
      const bad = coded.values.findIndex((v) => !allowed.has(v));
      if (bad < 0) return null;
      const r = coded.codes.indexOf(bad);
      if (r >= 0) return { row: r, message: `${JSON.stringify(col[r])} is not a value of ${spec.name} (${spec.possible_values!.slice(0, 8).join(', ')}${spec.possible_values!.length > 8 ? ', …' : ''})` };
    }
    let last: string | undefined;
    for (let r = 0; r < col.length; r++) {
      if (col[r] === last) continue; // runs of one value are common (and cheap to skip)
      last = col[r];
      if (!allowed.has(col[r])) return { row: r, message: `${JSON.stringify(col[r])} is not a value of ${spec.name} (${spec.possible_values!.slice(0, 8).join(', ')}${spec.possible_values!.length > 8 ? ', …' : ''})` };
    }
    return null;
  }
  if (spec.type === 'string') return null;
  if (isText(col)) {
    const first = col.findIndex((v) => v.trim() === '' || !Number.isFinite(Number(v)));
    return { row: Math.max(0, first), message: `${spec.name} is a ${spec.type === 'bool' ? 'boolean' : 'number'}: the column holds text${first >= 0 ? ` (${JSON.stringify(col[first])})` : ''}` };
  }
  // Integer arrays hold finite integers; only their range matters for booleans.
  if (col instanceof Int32Array || col instanceof Uint8Array) {
    if (spec.type !== 'bool') return null;
    const r = firstOutside01(col);
    return r < 0 ? null : { row: r, message: `${spec.name} is a boolean: got ${col[r]}` };
  }
  const r = firstBad(col, spec.type);
  if (r < 0) return null;
  const v = col[r];
  if (!Number.isFinite(v)) return { row: r, message: `${spec.name}: ${v} is not a finite number` };
  if (spec.type === 'int') return { row: r, message: `${spec.name} is an integer: got ${v}` };
  return { row: r, message: `${spec.name} is a boolean: got ${v}` };
}

/** First row that is not finite (float), not an integer (int) or not 0/1 (bool); -1 if none. */
function firstBad(col: Float64Array, type: string): number {
  const n = col.length;
  if (type === 'int') {
    for (let r = 0; r < n; r++) if (!Number.isInteger(col[r])) return r;
  } else if (type === 'bool') {
    for (let r = 0; r < n; r++) if (col[r] !== 0 && col[r] !== 1) return r;
  } else {
    // x - x is 0 for finite numbers and NaN for NaN and the infinities.
    for (let r = 0; r < n; r++) if (col[r] - col[r] !== 0) return r;
  }
  return -1;
}

function firstOutside01(col: Int32Array | Uint8Array): number {
  for (let r = 0; r < col.length; r++) if (col[r] !== 0 && col[r] !== 1) return r;
  return -1;
}

/** The column in the model's representation (call after columnMismatch returned null). */
export function toModelColumn(spec: VariableSpec, col: DatasetColumn, alloc: (bytes: number) => ArrayBufferLike = (n) => new ArrayBuffer(n)): ModelColumn {
  const n = col.length;
  if (spec.type === 'enum') {
    const wide = spec.possible_values!.length > 255;
    const out = wide ? new Int32Array(alloc(4 * n)) : new Uint8Array(alloc(n));
    const codes = new Map(spec.possible_values!.map((v, i) => [v, i]));
    const coded = codedText(col);
    if (coded) {
      const map = Int32Array.from(coded.values, (v) => codes.get(v) ?? 0);
      for (let r = 0; r < n; r++) out[r] = map[coded.codes[r]];
      return out;
    }
    const text = col as string[];
    let last: string | undefined;
    let code = 0;
    for (let r = 0; r < n; r++) {
      if (text[r] !== last) {
        last = text[r];
        code = codes.get(last)!;
      }
      out[r] = code;
    }
    return out;
  }
  const out = spec.type === 'float' ? new Float64Array(alloc(8 * n)) : spec.type === 'int' ? new Int32Array(alloc(4 * n)) : new Uint8Array(alloc(n));
  out.set(col as Exclude<DatasetColumn, string[]>);
  return out;
}
