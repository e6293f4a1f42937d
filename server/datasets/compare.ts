/**
 * Compare a model's household results on a dataset with reference values (PolicyEngine's, in a
 * CSV with one row per household in household_id order and one column per variable): how many
 * households agree within a tolerance, and the largest differences. Used to measure a country
 * model's fidelity on PolicyEngine's sample datasets.
 */
import * as fs from 'fs';
import type { CountryModel } from '../../core/model';
import { Simulation } from '../../core/simulation';
import { toMicrodata } from './microdata';
import type { DatasetTables } from './types';

export interface ColumnAgreement {
  variable: string;
  households: number;
  within: number;
  /** Household id, ours, theirs; largest absolute differences first. */
  worst: { id: number; ours: number; theirs: number }[];
}

export function readExpected(file: string): { columns: string[]; rows: number[][] } {
  const lines = fs.readFileSync(file, 'utf8').trim().split(/\r?\n/);
  const columns = lines[0].split(',').map((c) => c.trim());
  return { columns, rows: lines.slice(1).map((l) => l.split(',').map(Number)) };
}

export function compareHouseholds(tables: DatasetTables, model: CountryModel, year: number, expected: { columns: string[]; rows: number[][] }, tolerance = 1, show = 5): ColumnAgreement[] {
  const md = toMicrodata(tables, model);
  const top = md.top!;
  const sim = new Simulation(model, { count: md.counts, membership: md.membership });
  for (const i of md.inputs) sim.setInput(i.name, String(year), i.values);
  const variables = expected.columns.filter((c) => model.variables.has(c) && model.variable(c).entity === top);
  const out = sim.computeReleasing(variables, String(year));
  // Reference rows follow household_id order.
  const ids = md.ids[top];
  const order = Array.from(ids).map((id, row) => ({ id, row })).sort((a, b) => a.id - b.id);
  return variables.map((v) => {
    const col = out.get(v)!;
    const k = expected.columns.indexOf(v);
    const diffs = order.map(({ id, row }, i) => ({ id, ours: col[row], theirs: expected.rows[i]?.[k] ?? NaN }));
    const within = diffs.filter((d) => Math.abs(d.ours - d.theirs) <= tolerance).length;
    const worst = diffs.filter((d) => !(Math.abs(d.ours - d.theirs) <= tolerance)).sort((a, b) => Math.abs(b.ours - b.theirs) - Math.abs(a.ours - a.theirs)).slice(0, show);
    return { variable: v, households: diffs.length, within, worst };
  });
}
