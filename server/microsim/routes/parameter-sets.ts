/**
 * `/policies` and `/dynamics`: named sets of parameter values. A policy is a reform of any
 * parameter; a dynamic holds behavioural parameters (under gov.simulation) applied to a reform
 * simulation as responses. Both are checked item by item against their model version and stored
 * whole or not at all; neither can be deleted while a simulation uses it.
 */
import type Router from '@koa/router';
import { ApiError } from '../../http/errors';
import { pageOf } from '../../http/paging';
import { newId, now } from '../../storage/ids';
import type { ParameterSetStore } from '../../storage/parameter-sets';
import type { ParameterSetRow, VersionRow } from '../../storage/rows';
import type { MicrosimContext } from '../context';
import { currentVersion, modelNamed, versionById } from '../models';
import { checkParameterValues, type ParameterValueInput } from '../parameter-values';
import { valueRecord, type ParameterSetRecord } from '../records';
import { bodyChecker, checkedBody, checkedQuery, created, idParam, notFound, queryChecker } from '../request';
import { listQuerySchema, parameterSetInputSchema } from '../schemas';

export interface ParameterSetInput {
  name: string;
  description?: string | null;
  tax_benefit_model_name?: string;
  tax_benefit_model_version_id?: string;
  parameter_values?: ParameterValueInput[];
}

const input = bodyChecker<ParameterSetInput>(parameterSetInputSchema);
const listQuery = queryChecker<{ limit?: number; offset?: number }>(listQuerySchema);

/** Dynamics may only set behavioural parameters. */
export const DYNAMIC_ROOT = 'gov.simulation.';

export function parameterSetRoutes(router: Router, ctx: MicrosimContext, kind: 'policy' | 'dynamic'): void {
  const store = kind === 'policy' ? ctx.storage.policies : ctx.storage.dynamics;
  const base = kind === 'policy' ? '/policies' : '/dynamics';

  router.post(base, async (c) => {
    const body = await checkedBody(c, input, ctx.limits.maxBodyBytes);
    let version = await requestedVersion(ctx, body);
    const id = newId();
    const owner = kind === 'policy' ? { policy_id: id, dynamic_id: null } : { policy_id: null, dynamic_id: id };
    const checked = await checkParameterValues(ctx, body.parameter_values ?? [], version, owner, { onlyUnder: kind === 'dynamic' ? DYNAMIC_ROOT : undefined });
    version = checked.version;
    const time = now();
    const row: ParameterSetRow = { id, name: body.name, description: body.description ?? null, tax_benefit_model_version_id: version?.id ?? null, created_at: time, updated_at: time };
    await store.create(row, checked.rows);
    created(c, await recordOf(store, row), `${base}/${id}`);
  });

  router.get(base, async (c) => {
    const rows = await store.list(pageOf(checkedQuery(c, listQuery)));
    c.body = await Promise.all(rows.map((row) => recordOf(store, row)));
  });

  router.get(`${base}/:id`, async (c) => {
    const id = idParam(c, kind);
    const row = await store.get(id);
    if (!row) throw notFound(kind, id);
    c.body = await recordOf(store, row);
  });

  router.delete(`${base}/:id`, async (c) => {
    const id = idParam(c, kind);
    const outcome = await store.delete(id);
    if (outcome === 'missing') throw notFound(kind, id);
    if (outcome !== 'deleted') {
      throw new ApiError(409, `The ${kind} ${id} is used by simulation${outcome.usedBy.length > 1 ? 's' : ''} ${outcome.usedBy.join(', ')}: it cannot be deleted while a simulation uses it`, undefined, { used_by: outcome.usedBy });
    }
    c.status = 204;
  });
}

async function requestedVersion(ctx: MicrosimContext, body: ParameterSetInput): Promise<VersionRow | undefined> {
  if (body.tax_benefit_model_version_id) return versionById(ctx, body.tax_benefit_model_version_id.toLowerCase(), 'tax_benefit_model_version_id');
  if (body.tax_benefit_model_name) return currentVersion(ctx, await modelNamed(ctx, body.tax_benefit_model_name));
  await ctx.catalogueReady;
  // One model on this server: names can only mean it.
  const models = await ctx.storage.catalogue.listModels();
  return models.length === 1 ? currentVersion(ctx, models[0]) : undefined;
}

async function recordOf(store: ParameterSetStore, row: ParameterSetRow): Promise<ParameterSetRecord> {
  return { ...row, parameter_values: (await store.values(row.id)).map(valueRecord) };
}
