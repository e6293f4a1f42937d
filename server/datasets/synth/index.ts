/**
 * Synthetic populations by country (docs/datasets.md: every distribution and its source).
 * Deterministic: the same country, size, year and seed give the same tables.
 */
import type { DatasetTables } from '../types';
import { synthesizeUk } from './uk';
import { synthesizeUs } from './us';

export type SynthCountry = 'uk' | 'us';

const GENERATORS: Record<string, (o: { households: number; year: number; seed: number }, p?: (d: number, t: number) => void) => Promise<DatasetTables>> = {
  uk: synthesizeUk,
  us: synthesizeUs,
};

export function synthCountries(): string[] {
  return Object.keys(GENERATORS);
}

export async function synthesize(country: string, options: { households: number; year: number; seed: number }, onProgress?: (done: number, total: number) => void): Promise<DatasetTables> {
  const gen = GENERATORS[country];
  if (!gen) throw new Error(`no synthetic population for "${country}" (available: ${synthCountries().join(', ')})`);
  return gen(options, onProgress);
}
