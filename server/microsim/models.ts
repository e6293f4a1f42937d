/**
 * From what clients send to catalogue rows: a model name in any accepted form to its model, and a
 * model to the version row of what the server serves as `current`.
 */
import { ApiError } from '../http/errors';
import type { ModelRow, VersionRow } from '../storage/rows';
import type { MicrosimContext } from './context';
import { countryOfModelName } from './model-names';
import { seedCatalogue, versionIdOf } from './seed';

/** 422 for a name of no known form (with the path of the field), 404 for a country we do not have. */
export async function modelNamed(ctx: MicrosimContext, name: string, field = 'tax_benefit_model_name'): Promise<ModelRow> {
  const country = countryOfModelName(name);
  if (!country) throw new ApiError(422, `${field}: "${name}" is not a model name (fiscus-uk, fiscus_uk, uk, service_uk, policyengine_uk)`, [{ path: field, message: `"${name}" is not a model name` }]);
  await ctx.catalogueReady;
  const model = await ctx.storage.catalogue.modelByCountry(country);
  if (!model) {
    const known = (await ctx.storage.catalogue.listModels()).map((m) => m.name);
    throw new ApiError(404, `No tax-benefit model "${name}" here (models: ${known.join(', ') || 'none'})`);
  }
  return model;
}

/** The version row of the country's `current` model (seeded now if the tree changed since start). */
export async function currentVersion(ctx: MicrosimContext, model: ModelRow): Promise<VersionRow> {
  await ctx.catalogueReady;
  const source = ctx.registry.currentSource(model.country);
  if (!source) throw new ApiError(404, `The ${model.name} model has no version on this server`);
  const id = versionIdOf(model.country, source);
  let row = await ctx.storage.catalogue.getVersion(id);
  if (!row) {
    await seedCatalogue(ctx.registry, ctx.storage.catalogue, ctx.log);
    row = await ctx.storage.catalogue.getVersion(id);
  }
  if (!row) throw new ApiError(500, `The current ${model.name} version ${source.version} could not be recorded in the catalogue`);
  return row;
}

export async function versionById(ctx: MicrosimContext, id: string, field: string): Promise<VersionRow> {
  await ctx.catalogueReady;
  const row = await ctx.storage.catalogue.getVersion(id);
  if (!row) throw new ApiError(404, `No tax-benefit model version with id ${id} (${field})`);
  return row;
}

export async function modelOfVersion(ctx: MicrosimContext, version: VersionRow): Promise<ModelRow> {
  const model = await ctx.storage.catalogue.getModel(version.model_id);
  if (!model) throw new ApiError(500, `Version ${version.id} names a model that is not in the catalogue`);
  return model;
}
