/**
 * From a catalogue version row to a loadable model folder: the working tree when its content is
 * still the row's (same hash), or the released bundle of that version, unpacked. A version whose
 * content is no longer anywhere (the tree was edited and never released) cannot run any more.
 */
import { ApiError } from '../http/errors';
import type { Source } from '../models/registry';
import type { VersionRow } from '../storage/rows';
import type { MicrosimContext } from './context';
import { versionIdOf } from './seed';

export async function sourceOf(ctx: Pick<MicrosimContext, 'registry' | 'storage'>, version: VersionRow): Promise<Source> {
  const model = await ctx.storage.catalogue.getModel(version.model_id);
  if (!model) throw new ApiError(500, `version ${version.id} names an unknown model`);
  const source = ctx.registry.sources(model.country).find((s) => s.version === version.version && versionIdOf(model.country, s) === version.id);
  if (!source) {
    throw new ApiError(422, `${model.name} ${version.version} (sha256 ${version.hash.slice(0, 12)}) is no longer on this server: the working tree changed since, and this content was never released as a bundle`);
  }
  return source;
}

/** The folder path of a version (for the simulation runner). */
export async function modelFolderPath(ctx: Pick<MicrosimContext, 'registry' | 'storage'>, version: VersionRow): Promise<{ country: string; folder: string }> {
  const model = await ctx.storage.catalogue.getModel(version.model_id);
  const source = await sourceOf(ctx, version);
  return { country: model!.country, folder: ctx.registry.folderOf(source) };
}
