/**
 * What the microsimulation API tests share: a countries folder holding only the UK model (the
 * catalogue seeds and the threads warm one country, not two), small synthetic UK datasets written
 * by the real datasets module, and polling.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { synthesize, writeDataset, type DatasetTables } from '../../../server/datasets';
import { packageRoot } from '../../../server/cli/root';
import { tempDir } from '../helpers';

export const COUNTRIES = path.join(packageRoot(), 'countries');

let ukOnly: string | undefined;

/** A countries folder with the real UK model in it (a link to the working tree), made once per run. */
export function ukOnlyCountries(): string {
  if (!ukOnly) {
    ukOnly = tempDir('uk-only');
    fs.symlinkSync(path.join(COUNTRIES, 'uk'), path.join(ukOnly, 'uk'), 'dir');
  }
  return ukOnly;
}

/** Writes a synthetic UK population of `households` households (2025) to `file`, changed by `edit` if given. */
export async function writeUkDataset(file: string, households: number, seed = 3, edit?: (t: DatasetTables) => void): Promise<void> {
  const tables = await synthesize('uk', { households, year: 2025, seed });
  edit?.(tables);
  await writeDataset(file, tables);
}

export async function until<T>(read: () => Promise<T>, done: (v: T) => boolean, ms = 60_000, every = 50): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await read();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, every));
  }
}

export async function del(url: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await fetch(url, { method: 'DELETE' });
  const text = await r.text();
  return { status: r.status, body: text ? JSON.parse(text) : null };
}

/** The UK policy of the examples: the basic rate up 1p. */
export const BASIC_RATE_21 = { name: 'Basic rate 21p', tax_benefit_model_name: 'uk', parameter_values: [{ parameter_name: 'gov.hmrc.income_tax.rates.uk[0].rate', value_json: 0.21, start_date: '2025-01-01' }] };
