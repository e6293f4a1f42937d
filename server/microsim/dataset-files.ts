/**
 * Registering a dataset file: its path inside the storage folder, reading and checking it with the
 * datasets module against its model version, and the row that records it. Used by POST /datasets,
 * the upload route and the default synthetic datasets.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { checkDataset, DatasetReadError, readDataset, type DatasetCheck, type DatasetProblem } from '../datasets';
import { ApiError, type ProblemDetail } from '../http/errors';
import { newId, now } from '../storage/ids';
import type { DatasetRow, ModelRow, VersionRow } from '../storage/rows';
import type { MicrosimContext } from './context';
import { sourceOf } from './model-folders';

/** A client's `filepath`, which must stay inside the storage folder (no absolute paths, no `..` out). */
export function storagePath(ctx: MicrosimContext, filepath: string): string {
  const root = path.resolve(ctx.storageDir);
  const full = path.resolve(root, filepath);
  if (path.isAbsolute(filepath) && !full.startsWith(root + path.sep)) throw invalid('filepath', `must be a path inside the storage folder (FISCUS_STORAGE), relative to it`);
  if (!full.startsWith(root + path.sep)) throw invalid('filepath', `"${filepath}" leads out of the storage folder`);
  if (!fs.existsSync(full) || !fs.statSync(full).isFile()) throw invalid('filepath', `no file "${filepath}" in the storage folder`);
  return full;
}

export interface Registration {
  name: string;
  description: string | null;
  /** Absolute path of the file, inside the storage folder. */
  file: string;
  year?: number;
  model: ModelRow;
  version: VersionRow;
  defaultFor?: string;
}

/** What reading and checking a file found (by this thread, or by the default datasets' thread). */
export interface FileCheck {
  layout: string;
  year: number | null;
  check: DatasetCheck;
}

/** Reads and checks the file; 422 naming every problem (table, column, first bad row); the row to store. */
export async function datasetRowFor(ctx: MicrosimContext, r: Registration): Promise<DatasetRow> {
  let tables;
  try {
    tables = await readDataset(r.file);
  } catch (error) {
    // The storage folder's own path is the server's business: messages name the file as the client did.
    const message = (error as Error).message.split(path.resolve(ctx.storageDir) + path.sep).join('');
    if (error instanceof DatasetReadError) throw new ApiError(422, `The file cannot be read as a dataset: ${message}`, error.problems.map(problemDetail));
    throw new ApiError(422, `The file cannot be read as a dataset: ${message}`, [{ path: 'filepath', message }]);
  }
  const model = ctx.registry.modelOf(r.model.country, await sourceOf(ctx, r.version));
  return datasetRowOf(ctx, r, { layout: tables.layout, year: tables.year, check: checkDataset(tables, model) });
}

/** The row of a checked file; 422 when the check found errors or no year is known. */
export function datasetRowOf(ctx: MicrosimContext, r: Registration, found: FileCheck): DatasetRow {
  const check = found.check;
  if (check.errors.length > 0) {
    const shown = check.errors.slice(0, 3).map(describeProblem).join('; ');
    throw new ApiError(422, `The dataset does not fit ${r.model.name} ${r.version.version}: ${shown}${check.errors.length > 3 ? ` (and ${check.errors.length - 3} more)` : ''}`, check.errors.map(problemDetail));
  }
  const year = r.year ?? found.year;
  if (year === null || year === undefined) throw invalid('year', 'is required: the file does not say which year it holds');
  const time = now();
  return {
    id: newId(),
    name: r.name,
    description: r.description,
    filepath: path.relative(ctx.storageDir, r.file).split(path.sep).join('/'),
    year,
    tax_benefit_model_id: r.model.id,
    tax_benefit_model_version_id: r.version.id,
    layout: found.layout,
    counts: JSON.stringify(check.counts),
    warnings: JSON.stringify(check.warnings),
    weighted_households: check.weighted_households,
    size_bytes: fs.statSync(r.file).size,
    default_for: r.defaultFor ?? null,
    created_at: time,
    updated_at: time,
  };
}

function problemDetail(p: DatasetProblem): ProblemDetail & { row?: number } {
  const detail: ProblemDetail & { row?: number } = { path: [p.table, p.column].filter((x) => x !== undefined && x !== '').join('/') || '(file)', message: p.message };
  if (p.row !== undefined) detail.row = p.row;
  return detail;
}

function describeProblem(p: DatasetProblem): string {
  return `${[p.table, p.column].filter(Boolean).join('/')}${p.row !== undefined ? ` row ${p.row}` : ''}: ${p.message}`;
}

function invalid(field: string, message: string): ApiError {
  return new ApiError(422, `${field}: ${message}`, [{ path: field, message }]);
}
