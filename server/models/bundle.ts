/**
 * Released model versions as immutable bundles: one JSON file holding the country's rule files
 * (country.yaml, variables/, parameters/, rule sets, data tables and modules: everything in the
 * country folder but its tests) verbatim, named by version and sealed by a SHA-256 of its content.
 * Verbatim files keep a bundle loadable by exactly the loader that reads a working tree, so a
 * release cannot drift from what its tests ran against. Binary files (compressed data tables)
 * travel base64-encoded in `blobs`.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseYaml11 } from '../../parameters/yaml';

export const BUNDLE_FORMAT = 'fiscus-bundle/2';
/** Earlier bundles (rule YAML only, no blobs) are still read. */
const FORMATS = ['fiscus-bundle/1', BUNDLE_FORMAT];
/** Text files kept verbatim; anything else is a blob. */
const TEXT_FILE = /\.(ya?ml|md|csv|txt|json)$/i;

export interface Bundle {
  format: string;
  country: string;
  version: string;
  /** sha256 of the canonical JSON of {country, version, files} (and blobs, when there are any). */
  hash: string;
  /** Relative path (forward slashes) -> file text. */
  files: Record<string, string>;
  /** Relative path -> base64 of a binary file's bytes. */
  blobs?: Record<string, string>;
}

export class BundleError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BundleError';
  }
}

/** id and version from a country folder's country.yaml (without loading the whole model). */
export function readCountryHeader(folder: string): { id: string; version: string } {
  const file = path.join(folder, 'country.yaml');
  const raw = parseYaml11(fs.readFileSync(file, 'utf8')) as { id?: unknown; version?: unknown } | null;
  if (!raw || typeof raw.id !== 'string' || typeof raw.version !== 'string') {
    throw new BundleError(`${file}: needs string "id" and "version" fields`);
  }
  return { id: raw.id, version: raw.version };
}

export function buildBundle(countryFolder: string): Bundle {
  const { id, version } = readCountryHeader(countryFolder);
  const files: Record<string, string> = {};
  const blobs: Record<string, string> = {};
  for (const name of fs.readdirSync(countryFolder).sort()) collect(countryFolder, name, files, blobs);
  return { format: BUNDLE_FORMAT, country: id, version, hash: hashOf(id, version, files, blobs), files, blobs };
}

/** Every file but tests (any folder named `tests`) and hidden ones. */
function collect(root: string, relative: string, files: Record<string, string>, blobs: Record<string, string>): void {
  const full = path.join(root, relative);
  const base = path.basename(relative);
  if (base.startsWith('.')) return;
  const stat = fs.statSync(full);
  if (stat.isDirectory()) {
    if (base === 'tests') return;
    for (const name of fs.readdirSync(full).sort()) collect(root, `${relative}/${name}`, files, blobs);
  } else if (TEXT_FILE.test(relative)) {
    files[relative] = fs.readFileSync(full, 'utf8');
  } else {
    blobs[relative] = fs.readFileSync(full).toString('base64');
  }
}

function sortedCopy(map: Record<string, string>): Record<string, string> {
  const sorted: Record<string, string> = {};
  for (const key of Object.keys(map).sort()) sorted[key] = map[key];
  return sorted;
}

function hashOf(country: string, version: string, files: Record<string, string>, blobs: Record<string, string> = {}): string {
  const content: Record<string, unknown> = { country, version, files: sortedCopy(files) };
  if (Object.keys(blobs).length) content.blobs = sortedCopy(blobs);
  return crypto.createHash('sha256').update(JSON.stringify(content)).digest('hex');
}

export function bundlePath(releasesRoot: string, country: string, version: string): string {
  return path.join(releasesRoot, country, `${version}.json`);
}

/**
 * Writes the bundle of a country folder. Releases are immutable: writing a version that exists
 * with other content is an error (bump the version in country.yaml); the same content is a no-op.
 */
export function writeBundle(countryFolder: string, releasesRoot: string): { file: string; bundle: Bundle; created: boolean } {
  const bundle = buildBundle(countryFolder);
  const file = bundlePath(releasesRoot, bundle.country, bundle.version);
  if (fs.existsSync(file)) {
    const existing = readBundle(file);
    if (existing.hash !== bundle.hash) {
      throw new BundleError(`${file}: version ${bundle.version} of ${bundle.country} is already released with different rules; bump "version" in ${path.join(countryFolder, 'country.yaml')}`);
    }
    return { file, bundle: existing, created: false };
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(bundle));
  fs.renameSync(temporary, file);
  return { file, bundle, created: true };
}

/** Reads and verifies a bundle file: its name, format and hash must agree with its content. */
export function readBundle(file: string): Bundle {
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new BundleError(`${file}: not a readable bundle: ${(error as Error).message}`);
  }
  const b = raw as Partial<Bundle>;
  if (!FORMATS.includes(b.format as string) || typeof b.country !== 'string' || typeof b.version !== 'string' || typeof b.hash !== 'string' || !b.files || typeof b.files !== 'object') {
    throw new BundleError(`${file}: not a ${BUNDLE_FORMAT} bundle (needs format, country, version, hash, files)`);
  }
  for (const [name, text] of [...Object.entries(b.files), ...Object.entries(b.blobs ?? {})]) {
    if (typeof text !== 'string' || !safeRelative(name)) throw new BundleError(`${file}: bad file entry "${name}"`);
  }
  if (hashOf(b.country, b.version, b.files, b.blobs) !== b.hash) throw new BundleError(`${file}: content does not match its hash (the file was modified)`);
  if (path.basename(file) !== `${b.version}.json`) throw new BundleError(`${file}: holds version ${b.version}, but is named ${path.basename(file)}`);
  return b as Bundle;
}

function safeRelative(name: string): boolean {
  return !name.startsWith('/') && !name.split('/').includes('..') && !name.includes('\\');
}

/**
 * Writes a bundle's files into a folder named by its hash (once), so the ordinary folder loader
 * can read it. The folder name is the content hash, so an existing folder is already correct.
 */
export function materialiseBundle(bundle: Bundle, cacheRoot: string = path.join(os.tmpdir(), 'fiscus-bundles')): string {
  const folder = path.join(cacheRoot, `${bundle.country}-${bundle.hash.slice(0, 16)}`);
  if (fs.existsSync(path.join(folder, '.complete'))) return folder;
  const temporary = `${folder}.${process.pid}.${Date.now()}.tmp`;
  const write = (name: string, content: string | Buffer) => {
    const target = path.join(temporary, ...name.split('/'));
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, content);
  };
  for (const [name, text] of Object.entries(bundle.files)) write(name, text);
  for (const [name, data] of Object.entries(bundle.blobs ?? {})) write(name, Buffer.from(data, 'base64'));
  fs.writeFileSync(path.join(temporary, '.complete'), bundle.hash);
  try {
    fs.renameSync(temporary, folder);
  } catch {
    // Another process materialised the same hash first: theirs is identical.
    fs.rmSync(temporary, { recursive: true, force: true });
  }
  return folder;
}

/** Compares versions "1.2.10" > "1.2.9" numerically, part by part. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(/[.+-]/);
  const pb = b.split(/[.+-]/);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i] ?? '';
    const y = pb[i] ?? '';
    const nx = Number(x);
    const ny = Number(y);
    if (x !== '' && y !== '' && Number.isInteger(nx) && Number.isInteger(ny)) {
      if (nx !== ny) return nx - ny;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}
