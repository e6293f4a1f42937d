/**
 * Derived parameters: series computed from other parameters (and shipped data tables) when the
 * tree is read, so a reform of a source flows through. Two kinds:
 *
 * - a formula evaluated for each year (`derived: {from, to, date, formula, initial?}`): an index
 *   averaged from a monthly series, a wage base grown with a wage index;
 * - a quantile of a data table by group (`derived: {table, value, by, year, quantile, ...}`), moved to
 *   later years by an index and held while a freeze switch is on: Local Housing Allowance rates from
 *   the rent officers' list of rents. It makes a node broken down by `metadata.breakdown`.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as zlib from 'zlib';
import { levelKeys, BreakdownValues } from './breakdown';
import { ParameterError, ParameterLeaf, ParameterNode, DatedValue, ValueAt } from './types';

export interface FormulaDerivation {
  kind: 'formula';
  from: number;
  to: number;
  /** Month-day each year's value starts. */
  date: string;
  formula: string;
  initial?: number;
}

export interface TableDerivation {
  kind: 'table';
  /** Absolute path of the CSV (optionally gzipped) file. */
  table: string;
  value: string;
  by: string[];
  year: string;
  quantile: string;
  index?: string;
  index_date: string;
  freeze?: string;
  from: number;
  to: number;
  date: string;
}

/** What a derived leaf knows: its derivation, and for table leaves the group keys it stands for. */
export type Derivation = FormulaDerivation | { kind: 'table'; spec: TableDerivation; keys: string[] };

/** What a derivation reads from its tree. */
export interface DerivationSource {
  at(path: string, instant: string): ValueAt;
}

export const derivedSchema = {
  oneOf: [
    {
      type: 'object',
      additionalProperties: false,
      required: ['from', 'to', 'formula'],
      properties: {
        from: { type: 'integer' },
        to: { type: 'integer' },
        date: { type: 'string', pattern: '^\\d{2}-\\d{2}$' },
        formula: { type: 'string' },
        initial: { type: 'number' },
      },
    },
    {
      type: 'object',
      additionalProperties: false,
      required: ['table', 'value', 'by', 'year', 'quantile', 'from', 'to'],
      properties: {
        table: { type: 'string' },
        value: { type: 'string' },
        by: { type: 'array', items: { type: 'string' }, minItems: 1 },
        year: { type: 'string' },
        quantile: { type: 'string' },
        index: { type: 'string' },
        index_date: { type: 'string', pattern: '^\\d{2}-\\d{2}$' },
        freeze: { type: 'string' },
        from: { type: 'integer' },
        to: { type: 'integer' },
        date: { type: 'string', pattern: '^\\d{2}-\\d{2}$' },
      },
    },
  ],
};

/** The country folder a parameter file belongs to: the nearest folder above it with a country.yaml. */
function countryFolder(file: string): string {
  for (let dir = path.dirname(file); ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'country.yaml'))) return dir;
    if (path.dirname(dir) === dir) return path.dirname(file);
  }
}

/** A file's `derived:` block as a derivation (schema-checked already). */
export function readDerivation(raw: Record<string, unknown>, file: string, where: string): FormulaDerivation | TableDerivation {
  const from = raw.from as number;
  const to = raw.to as number;
  if (to < from) throw new ParameterError(`${file}: ${where}.derived: to (${to}) is before from (${from})`, file, where);
  const date = (raw.date as string | undefined) ?? '01-01';
  if ('formula' in raw) return { kind: 'formula', from, to, date, formula: raw.formula as string, initial: raw.initial as number | undefined };
  const table = path.resolve(countryFolder(file), raw.table as string);
  if (!fs.existsSync(table)) throw new ParameterError(`${file}: ${where}.derived.table: ${raw.table} not found (looked for ${table})`, file, where);
  return {
    kind: 'table', table, from, to, date,
    value: raw.value as string, by: raw.by as string[], year: raw.year as string, quantile: raw.quantile as string,
    index: raw.index as string | undefined, index_date: (raw.index_date as string | undefined) ?? '01-01', freeze: raw.freeze as string | undefined,
  };
}

/**
 * A table derivation's node gets one leaf per combination of its breakdown's keys (the breakdown
 * names enum variables or lists, so the keys are known without reading the table).
 */
