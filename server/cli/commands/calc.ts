/** `fiscus calc`: one household-API request computed locally, without a server. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';
import { parseArgs } from '../args';
import { packageRoot } from '../root';
import { ApiError } from '../../http/errors';
import { DEFAULT_LIMITS, HouseholdCalculator } from '../../household/calculate';
import { coreEngine, loadCountryModel } from '../../models/engine';
import { ModelRegistry } from '../../models/registry';
import { defaultReleasesRoot } from '../../start';

const usage = `Usage: fiscus calc COUNTRY FILE [--countries DIR] [--releases DIR]

Reads a household API request ({"household": ..., "policy"?: ..., "version"?: ...}) from FILE
("-" for standard input) and prints the answer POST /COUNTRY/calculate would give.`;

export const command: CliCommand = {
  name: 'calc',
  summary: 'Calculate one household request locally (same answer as the API)',
  usage,
  run(args: string[], io: CliIO): number {
    const parsed = parseArgs(args, ['countries', 'releases']);
    if (parsed.positionals.length !== 2) throw new UsageError('give a COUNTRY and a request FILE');
    const [country, file] = parsed.positionals;
    let text: string;
    try {
      text = file === '-' ? fs.readFileSync(0, 'utf8') : fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
    } catch (error) {
      io.err(`fiscus calc: cannot read ${file}: ${(error as Error).message}`);
      return 1;
    }
    const registry = new ModelRegistry({
      countriesRoot: parsed.options.countries ? path.resolve(io.cwd, parsed.options.countries) : path.join(packageRoot(), 'countries'),
      releasesRoot: parsed.options.releases ? path.resolve(io.cwd, parsed.options.releases) : defaultReleasesRoot(),
      loadModel: loadCountryModel,
    });
    const calculator = new HouseholdCalculator(registry, coreEngine, DEFAULT_LIMITS);
    try {
      io.out(JSON.stringify(calculator.calculate(country, text), null, 2));
      return 0;
    } catch (error) {
      if (error instanceof ApiError) {
        io.err(`fiscus calc: ${error.status}: ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
};
