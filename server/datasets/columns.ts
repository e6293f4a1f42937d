/**
 * Dataset columns as model columns: the type checks validation reports and the conversion the
 * simulation uses, in one place. Model columns are Float64Array (float), Int32Array (int),
 * Uint8Array (bool, and enum codes; Int32Array for enums of more than 255 values).
 */
import type { VariableSpec } from '../../core/types';
import type { DatasetColumn } from './types';

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
    for (let r = 0; r < col.length; r++) {
      if (!allowed.has(col[r])) return { row: r, message: `${JSON.stringify(col[r])} is not a value of ${spec.name} (${spec.possible_values!.slice(0, 8).join(', ')}${spec.possible_values!.length > 8 ? ', …' : ''})` };
    }
    return null;
  }
  if (spec.type === 'string') return null;
  if (isText(col)) {
    const first = col.findIndex((v) => v.trim() === '' || !Number.isFinite(Number(v)));
    return { row: Math.max(0, first), message: `${spec.name} is a ${spec.type === 'bool' ? 'boolean' : 'number'}: the column holds text${first >= 0 ? ` (${JSON.stringify(col[first])})` : ''}` };
  }
  for (let r = 0; r < col.length; r++) {
    const v = col[r];
    if (!Number.isFinite(v)) return { row: r, message: `${spec.name}: ${v} is not a finite number` };
    if (spec.type === 'int' && !Number.isInteger(v)) return { row: r, message: `${spec.name} is an integer: got ${v}` };
    if (spec.type === 'bool' && v !== 0 && v !== 1) return { row: r, message: `${spec.name} is a boolean: got ${v}` };
  }
  return null;
}

/** The column in the model's representation (call after columnMismatch returned null). */
export function toModelColumn(spec: VariableSpec, col: DatasetColumn, alloc: (bytes: number) => ArrayBufferLike = (n) => new ArrayBuffer(n)): ModelColumn {
  const n = col.length;
  if (spec.type === 'enum') {
    const wide = spec.possible_values!.length > 255;
    const out = wide ? new Int32Array(alloc(4 * n)) : new Uint8Array(alloc(n));
    const codes = new Map(spec.possible_values!.map((v, i) => [v, i]));
    const text = col as string[];
    for (let r = 0; r < n; r++) out[r] = codes.get(text[r])!;
    return out;
  }
  const out = spec.type === 'float' ? new Float64Array(alloc(8 * n)) : spec.type === 'int' ? new Int32Array(alloc(4 * n)) : new Uint8Array(alloc(n));
  out.set(col as Exclude<DatasetColumn, string[]>);
  return out;
}
