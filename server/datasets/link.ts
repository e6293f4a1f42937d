/**
 * The structure of a dataset against a model: which person belongs to which row of each group
 * table, through `<entity>_id` columns and the person table's `person_<entity>_id` links (the
 * convention of PolicyEngine's datasets and ours). Shared by validation and by the simulation's
 * population builder, so both agree on what a valid dataset is.
 */
import type { CountryModel } from '../../core/model';
import type { DatasetColumn, DatasetProblem, DatasetTables } from './types';

export interface Links {
  person: string;
  /** Rows per entity table. */
  rows: Record<string, number>;
  /** For each group entity: person row -> group row. */
  membership: Record<string, Int32Array>;
}

/**
 * Link persons to groups. Appends errors (missing tables or ids, duplicate ids, dangling links,
 * empty groups, groups split across their containing group) and returns null when the structure
 * cannot be used.
 */
export function linkTables(tables: DatasetTables, model: CountryModel, errors: DatasetProblem[]): Links | null {
  const person = model.personEntity().key;
  const startErrors = errors.length;
  const rows: Record<string, number> = {};
  for (const e of model.country.entities) {
    const t = tables.tables.get(e.key);
    if (!t) {
      errors.push({ table: e.key, message: `the ${e.key} table is missing` });
      continue;
    }
    rows[e.key] = t.rows;
    for (const [name, col] of t.columns) {
      if (col.length !== t.rows) errors.push({ table: e.key, column: name, message: `has ${col.length} rows, the table has ${t.rows}` });
    }
  }
  if (errors.length > startErrors) return null;
  const people = tables.tables.get(person)!;
  const personIds = people.columns.get(`${person}_id`);
  if (personIds) indexIds(person, `${person}_id`, personIds, errors);
  const membership: Record<string, Int32Array> = {};
  for (const e of model.country.entities) {
    if (e.isPerson) continue;
    const table = tables.tables.get(e.key)!;
    const idName = `${e.key}_id`;
    const ids = table.columns.get(idName);
    const linkName = `${person}_${e.key}_id`;
    const link = people.columns.get(linkName);
    if (!ids) errors.push({ table: e.key, column: idName, message: `the ${e.key} table has no ${idName} column` });
    if (!link) errors.push({ table: person, column: linkName, message: `the ${person} table has no ${linkName} column linking each person to a ${e.key}` });
    if (!ids || !link) continue;
    const index = indexIds(e.key, idName, ids, errors);
    if (!index) continue;
    const m = index(link);
    const members = new Int32Array(table.rows);
    let bad = -1;
    for (let p = 0; p < m.length; p++) {
      const g = m[p];
      if (g < 0) {
        if (bad < 0) bad = p;
        continue;
      }
      members[g]++;
    }
    if (bad >= 0) {
      errors.push({ table: person, column: linkName, row: bad, message: `${linkName} ${String(link[bad])} matches no ${e.key} (${idName}): every person must be in exactly one ${e.key}` });
      continue;
    }
    const empty = members.indexOf(0);
    if (empty >= 0) {
      errors.push({ table: e.key, column: idName, row: empty, message: `${e.key} ${String(ids[empty])} has no members` });
      continue;
    }
    membership[e.key] = m;
  }
  if (errors.length > startErrors) return null;
  // A group nested in another (a benefit unit within a household) must not straddle two of them.
  for (const e of model.country.entities) {
    if (e.isPerson) continue;
    for (const outer of e.within) {
      const inner = membership[e.key];
      const out = membership[outer];
      if (!inner || !out) continue;
      const seen = new Int32Array(rows[e.key]).fill(-1);
      for (let p = 0; p < inner.length; p++) {
        const g = inner[p];
        if (seen[g] === -1) seen[g] = out[p];
        else if (seen[g] !== out[p]) {
          errors.push({ table: person, column: `${person}_${outer}_id`, row: p, message: `${e.key} row ${g} has members in two ${outer}s: a ${e.key} must lie within one ${outer}` });
          break;
        }
      }
    }
  }
  return errors.length > startErrors ? null : { person, rows, membership };
}

/** Maps link values to rows of the id column (-1: no such id). */
type IdIndex = (link: DatasetColumn) => Int32Array;

/**
 * Index an id column, or null (and an error) when it repeats a value. Integer ids in a compact
 * range (ours are 0..n-1, PolicyEngine's are small integers) are indexed by a table; others by a
 * Map. Microdata has millions of rows, so both paths avoid per-row allocation.
 */
function indexIds(table: string, column: string, ids: DatasetColumn, errors: DatasetProblem[]): IdIndex | null {
  const duplicate = (r: number) => {
    errors.push({ table, column, row: r, message: `duplicate id ${String(ids[r])}` });
    return null;
  };
  if (!Array.isArray(ids)) {
    let min = Infinity;
    let max = -Infinity;
    let integers = true;
    for (let r = 0; r < ids.length; r++) {
      const v = ids[r];
      if (!Number.isInteger(v)) integers = false;
      if (v < min) min = v;
      if (v > max) max = v;
    }
    if (integers && ids.length > 0 && max - min <= 8 * ids.length + 1024) {
      const slot = new Int32Array(max - min + 1).fill(-1);
      for (let r = 0; r < ids.length; r++) {
        const k = ids[r] - min;
        if (slot[k] >= 0) return duplicate(r);
        slot[k] = r;
      }
      return (link) => {
        const out = new Int32Array(link.length);
        for (let p = 0; p < link.length; p++) {
          const v = link[p] as number;
          const k = v - min;
          out[p] = Number.isInteger(v) && k >= 0 && k < slot.length ? slot[k] : -1;
        }
        return out;
      };
    }
  }
  const map = new Map<number | string, number>();
  for (let r = 0; r < ids.length; r++) {
    if (map.has(ids[r])) return duplicate(r);
    map.set(ids[r], r);
  }
  return (link) => Int32Array.from({ length: link.length }, (_, p) => map.get(link[p]) ?? -1);
}

/** Names of the structural columns (ids and links), which are not model variables. */
export function isStructural(model: CountryModel, table: string, column: string): boolean {
  if (column === `${table}_id`) return true;
  const person = model.personEntity().key;
  return table === person && column.startsWith(`${person}_`) && column.endsWith('_id') && model.entities.has(column.slice(person.length + 1, -3));
}

/**
 * The entity whose instances partition the population (every other group lies within it): the
 * unit of chunks and of weights. Null when no entity contains all the others.
 */
export function outermostEntity(model: CountryModel): string | null {
  const groups = model.country.entities.filter((e) => !e.isPerson);
  const top = groups.find((g) => groups.every((o) => o === g || o.within.includes(g.key)));
  return top ? top.key : null;
}
