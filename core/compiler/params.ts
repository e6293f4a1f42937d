import type { NodeAt, ScaleAt, ValueAt } from '../../parameters/types';
import { CompileError, KernelBuilder } from './builder';
import { ConstIR, ParamIR, ParamDim, RowIR, literal } from './ir';
import { asBit } from './syntax';
import { strings } from '../strings';

function isNode(v: ValueAt): v is NodeAt {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as NodeAt).kind === 'node';
}
function isScale(v: ValueAt): v is ScaleAt {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as ScaleAt).kind === 'scale';
}

function describe(v: ValueAt, path: string): string {
  if (v === null || v === undefined) return `parameter ${path} has no value at this date`;
  if (isNode(v)) return `parameter ${path} is a node (keys: ${Object.keys(v.children).slice(0, 12).join(', ')}): index it with a key or a breakdown variable`;
  if (isScale(v)) return `parameter ${path} is a scale: use marginal(${path}, x), lookup(${path}, x) or a bracket like ${path}[0].rate`;
  if (Array.isArray(v)) return `parameter ${path} is a list`;
  return `parameter ${path} is ${typeof v}`;
}

/** A scale's bracket k seen as a node with `threshold` and `rate`/`amount` children. */
function bracketNode(s: ScaleAt, k: number, path: string): NodeAt {
  if (!Number.isInteger(k) || k < 0 || k >= s.thresholds.length) {
    throw new CompileError(`parameter ${path} has no bracket ${k} (it has ${s.thresholds.length})`);
  }
  const valueKey = s.scaleKind === 'marginal_rate' || s.scaleKind === 'average_rate' ? 'rate' : 'amount';
  return { kind: 'node', children: { threshold: s.thresholds[k], [valueKey]: s.values[k] } };
}

function dimKeys(row: RowIR, first: ValueAt, path: string, b: KernelBuilder): { keys: string[]; code: string } {
  if (row.t === 'enum') return { keys: row.enumInfo!.values, code: row.code };
  if (row.t === 'str') {
    // Every key gets its string code now, so the table covers any text that can match a key.
    if (!isNode(first)) throw new CompileError(describe(first, path));
    const keys = Object.keys(first.children);
    const codes = keys.map((k) => strings.code(k));
    const table = new Int32Array(Math.max(...codes, 0) + 1).fill(-1);
    codes.forEach((c, i) => (table[c] = i));
    return { keys, code: `H.strIndex(${b.constant(table)}, ${row.code}, ${literal(path)})` };
  }
  if (row.t === 'bool') return { keys: ['false', 'true'], code: asBit(row.code) };
  if (!isNode(first)) throw new CompileError(describe(first, path));
  const nums = Object.keys(first.children).map(Number);
  if (nums.some((n) => !Number.isInteger(n))) {
    throw new CompileError(`parameter ${path} is indexed by a number but its keys are not integers (${Object.keys(first.children).join(', ')})`);
  }
  nums.sort((a, b) => a - b);
  nums.forEach((n, i) => {
    if (n !== nums[0] + i) throw new CompileError(`parameter ${path}: integer keys must be contiguous to be indexed by a number`);
  });
  return { keys: nums.map(String), code: `H.clampIndex(${row.code}, ${nums[0]}, ${nums.length})` };
}

/** Apply one index step (a fixed key or a per-row column) to a parameter. */
export function indexParam(ir: ParamIR, step: { key: string | number } | { row: RowIR }, b?: KernelBuilder): ParamIR {
  if ('key' in step) {
    const key = step.key;
    const path = typeof key === 'number' ? `${ir.path}[${key}]` : `${ir.path}.${key}`;
    const leaves = ir.leaves.map((leaf) => {
      if (isScale(leaf) && typeof key === 'number') return bracketNode(leaf, key, ir.path);
      if (!isNode(leaf)) throw new CompileError(describe(leaf, ir.path));
      const child = leaf.children[String(key)];
      if (child === undefined) {
        throw new CompileError(`parameter ${ir.path} has no key "${key}" (keys: ${Object.keys(leaf.children).slice(0, 20).join(', ')})`);
      }
      return child;
    });
    return { k: 'param', path, leaves, dims: ir.dims };
  }
  if (step.row.t === 'str' && !b) throw new Error('internal: string breakdowns need the kernel builder');
  const { keys, code } = dimKeys(step.row, ir.leaves[0], ir.path, b!);
  const by = step.row.enumInfo?.variable ?? step.row.code;
  const leaves: ValueAt[] = [];
  for (const leaf of ir.leaves) {
    if (!isNode(leaf)) throw new CompileError(describe(leaf, ir.path));
    for (const k of keys) {
      const child = leaf.children[k];
      if (child === undefined) throw new CompileError(`parameter ${ir.path} has no value for "${k}" (indexed by ${by})`);
      leaves.push(child);
    }
  }
  const dim: ParamDim = { code, entity: step.row.entity, size: keys.length };
  return { k: 'param', path: `${ir.path}[${by}]`, leaves, dims: [...ir.dims, dim] };
}

