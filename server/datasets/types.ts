/**
 * Microdata as tables per entity, independent of the file layout it was read from. Every reader
 * returns this shape and the writer takes it; checking it against a country model and turning it
 * into a population are separate steps (check.ts, population.ts).
 */

/** Fiscus's own layout, PolicyEngine's pandas HDFStore tables, PolicyEngine's time-period arrays. */
export type DatasetLayout = 'fiscus' | 'policyengine_tables' | 'policyengine_time_period_arrays';

/** Numbers as Float64Array (Int32Array for integer columns), booleans as Uint8Array, text (enums) as strings. */
export type DatasetColumn = Float64Array | Int32Array | Uint8Array | string[];

/**
 * Text columns read from a file of few distinct values carry their codes (hidden under this
 * symbol), so checking and encoding them look at each distinct value once instead of every row.
 */
export const CODED = Symbol('coded text');
export interface CodedText {
  codes: Uint8Array | Int32Array;
  values: string[];
}

/** The codes behind a text column, when it was read as codes. */
export function codedText(col: DatasetColumn): CodedText | undefined {
  return Array.isArray(col) ? (col as unknown as { [CODED]?: CodedText })[CODED] : undefined;
}

/** Text from codes into its values, keeping the codes for later. */
export function textFromCodes(codes: Uint8Array | Int32Array, values: string[]): string[] {
  const out: string[] = new Array(codes.length);
  for (let i = 0; i < codes.length; i++) out[i] = values[codes[i]];
  Object.defineProperty(out, CODED, { value: { codes, values } satisfies CodedText });
  return out;
}

export interface DatasetTable {
  entity: string;
  rows: number;
  columns: Map<string, DatasetColumn>;
}

export interface DatasetTables {
  layout: DatasetLayout;
  /** The year the file holds (PolicyEngine files say it), or null. */
  year: number | null;
  /** By the model's entity key: person, benunit, household, tax_unit, ... */
  tables: Map<string, DatasetTable>;
}

export interface DatasetProblem {
  table: string;
  column?: string;
  /** First bad row (0-based) when the problem is about values. */
  row?: number;
  message: string;
}

export interface DatasetCheck {
  /** Any error: the dataset is refused (the API answers 422 listing them). */
  errors: DatasetProblem[];
  /** E.g. unknown columns: kept on the dataset record. */
  warnings: DatasetProblem[];
  /** Rows per entity. */
  counts: Record<string, number>;
  weighted_households: number;
}

/** A file that cannot be read as any supported layout (or is not HDF5 at all). */
export class DatasetReadError extends Error {
  constructor(message: string, readonly problems: DatasetProblem[] = [{ table: '', message }]) {
    super(message);
    this.name = 'DatasetReadError';
  }
}

/** One line per problem, for logs and the CLI. */
export function formatProblem(p: DatasetProblem): string {
  const where = [p.table, p.column].filter(Boolean).join('.');
  const row = p.row === undefined ? '' : ` (row ${p.row})`;
  return `${where || 'dataset'}${row}: ${p.message}`;
}
