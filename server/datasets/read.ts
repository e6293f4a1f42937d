/**
 * Reading microdata in any of the three layouts into tables per entity:
 * - `fiscus`: one group per entity, one 1-D dataset per column (root attribute `fiscus_layout`);
 * - `policyengine_tables`: a pandas HDFStore in PyTables "table" format, one key per entity,
 *   each a group holding a compound `table` dataset (one member per column, enums as byte strings),
 *   and a `time_period` (or `_time_period`) key holding the year;
 * - `policyengine_time_period_arrays`: one group per variable, one dataset per year inside it.
 *   The file does not say which entity a variable belongs to: ids (`<entity>_id`) and links
 *   (`person_<entity>_id`) give the entities and their sizes, other columns go to the entity of
 *   their length, or to the model's entity for the variable when a model is given; a column whose
 *   length fits several entities and which no model resolves stays in an `?<rows>` table, which
 *   `checkDataset` resolves with the model (or reports).
 */
import * as fs from 'fs';
import type { Dataset, Group } from 'h5wasm/node' with { 'resolution-mode': 'import' };
import type { CountryModel } from '../../core/model';
import { decodeScalars, H5T, readColumn, readRaw, releaseScratch, VALUES_ATTRIBUTE, withFile } from './h5';
import { textFromCodes } from './types';
import { DatasetColumn, DatasetReadError, DatasetTable, DatasetTables } from './types';

/** Reads raw dataset bytes into their targets, possibly on other threads (a file in our layout only). */
export type RawReader = (file: string, items: { path: string; target: Uint8Array }[]) => Promise<void>;

export interface ReadOptions {
  /**
   * Our layout's plain columns (numbers, booleans, codes) are read by this (another thread's share
   * in parallel) into shared memory; the file is only looked at here. Implies `shared`.
   */
  parallel?: RawReader;
  /** Numeric columns in SharedArrayBuffers (for worker threads), one buffer per table. */
  shared?: boolean;
  /** Time-period arrays holding several years: the year to read (default: the latest). */
  year?: number;
  /** Resolves the entity of time-period array columns whose length fits several entities. */
  model?: CountryModel;
}

export async function readDataset(file: string, options: ReadOptions = {}): Promise<DatasetTables> {
  if (!fs.existsSync(file)) throw new DatasetReadError(`${file}: no such file`);
  const head = Buffer.alloc(8);
  const fd = fs.openSync(file, 'r');
  try {
    fs.readSync(fd, head, 0, 8, 0);
  } finally {
    fs.closeSync(fd);
  }
  // HDF5 files start with this signature (at offset 0 for files written by h5py, pandas, h5wasm).
  if (head.toString('latin1') !== '\x89HDF\r\n\x1a\n') throw new DatasetReadError(`${file}: not an HDF5 file`);
  if (options.parallel) {
    const planned = await withFile(file, 'r', (f, ns) => {
      try {
        return 'fiscus_layout' in f.attrs ? planFiscus(f, ns) : null;
      } finally {
        releaseScratch(ns);
      }
    });
    if (planned) {
      await options.parallel(file, planned.items);
      return planned.finish();
    }
  }
  return withFile(file, 'r', (f, ns) => {
    const kids = f.keys().map((k) => [k, f.get(k)] as const);
    const isGroup = (e: unknown): e is Group => e instanceof ns.Group;
    const isDataset = (e: unknown): e is Dataset => e instanceof ns.Dataset;
    try {
      return readLayout(f, ns, kids, isGroup, isDataset, options);
    } finally {
      releaseScratch(ns);
    }
  });
}

