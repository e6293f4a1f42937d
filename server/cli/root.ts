/** The package's root folder, found from this file's location (never from the working directory). */
import * as fs from 'fs';
import * as path from 'path';

export function packageRoot(start: string = __dirname): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest)) {
      try {
        if ((JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'fiscus') return dir;
      } catch {
        // an unreadable package.json is not ours: keep looking upwards
      }
    }
    if (path.dirname(dir) === dir) throw new Error(`cannot find the fiscus package root above ${start}`);
  }
}

/**
 * Ids of the countries shipped with the package: the folders of `countries/`. A folder that is not
 * a loadable country still counts, so its tests fail with the loading error rather than a guess.
 */
export function availableCountries(root: string = packageRoot()): string[] {
  const folder = path.join(root, 'countries');
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}
