/** `fiscus bundle`: release a country's working-tree rules as an immutable, content-hashed bundle. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';
import { parseArgs } from '../args';
import { packageRoot } from '../root';
import { BundleError, writeBundle } from '../../models/bundle';
import { loadCountryModel } from '../../models/engine';
import { defaultReleasesRoot } from '../../start';

const usage = `Usage: fiscus bundle COUNTRY [--countries DIR] [--releases DIR]

Writes releases/<country>/<version>.json from countries/<country> (version from its country.yaml).
The rules are loaded and checked first; an existing version is never overwritten.
  --countries DIR   country plugins folder (default: the package's countries/)
  --releases DIR    releases folder (default: $FISCUS_RELEASES_DIR, else releases/)`;

export const command: CliCommand = {
  name: 'bundle',
  summary: 'Release a country model version as an immutable bundle',
  usage,
  run(args: string[], io: CliIO): number {
    const parsed = parseArgs(args, ['countries', 'releases']);
    if (parsed.positionals.length !== 1) throw new UsageError('give exactly one COUNTRY');
    const country = parsed.positionals[0];
    if (!/^[a-z][a-z0-9_]*$/.test(country)) throw new UsageError(`"${country}" is not a country id`);
    const countries = parsed.options.countries ? path.resolve(io.cwd, parsed.options.countries) : path.join(packageRoot(), 'countries');
    const releases = parsed.options.releases ? path.resolve(io.cwd, parsed.options.releases) : defaultReleasesRoot();
    const folder = path.join(countries, country);
    if (!fs.existsSync(path.join(folder, 'country.yaml'))) {
      io.err(`fiscus bundle: no country plugin at ${folder} (country.yaml missing)`);
      return 1;
    }
    // Refuse to release rules that do not load: a bundle is forever.
    loadCountryModel(folder);
    try {
      const { file, bundle, created } = writeBundle(folder, releases);
      io.out(created ? `released ${bundle.country} ${bundle.version} -> ${file} (sha256 ${bundle.hash})` : `${bundle.country} ${bundle.version} is already released with the same rules: ${file}`);
      return 0;
    } catch (error) {
      if (error instanceof BundleError) {
        io.err(`fiscus bundle: ${error.message}`);
        return 1;
      }
      throw error;
    }
  },
};