/** Which layout the file has, from its shape; then read it. */
function readLayout(f: Group, ns: NS, kids: (readonly [string, unknown])[], isGroup: (e: unknown) => e is Group, isDataset: (e: unknown) => e is Dataset, options: ReadOptions): DatasetTables {
  if ('fiscus_layout' in f.attrs) return readFiscus(f, ns, isGroup, isDataset, options);
  const tableGroups = kids.filter(([, e]) => isGroup(e) && isDataset(e.get('table')));
  if (tableGroups.length > 0) return readPandasTables(kids.filter(([, e]) => isGroup(e)) as [string, Group][], ns, isDataset);
  const yearGroups = kids.filter(([, e]) => isGroup(e) && e.keys().some((k) => /^\d{4}$/.test(k)));
  if (yearGroups.length > 0) return readTimePeriodArrays(yearGroups as [string, Group][], ns, isDataset, options);
  if (kids.some(([, e]) => isGroup(e))) return readFiscus(f, ns, isGroup, isDataset, options);
  throw new DatasetReadError('no entity tables, PolicyEngine tables or time-period arrays found');
}

type NS = Parameters<Parameters<typeof withFile>[2]>[1];

function readFiscus(f: Group, ns: NS, isGroup: (e: unknown) => e is Group, isDataset: (e: unknown) => e is Dataset, options: ReadOptions): DatasetTables {
  const tables = new Map<string, DatasetTable>();
  for (const key of f.keys()) {
    const g = f.get(key);
    if (!isGroup(g)) continue;
    const columns = new Map<string, DatasetColumn>();
    const datasets = g.keys().map((name) => [name, g.get(name)] as const).filter((e): e is readonly [string, Dataset] => isDataset(e[1]));
    const alloc = arena(datasets.map(([, ds]) => ds.metadata.size * ds.metadata.total_size), options.shared === true);
    for (const [name, ds] of datasets) {
      const col = readColumn(ns, ds, alloc);
      if (!col) throw new DatasetReadError(`${key}/${name}: not a 1-D column of numbers, booleans or text`, [{ table: key, column: name, message: 'not a 1-D column of numbers, booleans or text' }]);
      columns.set(name, col);
    }
    tables.set(key, { entity: key, rows: rowsOf(key, columns), columns });
  }
  const yearAttr = 'year' in f.attrs ? Number(f.attrs.year.value) : NaN;
  return { layout: 'fiscus', year: Number.isFinite(yearAttr) && yearAttr > 0 ? yearAttr : null, tables };
}

/**
 * Our layout read in two steps: here the shapes, text values and odd columns; then the plain
 * columns' bytes by whoever `finish` is called after (into one shared buffer per table).
 */
function planFiscus(f: Group, ns: NS): { items: { path: string; target: Uint8Array }[]; finish: () => DatasetTables } {
  const items: { path: string; target: Uint8Array }[] = [];
  const builders: { table: string; name: string; build: () => DatasetColumn }[] = [];
  for (const key of f.keys()) {
    const g = f.get(key);
    if (!(g instanceof ns.Group)) continue;
    const datasets = g.keys().map((name) => [name, g.get(name)] as const).filter((e): e is readonly [string, Dataset] => e[1] instanceof ns.Dataset);
    const alloc = arena(datasets.map(([, ds]) => ds.metadata.size * ds.metadata.total_size), true);
    for (const [name, ds] of datasets) {
      const md = ds.metadata;
      const n = md.shape?.length === 1 ? md.shape[0] : -1;
      const plain = n >= 0 && ((md.type === H5T.FLOAT && md.size === 8 && md.littleEndian) || (md.type === H5T.INTEGER && md.size === 4 && md.signed && md.littleEndian) || (md.type === H5T.INTEGER && md.size === 1 && !md.signed));
      if (!plain) {
        const col = readColumn(ns, ds);
        if (!col) throw new DatasetReadError(`${key}/${name}: not a 1-D column of numbers, booleans or text`, [{ table: key, column: name, message: 'not a 1-D column of numbers, booleans or text' }]);
        builders.push({ table: key, name, build: () => col });
        continue;
      }
      const target = alloc(md.size * n);
      items.push({ path: ds.path, target });
      const values = VALUES_ATTRIBUTE in ds.attrs ? (JSON.parse(String(ds.attrs[VALUES_ATTRIBUTE].value)) as string[]) : null;
      const view = (): Float64Array | Int32Array | Uint8Array => (md.size === 8 ? new Float64Array(target.buffer, target.byteOffset, n) : md.size === 4 ? new Int32Array(target.buffer, target.byteOffset, n) : target);
      builders.push({ table: key, name, build: () => (values ? textFromCodes(view() as Int32Array | Uint8Array, values) : view()) });
    }
  }
  const yearAttr = 'year' in f.attrs ? Number(f.attrs.year.value) : NaN;
  const year = Number.isFinite(yearAttr) && yearAttr > 0 ? yearAttr : null;
  return {
    items,
    finish: () => {
      const tables = new Map<string, DatasetTable>();
      for (const b of builders) {
        if (!tables.has(b.table)) tables.set(b.table, { entity: b.table, rows: 0, columns: new Map() });
        tables.get(b.table)!.columns.set(b.name, b.build());
      }
      for (const [key, t] of tables) t.rows = rowsOf(key, t.columns);
      return { layout: 'fiscus', year, tables };
    },
  };
}