export function expandTableNode(node: ParameterNode, spec: TableDerivation, lookup: BreakdownValues | undefined): void {
  const breakdown = node.metadata.breakdown ?? [];
  if (breakdown.length !== spec.by.length) {
    throw new ParameterError(`${node.file}: ${node.path}: a derived table needs one breakdown level per "by" column (${spec.by.join(', ')})`, node.file, node.path);
  }
  const levels = breakdown.map((level) => {
    const keys = levelKeys(level, lookup, node.file, node.path);
    if (!keys) throw new ParameterError(`${node.file}: ${node.path}: breakdown ${JSON.stringify(level)} has no known values`, node.file, node.path);
    return keys;
  });
  const { breakdown: _omit, ...leafMeta } = node.metadata;
  const build = (at: ParameterNode, depth: number, keys: string[]) => {
    for (const key of levels[depth]) {
      const p = `${at.path}.${key}`;
      if (depth === levels.length - 1) {
        const leaf: ParameterLeaf = { kind: 'leaf', path: p, values: [], metadata: { ...leafMeta }, file: node.file, derived: { kind: 'table', spec, keys: [...keys, key] } };
        at.children[key] = leaf;
      } else {
        const child: ParameterNode = { kind: 'node', path: p, children: {}, metadata: {}, file: node.file };
        at.children[key] = child;
        build(child, depth + 1, [...keys, key]);
      }
    }
  };
  build(node, 0, []);
}

function num(v: ValueAt, what: string): number {
  if (typeof v === 'number') return v;
  if (typeof v === 'boolean') return v ? 1 : 0;
  throw new ParameterError(`derived parameter: ${what} is not a number`);
}

const instant = (y: number, mmdd: string) => `${String(y).padStart(4, '0')}-${mmdd}`;

// mathjs evaluates the yearly formulas; functions with raw arguments read parameter paths as text.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const mathjs = require('mathjs') as { parse(text: string): { compile(): { evaluate(scope: Map<string, unknown>): unknown } }; evaluate: unknown };

