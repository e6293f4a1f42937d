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

/** How long a folder's identity is trusted before its files are looked at again. */
const KEY_TTL_MS = 5000;
const keys = new Map<string, { key: string; at: number }>();

/**
 * Identity of a model folder's current content (file stats, no reading; a thousand files take a
 * few tens of milliseconds, so it is recomputed at most every five seconds per folder: an edit is
 * seen by runs that start five seconds after it).
 */
export function modelKey(folder: string): string {
  const abs = path.resolve(folder);
  const known = keys.get(abs);
  if (known && Date.now() - known.at < KEY_TTL_MS) return known.key;
  const key = computeKey(abs);
  keys.set(abs, { key, at: Date.now() });
  return key;
}

function computeKey(folder: string): string {
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

/**
 * Use a model this thread already holds for `folder` (a server's model registry loaded it for the
 * household API) instead of loading a second copy: loading takes seconds of the main thread, which
 * a server also answers household requests on, and a copy costs a few hundred MB.
 */
export function adoptModel(folder: string, model: CountryModel): void {
  const key = modelKey(folder);
  if (models.has(key)) return;
  if (models.size >= MAX_MODELS) models.delete(models.keys().next().value!);
  models.set(key, model);
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
