/**
 * A checked dataset turned into what simulations run on: persons ordered by household (the
 * outermost group), every group renumbered in order of first appearance so that the groups of a
 * range of households are a range of rows, and every input column in the model's representation.
 * Columns can be allocated in shared memory so worker threads read them without copies.
 */
import type { CountryModel } from '../../core/model';
import { checkWithLinks } from './check';
import { columnMismatch, ModelColumn, toModelColumn } from './columns';
import { isStructural, outermostEntity } from './link';
import { DatasetColumn, DatasetProblem, DatasetReadError, DatasetTables } from './types';

export interface MicrodataInput {
  name: string;
  entity: string;
  values: ModelColumn;
}

export interface Microdata {
  year: number | null;
  person: string;
  /** The outermost group (household): chunks are ranges of its rows. */
  top: string | null;
  counts: Record<string, number>;
  /** Person row -> group row, for each group entity. */
  membership: Record<string, Int32Array>;
  inputs: MicrodataInput[];
  /** The dataset's ids per entity, in the new row order (Int32Array when they fit). */
  ids: Record<string, Float64Array | Int32Array>;
  /** Weights of the outermost group. */
  weights: Float64Array;
  /** For each entity: the first row belonging to each top row (length: top rows + 1). */
  starts: Record<string, Int32Array>;
  warnings: DatasetProblem[];
}

export interface MicrodataOptions {
  /** Where columns live (default: ordinary memory; pass SharedArrayBuffer for worker threads). */
  alloc?: (bytes: number) => ArrayBufferLike;
  /** Keep only these rows of the outermost group's table (original order): a region filter. */
  keep?: (tables: DatasetTables, top: string) => Uint8Array;
}

export function toMicrodata(input: DatasetTables, model: CountryModel, options: MicrodataOptions = {}): Microdata {
  const { check, links: linked, tables } = checkWithLinks(input, model);
  if (check.errors.length || !linked) throw new DatasetReadError(`the dataset does not fit the ${model.country.id} model (${check.errors.length} problems)`, check.errors);
  const links = linked;
  const alloc = options.alloc ?? ((n: number) => new ArrayBuffer(n));
  const person = links.person;
  const top = outermostEntity(model);
  const groups = model.country.entities.filter((e) => !e.isPerson).map((e) => e.key);
  const keepTop = top && options.keep ? options.keep(tables, top) : null;
  const order = personOrder(links.membership, links.rows[person], top, groups.filter((g) => g !== top), keepTop);
  const n = order.length;

  // Renumber groups by first appearance in the new person order.
  const rowOrder: Record<string, Int32Array> = { [person]: order };
  const membership: Record<string, Int32Array> = {};
  for (const g of groups) {
    const old = links.membership[g];
    const map = new Int32Array(links.rows[g]).fill(-1);
    const m = new Int32Array(alloc(4 * n));
    const back: number[] = [];
    for (let p = 0; p < n; p++) {
      const o = old[order[p]];
      if (map[o] < 0) {
        map[o] = back.length;
        back.push(o);
      }
      m[p] = map[o];
    }
    membership[g] = m;
    rowOrder[g] = Int32Array.from(back);
  }
  const counts: Record<string, number> = {};
  for (const [e, o] of Object.entries(rowOrder)) counts[e] = o.length;

  const inputs: MicrodataInput[] = [];
  const ids: Record<string, Float64Array | Int32Array> = {};
  for (const e of model.country.entities) {
    const t = tables.tables.get(e.key)!;
    const perm = rowOrder[e.key];
    const identity = perm.length === t.rows && isIdentity(perm);
    for (const [name, col] of t.columns) {
      if (name === `${e.key}_id` && !Array.isArray(col)) ids[e.key] = idColumn(permute(col, perm, identity) as Float64Array | Int32Array | Uint8Array, alloc);
      if (isStructural(model, e.key, name)) continue;
      const spec = model.variables.get(name);
      if (!spec || spec.entity !== e.key || spec.type === 'string' || columnMismatch(spec, col)) continue;
      inputs.push({ name, entity: e.key, values: reusable(spec.type, col, identity) ?? toModelColumn(spec, permute(col, perm, identity), alloc) });
    }
  }
  const weightName = top ? `${top}_weight` : '';
  const w = inputs.find((i) => i.name === weightName)?.values;
  const weights = w instanceof Float64Array ? w : new Float64Array(top ? counts[top] : 0).fill(1);
  const starts = top ? rangeStarts(membership, top, counts, person, alloc) : {};
  return { year: tables.year, person, top, counts, membership, inputs, ids, weights, starts, warnings: check.warnings };
}