/**
 * One buffer for a table's columns (8-byte aligned slots), handed out in turn: one large
 * allocation instead of one per column keeps the garbage collector out of the way.
 */
function arena(sizes: number[], shared: boolean): (bytes: number) => Uint8Array {
  const total = sizes.reduce((a, n) => a + Math.ceil(n / 8) * 8, 0);
  const buffer = shared ? new SharedArrayBuffer(total) : new ArrayBuffer(total);
  let at = 0;
  return (bytes) => {
    const out = new Uint8Array(buffer, at, bytes);
    at += Math.ceil(bytes / 8) * 8;
    if (at > total) throw new Error('arena overflow');
    return out;
  };
}

/** Rows of a table: its id column's length, else its first column's. */
function rowsOf(entity: string, columns: Map<string, DatasetColumn>): number {
  const id = columns.get(`${entity}_id`);
  if (id) return id.length;
  const first = columns.values().next().value;
  return first ? first.length : 0;
}

interface CompoundMember {
  name: string;
  offset: number;
  type: number;
  size: number;
  signed: boolean;
  littleEndian: boolean;
  vlen: boolean;
  enum_type?: { type: number };
}

function readPandasTables(groups: [string, Group][], ns: NS, isDataset: (e: unknown) => e is Dataset): DatasetTables {
  const tables = new Map<string, DatasetTable>();
  let year: number | null = null;
  for (const [key, g] of groups) {
    const ds = g.get('table');
    if (!isDataset(ds)) continue;
    const md = ds.metadata;
    const members = (md.compound_type?.members ?? []) as unknown as CompoundMember[];
    if (!members.length) throw new DatasetReadError(`/${key}/table is not a compound dataset`, [{ table: key, message: 'the table dataset is not a compound type (a pandas "fixed" format store? save with format="table")' }]);
    const rows = md.shape?.[0] ?? 0;
    const raw = readRaw(ns, ds);
    const columns = new Map<string, DatasetColumn>();
    for (const m of members) {
      if (m.name === 'index') continue; // pandas' row index, not a variable
      const t = { ...m, base: m.type === H5T.ENUM ? { type: m.enum_type?.type ?? H5T.INTEGER, size: m.size, signed: m.signed, littleEndian: m.littleEndian, vlen: false } : undefined };
      const col = decodeScalars(raw, t, rows, m.offset, md.size);
      if (!col) throw new DatasetReadError(`/${key}/table: column ${m.name} has an unsupported type`, [{ table: key, column: m.name, message: `unsupported HDF5 type (class ${m.type}, ${m.size} bytes)` }]);
      columns.set(m.name, col);
    }
    if (key === 'time_period' || key === '_time_period') {
      const v = columns.get('values');
      const y = v && v.length ? Number(v[0]) : NaN;
      if (Number.isInteger(y)) year = y;
      continue;
    }
    tables.set(key, { entity: key, rows, columns });
  }
  return { layout: 'policyengine_tables', year, tables };
}