/** The series a formula derivation gives on a tree: one value per year, from..to. */
export function formulaSeries(spec: FormulaDerivation, src: DerivationSource, leaf: ParameterLeaf): DatedValue[] {
  // The parameter path a function reads comes first: quoted, so it reaches the function as text.
  const text = spec.formula.replace(/\b(p|mean_months)\(\s*([A-Za-z_][A-Za-z0-9_.[\]]*)\s*,/g, '$1("$2",');
  const code = mathjs.parse(text).compile();
  const date = (y: number, m: number, d: number) => `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
  const p = (target: string, y: number, m: number, d: number) => num(src.at(target, date(y, m, d)), `${target} at ${date(y, m, d)}`);
  const meanMonths = (target: string, y: number, m: number, count: number) => {
    let total = 0;
    for (let k = 0; k < count; k++) total += p(target, y + Math.floor((m - 1 + k) / 12), ((m - 1 + k) % 12) + 1, 1);
    return total / count;
  };
  const series: DatedValue[] = [];
  let previous = spec.initial;
  for (let year = spec.from; year <= spec.to; year++) {
    const scope = new Map<string, unknown>();
    scope.set('year', year);
    scope.set('previous', previous);
    scope.set('p', p);
    scope.set('mean_months', meanMonths);
    scope.set('round_down', (x: number, step: number) => Math.floor(x / step) * step);
    scope.set('round_up', (x: number, step: number) => Math.ceil(x / step) * step);
    let value: number;
    try {
      value = Number(code.evaluate(scope));
    } catch (err) {
      throw new ParameterError(`${leaf.file}: ${leaf.path}: derived formula for ${year}: ${(err as Error).message}`, leaf.file, leaf.path);
    }
    if (!Number.isFinite(value)) throw new ParameterError(`${leaf.file}: ${leaf.path}: derived formula gives ${value} for ${year}`, leaf.file, leaf.path);
    series.push({ start: instant(year, spec.date), value });
    previous = value;
  }
  return series;
}

/** A data table's values sorted ascending by group and year: read once per file. */
interface Table {
  groups: Map<string, Map<number, Float64Array>>;
  years: number[];
}
const tables = new Map<string, Table>();

function readTable(spec: TableDerivation): Table {
  const key = `${spec.table}|${spec.value}|${spec.by.join(',')}|${spec.year}`;
  const cached = tables.get(key);
  if (cached) return cached;
  const bytes = fs.readFileSync(spec.table);
  const text = spec.table.endsWith('.gz') ? zlib.gunzipSync(bytes).toString('latin1') : bytes.toString('latin1');
  const headerEnd = text.indexOf('\n');
  const header = text.slice(0, headerEnd).replace(/\r$/, '').split(',');
  const col = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new ParameterError(`${spec.table}: no column "${name}" (columns: ${header.join(', ')})`);
    return i;
  };
  const vi = col(spec.value);
  const yi = col(spec.year);
  const bi = spec.by.map(col);
  // One pass over the text without splitting it into lines or cells: only the value, the year and
  // the group columns are cut out, and a row of the same group as the previous one (the common case
  // in a sorted table) reuses its list. Rows of a group and year are sorted once at the end.
  const lists = new Map<string, number[]>();
  const years = new Set<number>();
  const starts = new Int32Array(header.length + 1);
  let lastKey = '';
  let last: number[] = [];
  let pos = headerEnd + 1;
  const n = text.length;
  while (pos < n) {
    let end = text.indexOf('\n', pos);
    if (end < 0) end = n;
    const lineEnd = end > pos && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (lineEnd > pos) {
      starts[0] = pos;
      let at = pos;
      for (let c = 1; c < header.length; c++) {
        const comma = text.indexOf(',', at);
        at = comma < 0 || comma > lineEnd ? lineEnd : comma + 1;
        starts[c] = at;
      }
      starts[header.length] = lineEnd + 1;
      const cell = (i: number) => text.slice(starts[i], starts[i + 1] - 1);
      let key = cell(yi);
      for (const i of bi) key += `|${cell(i)}`;
      if (key !== lastKey) {
        let list = lists.get(key);
        if (!list) {
          lists.set(key, (list = []));
          years.add(Number(cell(yi)));
        }
        last = list;
        lastKey = key;
      }
      last.push(+cell(vi));
    }
    pos = end + 1;
  }
  const groups = new Map<string, Map<number, Float64Array>>();
  for (const [key, list] of lists) {
    const cut = key.indexOf('|');
    const name = key.slice(cut + 1);
    let byYear = groups.get(name);
    if (!byYear) groups.set(name, (byYear = new Map()));
    byYear.set(Number(key.slice(0, cut)), Float64Array.from(list).sort());
  }
  const table = { groups, years: [...years].sort((a, b) => a - b) };
  tables.set(key, table);
  return table;
}

/** numpy/pandas' linear-interpolation quantile of sorted values, each first scaled and rounded to the cent. */
function quantileOf(sorted: Float64Array, q: number, factor: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  const at = (i: number) => (factor === 1 ? sorted[i] : Math.round(sorted[i] * factor * 100) / 100);
  const pos = (n - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.min(lo + 1, n - 1);
  return at(lo) + (pos - lo) * (at(hi) - at(lo));
}

/**
 * Which data year and factor each year of a table derivation reads: the year itself when the table
 * has it, else the latest data year moved by the index; while the freeze switch is on, the last year
 * before the freeze.
 */
function yearSources(spec: TableDerivation, table: Table, src: DerivationSource): { year: number; data: number; factor: number; quantile: number }[] {
  const latest = table.years[table.years.length - 1];
  const frozen = (y: number) => !!spec.freeze && !!src.at(spec.freeze, instant(y, spec.date));
  const out = [];
  for (let y = spec.from; y <= spec.to; y++) {
    // A freeze keeps the amounts last determined before it (the law's wording: the allowance
    // "determined ... on 31 January 2024" continues); at `from`, the first year's own value.
    let s = y;
    while (s > spec.from && frozen(s)) s--;
    const data = table.years.includes(s) ? s : latest;
    const factor = data === s || !spec.index ? 1 : num(src.at(spec.index, instant(s, spec.index_date)), spec.index) / num(src.at(spec.index, instant(data, spec.index_date)), spec.index);
    out.push({ year: y, data, factor, quantile: num(src.at(spec.quantile, instant(y, spec.date)), spec.quantile) });
  }
  return out;
}

/** The series of one group of a table derivation (0 where the table has no values for the group). */
export function tableSeries(spec: TableDerivation, keys: string[], src: DerivationSource, memo: Map<object, unknown>): DatedValue[] {
  const table = readTable(spec);
  let years = memo.get(spec) as ReturnType<typeof yearSources> | undefined;
  if (!years) memo.set(spec, (years = yearSources(spec, table, src)));
  const byYear = table.groups.get(keys.join('|'));
  return years.map((y) => {
    const sorted = byYear?.get(y.data);
    return { start: instant(y.year, spec.date), value: sorted ? quantileOf(sorted, y.quantile, y.factor) : 0 };
  });
}
