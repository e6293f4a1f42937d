/**
 * `/datasets`: HDF5 microdata registered from the storage folder (`filepath`) or uploaded
 * (`POST /datasets/upload`, the file as the body). A dataset is read and checked against its model
 * when registered; problems come back as 422 naming table, column and first bad row.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type Router from '@koa/router';
import type Koa from 'koa';
import { ApiError } from '../../http/errors';
import { pageOf } from '../../http/paging';
import { newId } from '../../storage/ids';
import type { ModelRow, VersionRow } from '../../storage/rows';
import type { MicrosimContext } from '../context';
import { datasetRowFor, storagePath } from '../dataset-files';
import { currentVersion, modelNamed, modelOfVersion, versionById } from '../models';
import { datasetRecord } from '../records';
import { bodyChecker, checkedBody, checkedQuery, created, idParam, notFound, queryChecker } from '../request';
import { datasetInputSchema, datasetsQuerySchema } from '../schemas';

export interface DatasetInput {
  name: string;
  description?: string | null;
  filepath: string;
  year?: number;
  tax_benefit_model_name?: string;
  tax_benefit_model_version_id?: string;
}

const input = bodyChecker<DatasetInput>(datasetInputSchema);
const listQuery = queryChecker<{ limit?: number; offset?: number; tax_benefit_model_name?: string }>(datasetsQuerySchema);
const { filepath: _filepath, ...uploadProperties } = datasetInputSchema.properties;
const uploadQuery = queryChecker<Omit<DatasetInput, 'filepath'>>({ ...datasetInputSchema, required: ['name'], properties: uploadProperties });

export function datasetRoutes(router: Router, ctx: MicrosimContext): void {
  const store = ctx.storage.datasets;

  router.post('/datasets', async (c) => {
    const body = await checkedBody(c, input, ctx.limits.maxBodyBytes);
    const { model, version } = await modelAndVersion(ctx, body);
    const row = await datasetRowFor(ctx, { name: body.name, description: body.description ?? null, file: storagePath(ctx, body.filepath), year: body.year, model, version });
    await store.create(row);
    created(c, datasetRecord(row, model.name), `/datasets/${row.id}`);
  });

  router.post('/datasets/upload', async (c) => {
    const q = checkedQuery(c, uploadQuery);
    const { model, version } = await modelAndVersion(ctx, q);
    const file = path.join(ctx.storageDir, 'uploads', `${newId()}.h5`);
    await receiveFile(c, file, ctx.limits.maxUploadBytes);
    try {
      const row = await datasetRowFor(ctx, { name: q.name, description: q.description ?? null, file, year: q.year, model, version });
      await store.create(row);
      created(c, datasetRecord(row, model.name), `/datasets/${row.id}`);
    } catch (error) {
      fs.rmSync(file, { force: true }); // a refused upload leaves nothing behind
      throw error;
    }
  });

  router.get('/datasets', async (c) => {
    const q = checkedQuery(c, listQuery);
    const modelId = q.tax_benefit_model_name ? (await modelNamed(ctx, q.tax_benefit_model_name, 'query/tax_benefit_model_name')).id : undefined;
    const names = await modelNames(ctx);
    c.body = (await store.list({ modelId }, pageOf(q))).map((row) => datasetRecord(row, names.get(row.tax_benefit_model_id) ?? null));
  });

  router.get('/datasets/:id', async (c) => {
    const id = idParam(c, 'dataset');
    const row = await store.get(id);
    if (!row) throw notFound('dataset', id);
    c.body = datasetRecord(row, (await modelNames(ctx)).get(row.tax_benefit_model_id) ?? null);
  });

  router.delete('/datasets/:id', async (c) => {
    const id = idParam(c, 'dataset');
    const row = await store.get(id);
    const outcome = await store.delete(id);
    if (outcome === 'missing' || !row) throw notFound('dataset', id);
    if (outcome !== 'deleted') throw new ApiError(409, `The dataset ${id} is used by simulation${outcome.usedBy.length > 1 ? 's' : ''} ${outcome.usedBy.join(', ')}: it cannot be deleted while a simulation uses it`, undefined, { used_by: outcome.usedBy });
    // Uploaded files belong to the dataset; a registered file was the client's and stays.
    if (row.filepath.startsWith('uploads/')) fs.rmSync(path.join(ctx.storageDir, row.filepath), { force: true });
    c.status = 204;
  });
}

async function modelAndVersion(ctx: MicrosimContext, body: { tax_benefit_model_name?: string; tax_benefit_model_version_id?: string }): Promise<{ model: ModelRow; version: VersionRow }> {
  if (body.tax_benefit_model_version_id) {
    const version = await versionById(ctx, body.tax_benefit_model_version_id.toLowerCase(), 'tax_benefit_model_version_id');
    const model = await modelOfVersion(ctx, version);
    if (body.tax_benefit_model_name && (await modelNamed(ctx, body.tax_benefit_model_name)).id !== model.id) {
      throw new ApiError(422, `tax_benefit_model_name ${body.tax_benefit_model_name} does not match the version's model ${model.name}`, [{ path: 'tax_benefit_model_name', message: `is not the model of version ${version.id}` }]);
    }
    return { model, version };
  }
  let model: ModelRow;
  if (body.tax_benefit_model_name) model = await modelNamed(ctx, body.tax_benefit_model_name);
  else {
    await ctx.catalogueReady;
    const models = await ctx.storage.catalogue.listModels();
    if (models.length !== 1) throw new ApiError(422, 'tax_benefit_model_name: is required (this server has several models)', [{ path: 'tax_benefit_model_name', message: 'is required' }]);
    model = models[0];
  }
  return { model, version: await currentVersion(ctx, model) };
}

async function modelNames(ctx: MicrosimContext): Promise<Map<string, string>> {
  return new Map((await ctx.storage.catalogue.listModels()).map((m) => [m.id, m.name]));
}

/** Streams the request body to a file, refusing (413) past the limit before writing it all. */
async function receiveFile(c: Koa.Context, file: string, limit: number): Promise<void> {
  const declared = Number(c.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) {
    c.req.resume();
    throw new ApiError(413, `The upload is larger than the limit of ${limit} bytes`);
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let size = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > limit) return done(new ApiError(413, `The upload is larger than the limit of ${limit} bytes`));
      done(null, chunk);
    },
  });
  try {
    await pipeline(c.req, counter, fs.createWriteStream(file));
  } catch (error) {
    fs.rmSync(file, { force: true });
    c.req.resume();
    throw error instanceof ApiError ? error : new ApiError(400, `The upload could not be received: ${(error as Error).message}`);
  }
  if (size === 0) {
    fs.rmSync(file, { force: true });
    throw new ApiError(422, 'The upload is empty: send the HDF5 file as the request body', [{ path: '(body)', message: 'is empty' }]);
  }
}
