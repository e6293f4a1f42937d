/**
 * Seeds the catalogue from the models this server has: every released bundle and the working
 * tree of each country become version rows, with their parameters, baseline parameter values and
 * variables. A version is keyed by (model, version, content hash): an edited working tree becomes
 * a new row next to the old one, and no row is ever rewritten.
 */
import * as fs from 'node:fs';
import { describeVariables } from '../../core/catalogue';
import type { CountryModel } from '../../core/model';
import { seriesKind } from '../../parameters/series';
import type { ParameterLeaf } from '../../parameters/types';
import { buildBundle, readBundle } from '../models/bundle';
import type { ModelRegistry, Source } from '../models/registry';
import { modelKey } from '../simulation/models';
import type { CatalogueStore, VersionContent } from '../storage/catalogue';
import { catalogueId, now } from '../storage/ids';
import type { ParameterRow, ParameterValueRow, VariableRow, VersionRow } from '../storage/rows';
import { modelName } from './model-names';

export interface SeedResult {
  /** `uk 0.1.0 (working tree)` for each version inserted by this call. */
  added: string[];
}

export async function seedCatalogue(registry: ModelRegistry<CountryModel>, store: CatalogueStore, log: (m: string) => void = () => undefined): Promise<SeedResult> {
  const added: string[] = [];
  for (const country of registry.countries()) {
    const name = modelName(country);
    const modelId = catalogueId(`model:${name}`);
    let described = false;
    for (const source of registry.sources(country)) {
      const hash = sourceHash(source);
      const versionId = catalogueId(`version:${name}:${source.version}:${hash}`);
      if (await store.hasVersion(versionId)) continue;
      let model: CountryModel;
      try {
        model = registry.modelOf(country, source);
      } catch (error) {
        // A broken version is left out of the catalogue; the others still are served.
        log(`catalogue: ${country} ${source.version} not seeded: ${(error as Error).message}`);
        continue;
      }
      if (!described) {
        await store.ensureModel({ id: modelId, name, country, description: `${model.country.label ?? country} tax-benefit model (Fiscus)`, created_at: now() });
        described = true;
      }
      const kind = source.bundleFile ? 'bundle' : 'working tree';
      const version: VersionRow = { id: versionId, model_id: modelId, version: source.version, hash, source: kind, description: `${name} ${source.version} (${kind}, sha256 ${hash.slice(0, 12)})`, created_at: now() };
      if (await store.insertVersion(versionContent(version, model))) added.push(`${country} ${source.version} (${kind})`);
    }
  }
  return { added };
}

/**
 * Hashes already computed, with the identity of the files they were computed from (names, sizes
 * and times): hashing reads every file of a model (a few hundred ms of the main thread), and every
 * POST that defaults to the current version asks for its id.
 */
const hashes = new Map<string, { identity: string; hash: string }>();

/** The content hash of a source: the bundle's own, or the hash its bundle would have. */
export function sourceHash(source: Source): string {
  const where = source.bundleFile ?? source.folder!;
  const identity = source.bundleFile ? fileIdentity(source.bundleFile) : modelKey(source.folder!);
  const known = hashes.get(where);
  if (known?.identity === identity) return known.hash;
  const hash = source.bundleFile ? readBundle(source.bundleFile).hash : buildBundle(source.folder!).hash;
  hashes.set(where, { identity, hash });
  return hash;
}

function fileIdentity(file: string): string {
  const st = fs.statSync(file);
  return `${st.size}:${st.mtimeMs}`;
}

/** The id of the version row a registry source is recorded as. */
export function versionIdOf(country: string, source: Source): string {
  return catalogueId(`version:${modelName(country)}:${source.version}:${sourceHash(source)}`);
}

function versionContent(version: VersionRow, model: CountryModel): VersionContent {
  const created = version.created_at;
  const parameters: ParameterRow[] = [];
  const values: ParameterValueRow[] = [];
  for (const [path, leaf] of model.parameters.leaves()) {
    const id = catalogueId(`parameter:${version.id}:${path}`);
    parameters.push({
      id,
      tax_benefit_model_version_id: version.id,
      name: path,
      label: text(leaf.metadata.label),
      description: text(leaf.metadata.description),
      unit: text(leaf.metadata.unit),
      data_type: dataType(leaf),
      period: text(leaf.metadata.period),
      created_at: created,
    });
    leaf.values.forEach((entry, i) => {
      // A null entry ends the series: it is the previous value's end date, not a value.
      if (entry.value === null) return;
      const next = leaf.values[i + 1];
      values.push({
        id: catalogueId(`value:${id}:${entry.start}`),
        parameter_id: id,
        policy_id: null,
        dynamic_id: null,
        value_json: JSON.stringify(entry.value),
        start_date: entry.start,
        end_date: next ? previousDay(next.start) : null,
        position: i,
        created_at: created,
      });
    });
  }
  const variables: VariableRow[] = describeVariables(model).map((v) => ({
    id: catalogueId(`variable:${version.id}:${v.name}`),
    tax_benefit_model_version_id: version.id,
    name: v.name,
    entity: v.entity,
    period: v.period,
    data_type: v.type,
    unit: v.unit,
    label: v.label,
    description: v.documentation,
    possible_values: v.possible_values ? JSON.stringify(v.possible_values) : null,
    default_value: JSON.stringify(v.default_value),
    is_input: v.is_input,
    defined_for: v.defined_for,
    adds: v.adds === null ? null : JSON.stringify(v.adds),
    subtracts: v.subtracts === null ? null : JSON.stringify(v.subtracts),
    created_at: created,
  }));
  return { version, parameters, values, variables };
}

const DATA_TYPES: Record<string, string> = { number: 'float', bool: 'bool', string: 'str', list: 'list', none: 'float' };

function dataType(leaf: ParameterLeaf): string {
  return DATA_TYPES[seriesKind(leaf.values)];
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

function previousDay(date: string): string {
  const d = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return date; // year 0000 and the like: no day before it to name
  d.setUTCDate(d.getUTCDate() - 1);
  return d.toISOString().slice(0, 10);
}
