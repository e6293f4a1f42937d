/** `fiscus dataset`: synthesise, check, describe and convert HDF5 microdata. */
import * as path from 'path';
import { CountryModel } from '../../../core/model';
import { checkDataset, DatasetTables, formatProblem, readDataset, synthesize, writeDataset } from '../../datasets';
import { resolveUnassigned } from '../../datasets/read';
import { compareHouseholds, readExpected } from '../../datasets/compare';
import { parseArgs, ParsedArgs } from '../args';
import { CliCommand, CliIO, UsageError } from '../command';
import { progressBar } from '../progress';
import { availableCountries, packageRoot } from '../root';

const USAGE = `Usage:
  fiscus dataset synth uk|us --households N [--year Y] [--seed S] OUT.h5
  fiscus dataset check FILE --country C [--country-dir DIR] [--json]
  fiscus dataset info FILE
  fiscus dataset convert FILE OUT.h5 --country C [--country-dir DIR]
  fiscus dataset compare FILE EXPECTED.csv --country C [--year Y] [--show N] [--country-dir DIR]

synth    writes a synthetic population in Fiscus's layout (docs/datasets.md); the same
         options and seed give the same file. Defaults: --year 2025 --seed 1.
check    reads FILE (Fiscus's layout, PolicyEngine's tables or time-period arrays) and checks
         it against the country model: errors name the table, column and first bad row;
         exits 1 when there are errors.
info     prints the layout, the year and each table's rows and columns.
convert  checks FILE and writes it in Fiscus's layout (columns the model does not know are kept).
compare  computes the household variables of EXPECTED.csv (one row per household in household_id
         order, as PolicyEngine's samples in ../shared/datasets) and counts the households within
         1 of each, listing the largest differences. Default year: the file's, else 2025.`;

function countryFolder(parsed: ParsedArgs, io: CliIO): string {
  const country = parsed.options.country;
  if (!country) throw new UsageError('give --country');
  if (parsed.options['country-dir']) return path.resolve(io.cwd, parsed.options['country-dir']);
  if (!availableCountries().includes(country)) throw new UsageError(`unknown country "${country}" (available: ${availableCountries().join(', ')})`);
  return path.join(packageRoot(), 'countries', country);
}

function describe(t: DatasetTables): string[] {
  const lines = [`layout: ${t.layout}`, `year: ${t.year ?? '(not given)'}`];
  for (const [key, table] of t.tables) {
    lines.push(`${key}: ${table.rows.toLocaleString('en')} rows, ${table.columns.size} columns`);
    lines.push(`  ${[...table.columns.keys()].join(', ')}`);
  }
  return lines;
}

async function synth(parsed: ParsedArgs, io: CliIO): Promise<number> {
  const [, country, out] = parsed.positionals;
  if (!country || !out || parsed.positionals.length !== 3) throw new UsageError('give a country and an output file');
  const households = Number(parsed.options.households);
  if (!Number.isInteger(households) || households <= 0) throw new UsageError('--households must be a positive integer');
  const year = Number(parsed.options.year ?? 2025);
  const seed = Number(parsed.options.seed ?? 1);
  if (!Number.isInteger(year) || !Number.isInteger(seed)) throw new UsageError('--year and --seed must be integers');
  const t0 = performance.now();
  const bar = progressBar(`synth ${country}`);
  const tables = await synthesize(country, { households, year, seed }, (done, total) => bar.update(0.9 * (done / total), 'generating'));
  bar.update(0.9, 'writing');
  const file = path.resolve(io.cwd, out);
  await writeDataset(file, tables);
  bar.done();
  const people = tables.tables.get('person')?.rows ?? 0;
  io.out(`${file}: ${households.toLocaleString('en')} households, ${people.toLocaleString('en')} people, year ${year}, seed ${seed} (${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  return 0;
}

async function check(parsed: ParsedArgs, io: CliIO): Promise<number> {
  const file = parsed.positionals[1];
  if (!file || parsed.positionals.length !== 2) throw new UsageError('give one dataset file');
  const model = CountryModel.load(countryFolder(parsed, io));
  const tables = await readDataset(path.resolve(io.cwd, file), { model });
  const result = checkDataset(tables, model);
  if (parsed.flags.has('json')) {
    io.out(JSON.stringify({ layout: tables.layout, year: tables.year, ...result }, null, 2));
  } else {
    io.out(`layout ${tables.layout}, year ${tables.year ?? '(not given)'}; rows: ${Object.entries(result.counts).map(([k, v]) => `${k} ${v.toLocaleString('en')}`).join(', ')}; weighted households ${Math.round(result.weighted_households).toLocaleString('en')}`);
    for (const e of result.errors) io.out(`error: ${formatProblem(e)}`);
    for (const w of result.warnings) io.out(`warning: ${formatProblem(w)}`);
    io.out(result.errors.length ? `${result.errors.length} errors: the dataset is refused` : 'the dataset fits the model');
  }
  return result.errors.length ? 1 : 0;
}

async function convert(parsed: ParsedArgs, io: CliIO): Promise<number> {
  const [, file, out] = parsed.positionals;
  if (!file || !out || parsed.positionals.length !== 3) throw new UsageError('give an input and an output file');
  const model = CountryModel.load(countryFolder(parsed, io));
  const tables = resolveUnassigned(await readDataset(path.resolve(io.cwd, file), { model }), model);
  const result = checkDataset(tables, model);
  for (const e of result.errors) io.err(`error: ${formatProblem(e)}`);
  if (result.errors.length) return 1;
  const target = path.resolve(io.cwd, out);
  await writeDataset(target, { ...tables, layout: 'fiscus' });
  io.out(`${target}: written in Fiscus's layout (${Object.entries(result.counts).map(([k, v]) => `${k} ${v}`).join(', ')})`);
  return 0;
}

async function compare(parsed: ParsedArgs, io: CliIO): Promise<number> {
  const [, file, csv] = parsed.positionals;
  if (!file || !csv || parsed.positionals.length !== 3) throw new UsageError('give a dataset and a CSV of expected values');
  const model = CountryModel.load(countryFolder(parsed, io));
  const tables = await readDataset(path.resolve(io.cwd, file), { model });
  const year = Number(parsed.options.year ?? tables.year ?? 2025);
  const rows = compareHouseholds(tables, model, year, readExpected(path.resolve(io.cwd, csv)), 1, Number(parsed.options.show ?? 5));
  for (const r of rows) {
    io.out(`${r.variable}: ${r.within} of ${r.households} households within 1`);
    for (const w of r.worst) io.out(`  household ${w.id}: ours ${w.ours.toFixed(2)}, expected ${w.theirs.toFixed(2)} (${(w.ours - w.theirs).toFixed(2)})`);
  }
  return 0;
}

export const command: CliCommand = {
  name: 'dataset',
  summary: 'Synthesise, check, describe or convert HDF5 microdata',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, ['households', 'year', 'seed', 'country', 'country-dir', 'show'], ['json']);
    const sub = parsed.positionals[0];
    if (sub === 'synth') return synth(parsed, io);
    if (sub === 'check') return check(parsed, io);
    if (sub === 'convert') return convert(parsed, io);
    if (sub === 'compare') return compare(parsed, io);
    if (sub === 'info') {
      if (parsed.positionals.length !== 2) throw new UsageError('give one dataset file');
      for (const line of describe(await readDataset(path.resolve(io.cwd, parsed.positionals[1])))) io.out(line);
      return 0;
    }
    throw new UsageError(sub ? `unknown subcommand "${sub}"` : 'give a subcommand: synth, check, info or convert');
  },
};
