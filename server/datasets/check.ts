/**
 * Validation of a dataset against a country model (issue 12 item 5): entity tables present, ids
 * unique, every person in exactly one group of each kind, every column a known input variable of
 * the model with a compatible type, weights present and non-negative. Errors name the table, the
 * column and the first bad row; columns the model does not know are warnings (they are ignored).
 */
import type { CountryModel } from '../../core/model';
import type { VariableSpec } from '../../core/types';
import { columnMismatch } from './columns';
import { isStructural, linkTables, Links, outermostEntity } from './link';
import { resolveUnassigned } from './read';
import type { DatasetCheck, DatasetProblem, DatasetTables } from './types';

export function checkDataset(input: DatasetTables, model: CountryModel): DatasetCheck {
  return checkWithLinks(input, model).check;
}

/** The check, and the persons' links to their groups when the structure is sound (one pass for both). */
export function checkWithLinks(input: DatasetTables, model: CountryModel): { check: DatasetCheck; links: Links | null; tables: DatasetTables } {
  const tables = resolveUnassigned(input, model);
  const errors: DatasetProblem[] = [];
  const warnings: DatasetProblem[] = [];
  const counts: Record<string, number> = {};
  for (const [key, t] of tables.tables) {
    counts[key] = t.rows;
    if (!model.entities.has(key)) {
      const why = key.startsWith('?') ? `columns of ${t.rows} rows that match no variable of the model and more than one entity` : `${key} is not an entity of the ${model.country.id} model`;
      warnings.push({ table: key, message: `${why}: ignored (${[...t.columns.keys()].join(', ')})` });
    }
  }
  const links = linkTables(tables, model, errors);
  for (const e of model.country.entities) {
    const t = tables.tables.get(e.key);
    if (!t) continue;
    for (const [name, col] of t.columns) {
      if (isStructural(model, e.key, name)) continue;
      const spec = model.variables.get(name);
      if (!spec) {
        warnings.push({ table: e.key, column: name, message: `not a variable of the ${model.country.id} model: ignored` });
        continue;
      }
      if (spec.entity !== e.key) {
        warnings.push({ table: e.key, column: name, message: `${name} is a ${spec.entity} variable of the model, not a ${e.key} one: ignored` });
        continue;
      }
      const bad = columnMismatch(spec, col);
      if (bad) {
        errors.push({ table: e.key, column: name, row: bad.row, message: bad.message });
        continue;
      }
      if (isComputed(spec)) {
        warnings.push({ table: e.key, column: name, message: `${name} is computed by the model: the dataset's values replace the formula` });
      }
    }
  }
  const weighted = checkWeights(tables, model, errors);
  return { check: { errors, warnings, counts, weighted_households: weighted }, links, tables };
}

/**
 * True for variables the model computes. A formula that only carries the variable's own value
 * forward from last year (`last_year(x)`, PolicyEngine's way of ageing reported amounts) still
 * describes an input: a dataset giving it is expected.
 */
function isComputed(spec: VariableSpec): boolean {
  if (spec.adds !== undefined || spec.subtracts !== undefined) return true;
  if (spec.formula === undefined) return false;
  const forms = typeof spec.formula === 'string' ? [spec.formula] : Object.values(spec.formula);
  return forms.some((f) => f.replace(/\s+/g, '') !== `last_year(${spec.name})`);
}

/** Weights of the outermost group (`household_weight`): present, finite and non-negative. Returns their sum. */
function checkWeights(tables: DatasetTables, model: CountryModel, errors: DatasetProblem[]): number {
  const top = outermostEntity(model);
  if (!top) return 0;
  const t = tables.tables.get(top);
  if (!t) return 0;
  const name = `${top}_weight`;
  const w = t.columns.get(name);
  if (!w) {
    errors.push({ table: top, column: name, message: `the ${top} table has no ${name} column` });
    return 0;
  }
  if (Array.isArray(w)) return 0; // reported as a type error above
  let sum = 0;
  for (let r = 0; r < w.length; r++) {
    if (!(w[r] >= 0) || !Number.isFinite(w[r])) {
      errors.push({ table: top, column: name, row: r, message: `weights must be finite and non-negative: got ${w[r]}` });
      return 0;
    }
    sum += w[r];
  }
  return sum;
}
