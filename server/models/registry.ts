/**
 * Which model versions the server can answer with. A country exists when its plugin folder
 * (`<countriesRoot>/<id>/country.yaml`) or a released bundle exists; models load lazily on
 * first use and stay cached. Channels: `frontier` is the working tree (the newest bundle when
 * there is no working tree), `current` the newest released bundle (the working tree when none).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApiError } from '../http/errors';
import { compareVersions, materialiseBundle, readBundle, readCountryHeader } from './bundle';

export interface RegistryOptions<M> {
  countriesRoot: string;
  /** Folder of released bundles `<releasesRoot>/<country>/<version>.json` (optional). */
  releasesRoot?: string;
  /** Where bundles are unpacked for loading (default: a folder under the OS temp dir). */
  bundleCacheRoot?: string;
  /** Loads a model from a country folder (CountryModel.load). */
  loadModel: (folder: string) => M;
  /** How long a country's version listing is reused before the folders are read again (ms, default 5000). */
  refreshMs?: number;
}

export interface ResolvedModel<M> {
  country: string;
  version: string;
  model: M;
}

export interface Source {
  version: string;
  /** Working-tree folder, or a bundle file. */
  folder?: string;
  bundleFile?: string;
}

interface CountryVersions {
  tree?: Source;
  bundles: Source[]; // ascending by version
  current: Source;
  frontier: Source;
}

const COUNTRY_ID = /^[a-z][a-z0-9_]{0,31}$/;

export class ModelRegistry<M> {
  private readonly models = new Map<string, M>();
  private readonly listings = new Map<string, { at: number; versions: CountryVersions | undefined }>();

  constructor(private readonly options: RegistryOptions<M>) {}

  /** Country ids with a plugin folder or released bundles. */
  countries(): string[] {
    const ids = new Set<string>();
    for (const root of [this.options.countriesRoot, this.options.releasesRoot]) {
      if (!root || !fs.existsSync(root)) continue;
      for (const name of fs.readdirSync(root)) if (COUNTRY_ID.test(name) && this.versionsOf(name)) ids.add(name);
    }
    return [...ids].sort();
  }

  /** `{current, frontier}` versions of a country, or undefined when it has no plugin. */
  available(country: string): { current: string; frontier: string } | undefined {
    const v = this.versionsOf(country);
    return v && { current: v.current.version, frontier: v.frontier.version };
  }

  /** The model for `requested` (`current`, `frontier` or an exact active version); 404/422 otherwise. */
  resolve(country: string, requested: string = 'current'): ResolvedModel<M> {
    const versions = this.versionsOf(country);
    if (!versions) {
      const known = this.countries();
      throw new ApiError(404, `Country "${country}" is not available on this server${known.length ? ` (available: ${known.join(', ')})` : ''}`);
    }
    let source: Source | undefined;
    if (requested === 'current') source = versions.current;
    else if (requested === 'frontier') source = versions.frontier;
    else source = versions.tree?.version === requested ? versions.tree : versions.bundles.find((b) => b.version === requested);
    if (!source) {
      const available = { current: versions.current.version, frontier: versions.frontier.version };
      throw new ApiError(422, `Version "${requested}" of ${country} is not served here: use current (${available.current}), frontier (${available.frontier}) or an active version (${this.activeVersions(versions).join(', ')})`, undefined, {
        code: 'unsupported_version',
        requested_version: requested,
        country_id: country,
        available_versions: available,
      });
    }
    return { country, version: source.version, model: this.load(country, source) };
  }

  /**
   * Every version a country has here: its released bundles (oldest first), then the working tree.
   * The microsimulation catalogue records each as a version row.
   */
  sources(country: string): Source[] {
    const v = this.versionsOf(country);
    if (!v) return [];
    return v.tree ? [...v.bundles, v.tree] : [...v.bundles];
  }

  /** The `current` source of a country (what `version: current` answers with), if it has one. */
  currentSource(country: string): Source | undefined {
    return this.versionsOf(country)?.current;
  }

  /** A loadable folder for a source: the working tree itself, or the bundle unpacked once. */
  folderOf(source: Source): string {
    return source.folder ?? materialiseBundle(readBundle(source.bundleFile!), this.options.bundleCacheRoot);
  }

  /** The model of a source (cached like the ones `resolve` returns). */
  modelOf(country: string, source: Source): M {
    return this.load(country, source);
  }

  private activeVersions(v: CountryVersions): string[] {
    const all = new Set(v.bundles.map((b) => b.version));
    if (v.tree) all.add(v.tree.version);
    return [...all].sort(compareVersions);
  }

  private load(country: string, source: Source): M {
    const key = source.bundleFile ? `${country}@bundle:${source.version}` : `${country}@tree`;
    let model = this.models.get(key);
    if (!model) {
      // A broken model answers 500 for its own country only; the next request tries again.
      try {
        const folder = this.folderOf(source);
        model = this.options.loadModel(folder);
      } catch (error) {
        throw new ApiError(500, `The ${country} model (version ${source.version}) failed to load: ${(error as Error).message}`);
      }
      this.models.set(key, model);
    }
    return model;
  }

  // Re-read every few seconds, so a released bundle or a new plugin appears without a restart,
  // while a busy server does not parse country.yaml on every request.
  private versionsOf(country: string): CountryVersions | undefined {
    if (!COUNTRY_ID.test(country)) return undefined;
    const now = Date.now();
    const cached = this.listings.get(country);
    if (cached && now - cached.at < (this.options.refreshMs ?? 5000)) return cached.versions;
    const versions = this.listVersions(country);
    this.listings.set(country, { at: now, versions });
    return versions;
  }

  private listVersions(country: string): CountryVersions | undefined {
    const folder = path.join(this.options.countriesRoot, country);
    const tree: Source | undefined = fs.existsSync(path.join(folder, 'country.yaml')) ? { version: readCountryHeader(folder).version, folder } : undefined;
    const bundles: Source[] = [];
    if (this.options.releasesRoot) {
      const dir = path.join(this.options.releasesRoot, country);
      if (fs.existsSync(dir)) {
        for (const name of fs.readdirSync(dir)) {
          if (name.endsWith('.json')) bundles.push({ version: name.slice(0, -5), bundleFile: path.join(dir, name) });
        }
      }
    }
    bundles.sort((a, b) => compareVersions(a.version, b.version));
    const newest = bundles[bundles.length - 1];
    if (!tree && !newest) return undefined;
    return { tree, bundles, current: newest ?? tree!, frontier: tree ?? newest! };
  }
}
