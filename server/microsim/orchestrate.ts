/**
 * Creating simulations and reports: deterministic ids, one row per id whatever the races, a job
 * for each new piece of work, and a failed one run again when asked for again (a completed one
 * never is).
 */
import { ApiError } from '../http/errors';
import type { Job } from '../queue/types';
import { regions } from '../simulation';
import { now, reportId, simulationId, type SimulationKey } from '../storage/ids';
import type { DatasetRow, ReportRow, SimulationRow, VersionRow } from '../storage/rows';
import type { MicrosimContext } from './context';
import { modelOfVersion } from './models';

export interface SimulationRequest {
  dataset: DatasetRow;
  version: VersionRow;
  policyId: string | null;
  dynamicId: string | null;
  region: string | null;
  year: number;
}

/**
 * The simulation of these inputs, created and queued if new; `created` says which. With `later`,
 * its job is pushed there for the caller to queue (a report queues its simulations once the
 * report exists, so that a worker running one finds the other to run in the same pass).
 */
export async function ensureSimulation(ctx: MicrosimContext, r: SimulationRequest, later?: Job[]): Promise<{ row: SimulationRow; created: boolean }> {
  const key: SimulationKey = { dataset_id: r.dataset.id, tax_benefit_model_version_id: r.version.id, policy_id: r.policyId, dynamic_id: r.dynamicId, region: r.region, year: r.year };
  const id = simulationId(key);
  const time = now();
  const created = await ctx.storage.simulations.insert({
    id, ...key, status: 'pending', progress: 0, error_message: null, attempts: 0, owner: null, heartbeat_at: null, summary: null, output_file: null,
    created_at: time, updated_at: time, started_at: null, completed_at: null,
  });
  if (created || (await ctx.storage.simulations.retryFailed(id))) {
    if (later) later.push({ kind: 'simulation', id });
    else await ctx.queue.enqueue({ kind: 'simulation', id });
  }
  const row = await ctx.storage.simulations.get(id);
  if (!row) throw new ApiError(500, `simulation ${id} vanished after it was written`);
  return { row, created };
}

/** Checks what a simulation request names, then ensures the simulation. */
export async function checkRequest(ctx: MicrosimContext, r: SimulationRequest): Promise<void> {
  const model = await modelOfVersion(ctx, r.version);
  if (model.id !== r.dataset.tax_benefit_model_id) {
    throw new ApiError(422, `The dataset ${r.dataset.id} is not a dataset of ${model.name}: it cannot be simulated with it`, [{ path: 'dataset_id', message: `is not a dataset of ${model.name}` }]);
  }
  if (r.policyId && !(await ctx.storage.policies.get(r.policyId))) throw new ApiError(404, `No policy with id ${r.policyId}`);
  if (r.dynamicId && !(await ctx.storage.dynamics.get(r.dynamicId))) throw new ApiError(404, `No dynamic with id ${r.dynamicId}`);
  if (r.region !== null) {
    if (!regions(model.country).some((k) => k.name === r.region)) {
      throw new ApiError(422, `region: "${r.region}" is not a region of ${model.country} (see GET /regions?tax_benefit_model_name=${model.name})`, [{ path: 'region', message: `is not a region of ${model.country}` }]);
    }
  }
}

/** The report on a baseline and a reform simulation, created if new; queued when both are done already. */
export async function ensureReport(ctx: MicrosimContext, baseline: SimulationRow, reform: SimulationRow): Promise<ReportRow> {
  const id = reportId(baseline.id, reform.id);
  const time = now();
  const created = await ctx.storage.simulations.insertReport({
    id, kind: 'economic_impact', baseline_simulation_id: baseline.id, reform_simulation_id: reform.id, status: 'pending', error_message: null, result: null, created_at: time, updated_at: time, completed_at: null,
  });
  if (!created) await ctx.storage.simulations.retryFailedReport(id);
  // Simulations that finished before the report existed did not know of it: queue it now (a
  // report computed twice is stored once).
  const [b, r] = await Promise.all([ctx.storage.simulations.get(baseline.id), ctx.storage.simulations.get(reform.id)]);
  const pending = await ctx.storage.simulations.getReport(id);
  if (pending?.status === 'pending' && b?.status === 'completed' && r?.status === 'completed') await ctx.queue.enqueue({ kind: 'report', id });
  const row = await ctx.storage.simulations.getReport(id);
  if (!row) throw new ApiError(500, `report ${id} vanished after it was written`);
  return row;
}
