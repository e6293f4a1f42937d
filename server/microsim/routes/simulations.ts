/**
 * `/simulations`, `/analysis/economic-impact` and `/regions`. POSTs answer at once: the work is
 * queued, and clients poll the record (`status`, `progress`) until it is completed or failed.
 */
import type Router from '@koa/router';
import { ApiError } from '../../http/errors';
import { regions } from '../../simulation';
import { pageOf } from '../../http/paging';
import type { MicrosimContext } from '../context';
import { currentVersion, modelNamed, versionById } from '../models';
import { checkRequest, ensureReport, ensureSimulation, type SimulationRequest } from '../orchestrate';
import type { Job } from '../../queue/types';
import { reportStatus, simulationRecord, type ReportRecord } from '../records';
import { bodyChecker, checkedBody, checkedQuery, idParam, notFound, queryChecker } from '../request';
import { economicImpactInputSchema, regionsQuerySchema, simulationInputSchema, simulationsQuerySchema } from '../schemas';

export interface SimulationInput {
  dataset_id: string;
  tax_benefit_model_version_id?: string;
  policy_id?: string | null;
  dynamic_id?: string | null;
  region?: string | null;
  year?: number;
}

export interface EconomicImpactInput {
  tax_benefit_model_name: string;
  dataset_id: string;
  policy_id?: string | null;
  dynamic_id?: string | null;
  year?: number;
  region?: string | null;
}

const simulationInput = bodyChecker<SimulationInput>(simulationInputSchema);
const impactInput = bodyChecker<EconomicImpactInput>(economicImpactInputSchema);
const listQuery = queryChecker<{ limit?: number; offset?: number; status?: string; dataset_id?: string }>(simulationsQuerySchema);
const regionsQuery = queryChecker<{ tax_benefit_model_name?: string; country?: string }>(regionsQuerySchema);

export function simulationRoutes(router: Router, ctx: MicrosimContext): void {
  const sims = ctx.storage.simulations;

  router.post('/simulations', async (c) => {
    const body = await checkedBody(c, simulationInput, ctx.limits.maxBodyBytes);
    const dataset = await ctx.storage.datasets.get(body.dataset_id.toLowerCase());
    if (!dataset) throw notFound('dataset', body.dataset_id);
    const model = await ctx.storage.catalogue.getModel(dataset.tax_benefit_model_id);
    const version = body.tax_benefit_model_version_id ? await versionById(ctx, body.tax_benefit_model_version_id.toLowerCase(), 'tax_benefit_model_version_id') : await currentVersion(ctx, model!);
    const request: SimulationRequest = { dataset, version, policyId: lower(body.policy_id), dynamicId: lower(body.dynamic_id), region: body.region ?? null, year: body.year ?? yearOf(dataset.year) };
    await checkRequest(ctx, request);
    const { row, created } = await ensureSimulation(ctx, request);
    c.status = created ? 201 : 200;
    c.set('Location', `/simulations/${row.id}`);
    c.body = simulationRecord(row);
  });

  router.get('/simulations', async (c) => {
    const q = checkedQuery(c, listQuery);
    c.body = (await sims.list({ status: q.status, datasetId: q.dataset_id }, pageOf(q))).map(simulationRecord);
  });

  router.get('/simulations/:id', async (c) => {
    const id = idParam(c, 'simulation');
    const row = await sims.get(id);
    if (!row) throw notFound('simulation', id);
    c.body = simulationRecord(row);
  });

  router.post('/analysis/economic-impact', async (c) => {
    const body = await checkedBody(c, impactInput, ctx.limits.maxBodyBytes);
    const model = await modelNamed(ctx, body.tax_benefit_model_name);
    const dataset = await ctx.storage.datasets.get(body.dataset_id.toLowerCase());
    if (!dataset) throw notFound('dataset', body.dataset_id);
    const version = await currentVersion(ctx, model);
    const common = { dataset, version, region: body.region ?? null, year: body.year ?? yearOf(dataset.year) };
    // The dynamic (behavioural responses to the reform) applies to the reform simulation only.
    const baselineRequest: SimulationRequest = { ...common, policyId: null, dynamicId: null };
    const reformRequest: SimulationRequest = { ...common, policyId: lower(body.policy_id), dynamicId: lower(body.dynamic_id) };
    await checkRequest(ctx, reformRequest);
    const jobs: Job[] = [];
    const baseline = await ensureSimulation(ctx, baselineRequest, jobs);
    const reform = await ensureSimulation(ctx, reformRequest, jobs);
    const report = await ensureReport(ctx, baseline.row, reform.row);
    for (const job of jobs) await ctx.queue.enqueue(job);
    c.body = await reportRecord(ctx, report.id);
  });

  router.get('/analysis/economic-impact/:id', async (c) => {
    c.body = await reportRecord(ctx, idParam(c, 'economic-impact report'));
  });

  router.get('/regions', async (c) => {
    const q = checkedQuery(c, regionsQuery);
    const countries = q.tax_benefit_model_name ? [(await modelNamed(ctx, q.tax_benefit_model_name, 'query/tax_benefit_model_name')).country] : q.country ? [q.country] : ctx.registry.countries();
    c.body = countries.flatMap((country) => regions(country).map((r) => ({ ...r, country })));
  });
}

async function reportRecord(ctx: MicrosimContext, id: string): Promise<ReportRecord & Record<string, unknown>> {
  const report = await ctx.storage.simulations.getReport(id);
  if (!report) throw notFound('economic-impact report', id);
  const [baseline, reform] = await Promise.all([ctx.storage.simulations.get(report.baseline_simulation_id), ctx.storage.simulations.get(report.reform_simulation_id)]);
  if (!baseline || !reform) throw new ApiError(500, `report ${id} names simulations that are not stored`);
  const { status, error_message } = reportStatus(report, baseline, reform);
  const record: ReportRecord & Record<string, unknown> = {
    report_id: report.id,
    status,
    error_message,
    baseline_simulation: simulationRecord(baseline),
    reform_simulation: simulationRecord(reform),
    created_at: report.created_at,
    completed_at: report.completed_at,
  };
  // The report's fields (decile_impacts, program_statistics, ...) sit at the top level, as PolicyEngine's do.
  if (status === 'completed' && report.result) Object.assign(record, JSON.parse(report.result) as Record<string, unknown>);
  return record;
}

function lower(id: string | null | undefined): string | null {
  return id ? id.toLowerCase() : null;
}

function yearOf(year: number | null): number {
  if (year === null) throw new ApiError(422, 'year: is required (the dataset does not say which year it holds)', [{ path: 'year', message: 'is required' }]);
  return year;
}
