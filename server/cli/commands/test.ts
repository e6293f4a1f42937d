/** `fiscus test`: runs PolicyEngine-format YAML tests against the country models. */
import * as fs from 'fs';
import * as path from 'path';
import { CountryModel } from '../../../core/model';
import { matchesName, runTestFiles } from '../../../core/testing/engine';
import { loadTestFile } from '../../../core/testing/load';
import type { CaseResult } from '../../../core/testing/types';
import { parseArgs } from '../args';
import { CliCommand, CliIO, UsageError } from '../command';
import { availableCountries, packageRoot } from '../root';
import { collectTestFiles, countryOfPath, displayPath } from '../test-files';
import { describeCase, jsonReport, summaryLine } from '../test-report';

const USAGE = `Usage: fiscus test <files or folders...> [--country ID | --country-dir FOLDER] [--name SUBSTRING] [--json FILE]

Runs YAML tests written in the PolicyEngine format. Folders are searched for *.yaml and *.yml.

Options:
  --country ID       the country model to use (default: the nearest folder of the path named
                     after a country, e.g. .../uk/...)
  --country-dir DIR  load the country from DIR instead (a country being developed elsewhere)
  --name SUBSTRING   only cases whose name, keywords or file name contain SUBSTRING
  --json FILE        also write every result to FILE as JSON

Prints each failed case, then "N passed, M failed". Exit code: 0 all passed, 1 some failed,
2 usage error.`;

/** Every case of the files, failed with one reason (used when the country cannot be loaded). */
function failAll(files: string[], name: string | undefined, reason: string, label: (file: string) => string): CaseResult[] {
  return files.flatMap((file) =>
    loadTestFile(file, label(file))
      .filter((c) => matchesName(c, name))
      .map((c) => ({ file: c.file, index: c.index, name: c.name, passed: false, errors: [reason], failures: [] })));
}

async function run(args: string[], io: CliIO): Promise<number> {
  const parsed = parseArgs(args, ['country', 'country-dir', 'name', 'json']);
  if (parsed.positionals.length === 0) throw new UsageError('give at least one test file or folder');
  const root = packageRoot();
  const countries = availableCountries(root);
  const forced = parsed.options.country;
  const countryDir = parsed.options['country-dir'];
  if (forced !== undefined && countryDir !== undefined) throw new UsageError('give --country or --country-dir, not both');
  if (forced !== undefined && !countries.includes(forced)) {
    throw new UsageError(`unknown country '${forced}' (available: ${countries.join(', ') || 'none'})`);
  }
  const files = collectTestFiles(parsed.positionals, io.cwd);
  // Country id (or --country-dir) -> its test files.
  const byCountry = new Map<string, string[]>();
  for (const file of files) {
    const country = countryDir ?? forced ?? countryOfPath(file, countries);
    if (!country) throw new UsageError(`cannot tell the country of ${displayPath(file, io.cwd)}: use --country (${countries.join(', ')})`);
    byCountry.set(country, [...(byCountry.get(country) ?? []), file]);
  }

  const shown = (file: string): string => displayPath(file, io.cwd);
  const results: CaseResult[] = [];
  for (const [country, countryFiles] of byCountry) {
    const folder = countryDir !== undefined ? path.resolve(io.cwd, countryDir) : path.join(root, 'countries', country);
    let model: CountryModel;
    try {
      model = CountryModel.load(folder);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // The full message once; each case carries its first line (also in --json).
      io.err(`fiscus test: cannot load country ${country}: ${message}`);
      results.push(...failAll(countryFiles, parsed.options.name, `cannot load country ${country}: ${message.split('\n')[0]}`, shown));
      continue;
    }
    results.push(...runTestFiles(model, countryFiles, { name: parsed.options.name, label: shown }));
  }

  for (const result of results) if (!result.passed) for (const line of describeCase(result)) io.out(line);
  if (parsed.options.json !== undefined) {
    const target = path.resolve(io.cwd, parsed.options.json);
    try {
      fs.writeFileSync(target, `${JSON.stringify(jsonReport(results), null, 2)}\n`);
    } catch (error) {
      io.err(`fiscus test: cannot write ${parsed.options.json}: ${error instanceof Error ? error.message : String(error)}`);
      io.out(summaryLine(results));
      return 2;
    }
  }
  io.out(summaryLine(results));
  return results.every((r) => r.passed) ? 0 : 1;
}

export const command: CliCommand = {
  name: 'test',
  summary: 'Run YAML tests (PolicyEngine format) against a country model',
  usage: USAGE,
  run,
};
