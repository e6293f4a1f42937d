/** Finding test files and telling which country each belongs to, for `fiscus test`. */
import * as fs from 'fs';
import * as path from 'path';
import { UsageError } from './command';

const TEST_FILE = /\.ya?ml$/i;

/** Folders of a country or state module that hold its rules and data, not tests. */
const RULE_FOLDERS = new Set(['parameters', 'variables', 'rule_sets', 'data']);

/** A country plugin (it has country.yaml) or one of its state modules (`<country>/states/<state>`). */
function isModule(dir: string): boolean {
  const parent = path.dirname(dir);
  return fs.existsSync(path.join(dir, 'country.yaml')) || (path.basename(parent) === 'states' && fs.existsSync(path.join(path.dirname(parent), 'country.yaml')));
}

/**
 * Files under the given paths: folders are searched recursively for *.yaml / *.yml, in name order,
 * leaving out the rules of country and state modules (`fiscus test countries/us` runs the tests of
 * the country and of its states, not its parameter and variable files).
 */
export function collectTestFiles(paths: string[], cwd: string): string[] {
  const files: string[] = [];
  const walk = (dir: string): void => {
    const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const module = isModule(dir);
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (module && (RULE_FOLDERS.has(entry.name) || entry.name === 'country.yaml')) continue;
      if (entry.isDirectory()) walk(full);
      else if (entry.isFile() && TEST_FILE.test(entry.name)) files.push(full);
    }
  };
  for (const given of paths) {
    const full = path.resolve(cwd, given);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      throw new UsageError(`no such file or folder: ${given}`);
    }
    if (stat.isDirectory()) walk(full);
    else files.push(full);
  }
  return [...new Set(files)];
}

/** The country of a test file: the path segment nearest the file that names a known country. */
export function countryOfPath(file: string, countries: string[]): string | undefined {
  const segments = path.resolve(file).split(path.sep).slice(0, -1);
  for (let i = segments.length - 1; i >= 0; i--) if (countries.includes(segments[i])) return segments[i];
  return undefined;
}

/** Shows a path relative to the working directory when it lies inside it. */
export function displayPath(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}
