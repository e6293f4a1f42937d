/** Small datasets for the simulation tests, and where the shared PolicyEngine samples are. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { DatasetColumn, DatasetTables } from '../../server/datasets/types';

export const FLATLAND = path.resolve(__dirname, '../../../test/simulation/fixtures/flatland');
export const UK_MODEL = path.resolve(__dirname, '../../../countries/uk');
export const US_MODEL = path.resolve(__dirname, '../../../countries/us');
/** PolicyEngine's sample files (see its README); tests needing them skip when it is absent. */
export const SHARED_DATASETS = path.resolve(__dirname, '../../../../shared/datasets');

export function tempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `fiscus-${label}-`));
}

export interface FlatPerson {
  household: number;
  family: number;
  age: number;
  earnings: number;
}

/**
 * A Flatland dataset: people with their household and family ids (any order), and a weight and
 * region per household id.
 */
export function flatland(people: FlatPerson[], households: { id: number; weight: number; region: string }[]): DatasetTables {
  const families = [...new Set(people.map((p) => p.family))];
  const person = new Map<string, DatasetColumn>([
    ['person_id', Int32Array.from(people, (_, i) => 100 + i)],
    ['person_household_id', Int32Array.from(people, (p) => p.household)],
    ['person_family_id', Int32Array.from(people, (p) => p.family)],
    ['age', Int32Array.from(people, (p) => p.age)],
    ['employment_income', Float64Array.from(people, (p) => p.earnings)],
  ]);
  const household = new Map<string, DatasetColumn>([
    ['household_id', Int32Array.from(households, (h) => h.id)],
    ['household_weight', Float64Array.from(households, (h) => h.weight)],
    ['region', households.map((h) => h.region)],
  ]);
  return {
    layout: 'fiscus',
    year: 2025,
    tables: new Map([
      ['person', { entity: 'person', rows: people.length, columns: person }],
      ['family', { entity: 'family', rows: families.length, columns: new Map([['family_id', Int32Array.from(families)]]) }],
      ['household', { entity: 'household', rows: households.length, columns: household }],
    ]),
  };
}

/** A copy of a dataset with one column replaced (or added). */
export function withColumn(t: DatasetTables, table: string, name: string, col: DatasetColumn | null): DatasetTables {
  const tables = new Map(t.tables);
  const old = tables.get(table)!;
  const columns = new Map(old.columns);
  if (col) columns.set(name, col);
  else columns.delete(name);
  tables.set(table, { ...old, columns });
  return { ...t, tables };
}