function flatIndex(dims: ParamDim[]): string {
  let code = `(${dims[0].code})`;
  for (let d = 1; d < dims.length; d++) code = `(${code} * ${dims[d].size} + (${dims[d].code}))`;
  return code;
}

/** A parameter used as a number or bool: a constant, or a table lookup by the breakdown columns. */
export function paramToValue(ir: ParamIR, b: KernelBuilder, entity: string): ConstIR | RowIR {
  for (const leaf of ir.leaves) {
    if (typeof leaf !== 'number' && typeof leaf !== 'boolean' && typeof leaf !== 'string') throw new CompileError(describe(leaf, ir.path));
  }
  if (ir.dims.length === 0) return { k: 'const', v: ir.leaves[0] as number | boolean | string };
  if (ir.leaves.some((l) => typeof l === 'string')) {
    // Texts broken down by a column: a table of string codes.
    if (!ir.leaves.every((l) => typeof l === 'string')) throw new CompileError(`parameter ${ir.path} mixes texts and numbers`);
    const codes = Int32Array.from(ir.leaves as string[], (t) => strings.code(t));
    return { k: 'row', code: `${b.constant(codes)}[${flatIndex(ir.dims)}]`, entity, t: 'str' };
  }
  const bools = ir.leaves.every((l) => typeof l === 'boolean');
  const table = bools ? Uint8Array.from(ir.leaves as boolean[], (x) => (x ? 1 : 0)) : Float64Array.from(ir.leaves as number[]);
  return tableRow(b, table, flatIndex(ir.dims), entity, bools ? 'bool' : 'num');
}

/** A row reading `values` at the per-row position `index`. */
export function tableRow(b: KernelBuilder, values: ArrayLike<number | boolean>, index: string, entity: string, t: 'num' | 'bool'): RowIR {
  const code = `${b.constant(values)}[${index}]`;
  return { k: 'row', code, entity, t, table: { values, index, code } };
}

/** Threshold and value arrays of a scale parameter (one pair per breakdown combination). */
export function paramScales(ir: ParamIR, b: KernelBuilder, fn: string): { thresholds: string; values: string; index: string | null } {
  for (const leaf of ir.leaves) if (!isScale(leaf)) throw new CompileError(`${fn}(): ${describe(leaf, ir.path)}`);
  const scales = ir.leaves as ScaleAt[];
  const ts = scales.map((s) => Float64Array.from(s.thresholds));
  const vs = scales.map((s) => Float64Array.from(s.values));
  if (ir.dims.length === 0) return { thresholds: b.constant(ts[0]), values: b.constant(vs[0]), index: null };
  return { thresholds: b.constant(ts), values: b.constant(vs), index: flatIndex(ir.dims) };
}

/** threshold(scale, k) / rate(scale, k) / amount(scale, k). */
export function scaleBracketValue(ir: ParamIR, k: number, field: string, b: KernelBuilder, entity: string): ConstIR | RowIR {
  const leaves = ir.leaves.map((leaf) => {
    if (!isScale(leaf)) throw new CompileError(`${field}(): ${describe(leaf, ir.path)}`);
    const node = bracketNode(leaf, k, ir.path);
    const v = node.children[field];
    if (v === undefined) throw new CompileError(`${field}(): scale ${ir.path} brackets have no ${field}`);
    return v;
  });
  return paramToValue({ ...ir, path: `${ir.path}[${k}].${field}`, leaves }, b, entity);
}