/**
 * Persons ordered by outermost group (stable), and within it by the rows of the other groups, so
 * that members of each group are consecutive where the groups nest (benefit units in households).
 */
function personOrder(m: Record<string, Int32Array>, persons: number, top: string | null, others: string[], keep: Uint8Array | null): Int32Array {
  if (!top) return Int32Array.from({ length: persons }, (_, i) => i);
  const t = m[top];
  let tops = 0;
  for (let p = 0; p < persons; p++) if (t[p] + 1 > tops) tops = t[p] + 1;
  const start = new Int32Array(tops + 1);
  for (let p = 0; p < persons; p++) if (!keep || keep[t[p]]) start[t[p] + 1]++;
  for (let h = 0; h < tops; h++) start[h + 1] += start[h];
  const order = new Int32Array(start[tops]);
  const fill = start.slice(0, tops);
  for (let p = 0; p < persons; p++) if (!keep || keep[t[p]]) order[fill[t[p]]++] = p;
  const cmp = (a: number, b: number) => {
    for (const g of others) if (m[g][a] !== m[g][b]) return m[g][a] - m[g][b];
    return a - b;
  };
  for (let h = 0; h < tops; h++) {
    // Households are small: insertion sort, which costs one comparison per person when sorted.
    for (let i = start[h] + 1; i < start[h + 1]; i++) {
      const x = order[i];
      let j = i - 1;
      while (j >= start[h] && cmp(order[j], x) > 0) {
        order[j + 1] = order[j];
        j--;
      }
      order[j + 1] = x;
    }
  }
  return order;
}

/** For each entity, the first row of each outermost-group row (groups are ranges after renumbering). */
function rangeStarts(membership: Record<string, Int32Array>, top: string, counts: Record<string, number>, person: string, alloc: (bytes: number) => ArrayBufferLike): Record<string, Int32Array> {
  const t = membership[top];
  const tops = counts[top];
  const starts: Record<string, Int32Array> = {};
  for (const e of [person, ...Object.keys(membership)]) {
    const s = new Int32Array(alloc(4 * (tops + 1)));
    s[tops] = counts[e];
    const m = e === person ? null : membership[e];
    for (let p = t.length - 1; p >= 0; p--) s[t[p]] = m ? m[p] : p;
    starts[e] = s;
  }
  return starts;
}

/**
 * A column read into shared memory in the model's own type and row order (our layout, written in
 * household order) is used as it is: no copy of a million rows.
 */
function reusable(type: string, col: DatasetColumn, identity: boolean): ModelColumn | null {
  if (!identity || Array.isArray(col) || !(col.buffer instanceof SharedArrayBuffer)) return null;
  if (type === 'float' && col instanceof Float64Array) return col;
  if (type === 'int' && col instanceof Int32Array) return col;
  if (type === 'bool' && col instanceof Uint8Array) return col;
  return null;
}

/** Ids as int32 when they all fit (ours and PolicyEngine's do), else as doubles; in `alloc`'s memory. */
function idColumn(col: Float64Array | Int32Array | Uint8Array, alloc: (bytes: number) => ArrayBufferLike): Float64Array | Int32Array {
  let fits = true;
  for (let i = 0; i < col.length && fits; i++) fits = Number.isInteger(col[i]) && col[i] >= -2147483648 && col[i] <= 2147483647;
  const out = fits ? new Int32Array(alloc(4 * col.length)) : new Float64Array(alloc(8 * col.length));
  out.set(col);
  return out;
}

function isIdentity(perm: Int32Array): boolean {
  for (let i = 0; i < perm.length; i++) if (perm[i] !== i) return false;
  return true;
}

function permute(col: DatasetColumn, perm: Int32Array, identity: boolean): DatasetColumn {
  if (identity) return col;
  if (Array.isArray(col)) return Array.from(perm, (i) => col[i]);
  const out = new (col.constructor as new (n: number) => Float64Array | Int32Array | Uint8Array)(perm.length);
  for (let i = 0; i < perm.length; i++) out[i] = col[perm[i]];
  return out;
}
