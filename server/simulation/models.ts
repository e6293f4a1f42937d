/**
 * Country models loaded once per thread (the main thread and each worker thread keep their own)
 * and reused by every simulation of the same folder. A folder is identified by its path and the
 * names, sizes and modification times of its files, so editing a working tree loads it anew
 * while an unpacked release bundle is loaded once.
 */
import * as fs from 'fs';
import * as path from 'path';
import { createHash } from 'crypto';
import { CountryModel } from '../../core/model';

const MAX_MODELS = 4;
const models = new Map<string, CountryModel>();

/** Identity of a model folder's current content (cheap: file stats, no reading). */
export function modelKey(folder: string): string {
  const hash = createHash('sha1');
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'tests') walk(full);
      } else {
        const st = fs.statSync(full);
        hash.update(`${full}\0${st.size}\0${st.mtimeMs}\n`);
      }
    }
  };
  walk(path.resolve(folder));
  return `${path.resolve(folder)}#${hash.digest('hex').slice(0, 16)}`;
}

export function loadModel(folder: string, key: string = modelKey(folder)): CountryModel {
  let m = models.get(key);
  if (m) {
    models.delete(key);
  } else {
    m = CountryModel.load(folder);
    if (models.size >= MAX_MODELS) models.delete(models.keys().next().value!);
  }
  models.set(key, m);
  return m;
}