function readTimePeriodArrays(groups: [string, Group][], ns: NS, isDataset: (e: unknown) => e is Dataset, options: ReadOptions): DatasetTables {
  const years = new Set<number>();
  for (const [, g] of groups) for (const k of g.keys()) if (/^\d{4}$/.test(k)) years.add(Number(k));
  const year = options.year ?? Math.max(...years);
  if (!years.has(year)) throw new DatasetReadError(`no variable has values for ${year} (years: ${[...years].sort().join(', ')})`);
  const columns = new Map<string, DatasetColumn>();
  for (const [name, g] of groups) {
    const ds = g.get(String(year));
    if (!isDataset(ds)) continue;
    const col = readColumn(ns, ds);
    if (!col) throw new DatasetReadError(`${name}/${year}: not a 1-D column of numbers, booleans or text`, [{ table: '', column: name, message: 'not a 1-D column of numbers, booleans or text' }]);
    columns.set(name, col);
  }
  return { layout: 'policyengine_time_period_arrays', year, tables: assignColumns(columns, options.model) };
}

/** Group the columns of a time-period array file by entity (see the header comment). */
function assignColumns(columns: Map<string, DatasetColumn>, model?: CountryModel): Map<string, DatasetTable> {
  const size = new Map<string, number>();
  for (const [name, col] of columns) {
    const m = /^(.+)_id$/.exec(name);
    if (m && !name.startsWith('person_') ) size.set(m[1], col.length);
  }
  if (columns.has('person_id')) size.set('person', columns.get('person_id')!.length);
  const tables = new Map<string, DatasetTable>();
  const put = (entity: string, name: string, col: DatasetColumn) => {
    let t = tables.get(entity);
    if (!t) {
      t = { entity, rows: col.length, columns: new Map() };
      tables.set(entity, t);
    }
    t.columns.set(name, col);
  };
  for (const entity of size.keys()) tables.set(entity, { entity, rows: size.get(entity)!, columns: new Map() });
  for (const [name, col] of columns) {
    if (/^person_.+_id$/.test(name) || name === 'person_id') {
      put('person', name, col);
      continue;
    }
    const own = /^(.+)_id$/.exec(name);
    if (own && size.has(own[1])) {
      put(own[1], name, col);
      continue;
    }
    const byModel = model?.variables.get(name)?.entity;
    if (byModel && size.get(byModel) === col.length) {
      put(byModel, name, col);
      continue;
    }
    const fits = [...size].filter(([, n]) => n === col.length).map(([e]) => e);
    // PolicyEngine names many group variables after their entity (household_weight, spm_unit_assets).
    const named = fits.filter((e) => name.startsWith(`${e}_`));
    put(fits.length === 1 ? fits[0] : named.length === 1 ? named[0] : `?${col.length}`, name, col);
  }
  return tables;
}

/** Move the columns of `?<rows>` tables to their entity in `model`, where the lengths agree. */
export function resolveUnassigned(tables: DatasetTables, model: CountryModel): DatasetTables {
  const loose = [...tables.tables.keys()].filter((k) => k.startsWith('?'));
  if (!loose.length) return tables;
  const out = new Map(tables.tables);
  for (const k of loose) {
    const t = out.get(k)!;
    const left = new Map<string, DatasetColumn>();
    for (const [name, col] of t.columns) {
      const entity = model.variables.get(name)?.entity;
      const target = entity ? out.get(entity) : undefined;
      if (target && target.rows === col.length) {
        const columns = new Map(target.columns);
        columns.set(name, col);
        out.set(entity!, { ...target, columns });
      } else left.set(name, col);
    }
    if (left.size) out.set(k, { ...t, columns: left });
    else out.delete(k);
  }
  return { ...tables, tables: out };
}
