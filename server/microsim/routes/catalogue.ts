/**
 * The model catalogue: models, versions, parameters, parameter values, variables. Read-only; the
 * rows come from the models this server has (`seed.ts`).
 */
import type Router from '@koa/router';
import { pageOf } from '../../http/paging';
import type { MicrosimContext } from '../context';
import { modelNamed } from '../models';
import { valueRecord, variableRecord } from '../records';
import { checkedQuery, idParam, notFound, queryChecker } from '../request';
import { catalogueQuerySchema, listQuerySchema, parameterValuesQuerySchema, versionsQuerySchema } from '../schemas';

interface Paging { limit?: number; offset?: number }
interface CatalogueQuery extends Paging { tax_benefit_model_version_id?: string; tax_benefit_model_name?: string; country?: string; search?: string; entity?: string }

const listQuery = queryChecker<Paging>(listQuerySchema);
const versionsQuery = queryChecker<Paging & { model_id?: string; tax_benefit_model_name?: string }>(versionsQuerySchema);
const catalogueQuery = queryChecker<CatalogueQuery>(catalogueQuerySchema);
const valuesQuery = queryChecker<Paging & { parameter_id?: string; policy_id?: string; dynamic_id?: string; baseline?: boolean }>(parameterValuesQuerySchema);

export function catalogueRoutes(router: Router, ctx: MicrosimContext): void {
  const store = ctx.storage.catalogue;

  router.get('/tax-benefit-models', async (c) => {
    const page = pageOf(checkedQuery(c, listQuery));
    await ctx.catalogueReady;
    c.body = (await store.listModels()).slice(page.offset, page.offset + page.limit);
  });
  router.get('/tax-benefit-models/:id', async (c) => {
    const id = idParam(c, 'tax-benefit model');
    await ctx.catalogueReady;
    const model = await store.getModel(id);
    if (!model) throw notFound('tax-benefit model', id);
    c.body = { ...model, versions: await store.versionsOfModel(id) };
  });
  router.get('/tax-benefit-model-versions', async (c) => {
    const q = checkedQuery(c, versionsQuery);
    const modelId = q.tax_benefit_model_name ? (await modelNamed(ctx, q.tax_benefit_model_name, 'query/tax_benefit_model_name')).id : q.model_id;
    await ctx.catalogueReady;
    c.body = await store.listVersions({ modelId }, pageOf(q));
  });
  router.get('/tax-benefit-model-versions/:id', async (c) => {
    const id = idParam(c, 'tax-benefit model version');
    await ctx.catalogueReady;
    const version = await store.getVersion(id);
    if (!version) throw notFound('tax-benefit model version', id);
    c.body = version;
  });

  router.get('/parameters', async (c) => {
    const q = checkedQuery(c, catalogueQuery);
    c.body = await store.listParameters(await filterOf(ctx, q), pageOf(q));
  });
  router.get('/parameters/:id', async (c) => {
    const id = idParam(c, 'parameter');
    await ctx.catalogueReady;
    const row = await store.getParameter(id);
    if (!row) throw notFound('parameter', id);
    c.body = row;
  });

  router.get('/parameter-values', async (c) => {
    const q = checkedQuery(c, valuesQuery);
    await ctx.catalogueReady;
    const rows = await store.listParameterValues({ parameterId: q.parameter_id, policyId: q.policy_id, dynamicId: q.dynamic_id, baseline: q.baseline }, pageOf(q));
    c.body = rows.map(valueRecord);
  });
  router.get('/parameter-values/:id', async (c) => {
    const id = idParam(c, 'parameter value');
    await ctx.catalogueReady;
    const row = await store.getParameterValue(id);
    if (!row) throw notFound('parameter value', id);
    c.body = valueRecord(row);
  });

  router.get('/variables', async (c) => {
    const q = checkedQuery(c, catalogueQuery);
    c.body = (await store.listVariables({ ...(await filterOf(ctx, q)), entity: q.entity }, pageOf(q))).map(variableRecord);
  });
  router.get('/variables/:id', async (c) => {
    const id = idParam(c, 'variable');
    await ctx.catalogueReady;
    const row = await store.getVariable(id);
    if (!row) throw notFound('variable', id);
    c.body = variableRecord(row);
  });
}

/** A model name narrows to that country; a version id to that version; nothing lists every version's rows. */
async function filterOf(ctx: MicrosimContext, q: CatalogueQuery): Promise<{ versionId?: string; country?: string; search?: string }> {
  await ctx.catalogueReady;
  let country = q.country;
  if (q.tax_benefit_model_name) country = (await modelNamed(ctx, q.tax_benefit_model_name, 'query/tax_benefit_model_name')).country;
  return { versionId: q.tax_benefit_model_version_id, country, search: q.search };
}
