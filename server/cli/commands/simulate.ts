/** `fiscus simulate`: a simulation (or a baseline and reform with their report) without a server. */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Reform } from '../../../parameters/types';
import { economicImpact, runSimulation, shutdownSimulationThreads, SimulationSummary } from '../../simulation';
import { formatReport, formatSummary } from '../../simulation/format';
import { parseArgs } from '../args';
import { CliCommand, CliIO, UsageError } from '../command';
import { progressBar } from '../progress';
import { availableCountries, packageRoot } from '../root';

const USAGE = `Usage: fiscus simulate --dataset FILE --country C [--policy reform.json] [--dynamic dyn.json]
                       [--report] [--json] [--threads N] [--year Y] [--region R]
                       [--output DIR] [--country-dir DIR]

Runs the country model over a dataset (any layout fiscus dataset reads) on every core, and prints
the simulation's aggregates, or with --report the economic impact of --policy (a baseline and a
reform simulation compared household by household) as tables, or JSON with --json.

  --policy FILE    parameter values: {"path": {"YYYY-MM-DD.YYYY-MM-DD": value}}, or {"path": value}
                   for a value from 1 January of the year on
  --dynamic FILE   labour-supply elasticities, the same format (gov.simulation.*)
  --year Y         default: the dataset's year, else 2025
  --region R       a region name (uk: country/scotland, region/london, ...; us: state/ca, ...)
  --threads N      worker threads (default: every core)
  --output DIR     where the output HDF5 files go (default: a temporary folder)`;

function readReform(file: string, year: number, io: CliIO): Reform {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(path.resolve(io.cwd, file), 'utf8'));
  } catch (error) {
    throw new UsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new UsageError(`${file}: expected an object of parameter paths`);
  const reform: Reform = {};
  for (const [p, v] of Object.entries(raw as Record<string, unknown>)) {
    reform[p] = v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Reform[string]) : { [`${year}-01-01.2100-12-31`]: v as Reform[string][string] };
  }
  return reform;
}

export const command: CliCommand = {
  name: 'simulate',
  summary: 'Run a country model over a dataset on every core (--report: economic impact of a policy)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, ['dataset', 'country', 'policy', 'dynamic', 'threads', 'year', 'region', 'output', 'country-dir'], ['report', 'json']);
    const { dataset, country } = parsed.options;
    if (!dataset || !country) throw new UsageError('give --dataset and --country');
    if (parsed.positionals.length) throw new UsageError(`unexpected ${parsed.positionals[0]}`);
    const modelFolder = parsed.options['country-dir'] ? path.resolve(io.cwd, parsed.options['country-dir']) : path.join(packageRoot(), 'countries', country);
    if (!parsed.options['country-dir'] && !availableCountries().includes(country)) throw new UsageError(`unknown country "${country}" (available: ${availableCountries().join(', ')})`);
    const datasetFile = path.resolve(io.cwd, dataset);
    const year = Number(parsed.options.year ?? 2025);
    const threads = parsed.options.threads ? Number(parsed.options.threads) : undefined;
    if (!Number.isInteger(year) || (threads !== undefined && !(Number.isInteger(threads) && threads > 0))) throw new UsageError('--year and --threads must be positive integers');
    if (parsed.flags.has('report') && !parsed.options.policy) throw new UsageError('--report compares a policy with the baseline: give --policy');
    const reform = parsed.options.policy ? readReform(parsed.options.policy, year, io) : undefined;
    const dynamic = parsed.options.dynamic ? readReform(parsed.options.dynamic, year, io) : undefined;
    const outDir = parsed.options.output ? path.resolve(io.cwd, parsed.options.output) : fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-simulate-'));
    const base = { country, modelFolder, datasetFile, year, region: parsed.options.region ?? null, threads };
    const run = async (label: string, extra: { reform?: Reform; dynamic?: Reform }) => {
      const bar = progressBar(label);
      const out = await runSimulation({ ...base, ...extra, outputFile: path.join(outDir, `${label}.h5`) }, (f) => bar.update(f));
      bar.done();
      return out;
    };
    try {
      if (!parsed.flags.has('report')) {
        const out = await run(reform ? 'reform' : 'baseline', { reform, dynamic });
        const summary = out.summary as SimulationSummary;
        if (parsed.flags.has('json')) io.out(JSON.stringify({ summary, output_file: out.outputFile }, null, 2));
        else for (const line of [...formatSummary(summary), `output: ${out.outputFile}`]) io.out(line);
        return 0;
      }
      const t = performance.now();
      const baseline = await run('baseline', {});
      const reformed = await run('reform', { reform, dynamic });
      const report = await economicImpact(country, baseline, reformed);
      const seconds = (performance.now() - t) / 1000;
      if (parsed.flags.has('json')) io.out(JSON.stringify(report, null, 2));
      else for (const line of [...formatReport(report), '', `${seconds.toFixed(2)} s; output files in ${outDir}`]) io.out(line);
      return 0;
    } finally {
      await shutdownSimulationThreads();
    }
  },
};
