/**
 * Simulations and reports. Every status change is one conditional UPDATE (or a transaction), so
 * concurrent workers cannot both believe they own a simulation: a write names the owner it
 * expects, and a worker that lost its claim (its lease was taken over) writes nothing.
 */
import type { Database } from './db';
import { now } from './ids';
import type { Page, ReportRow, SimulationRow } from './rows';

export type ClaimResult = { claimed: SimulationRow } | { skipped: 'completed' | 'busy' | 'missing' | 'failed' };

export class SimulationStore {
  constructor(private readonly db: Database) {}

  /** Inserts unless the id exists (two identical POSTs racing: one row). True when this call created it. */
  async insert(row: SimulationRow): Promise<boolean> {
    const inserted = await this.db.knex('simulations').insert(row).onConflict('id').ignore().returning('id');
    return (inserted as unknown[]).length > 0;
  }

  get(id: string): Promise<SimulationRow | undefined> {
    return this.db.knex('simulations').where({ id }).first();
  }

  list(filter: { status?: string; datasetId?: string }, page: Page): Promise<SimulationRow[]> {
    const q = this.db.knex('simulations').select('*');
    if (filter.status) q.where({ status: filter.status });
    if (filter.datasetId) q.where({ dataset_id: filter.datasetId });
    return q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(page.limit).offset(page.offset);
  }

  /**
   * Takes a simulation to run. A pending one is free; a running one is taken over when its
   * heartbeat is older than `staleBefore` (its owner died) or when `force` (the queue says the
   * previous holder lost the job: bee-queue's stall detection).
   */
  async claim(id: string, owner: string, options: { staleBefore: string; force?: boolean; maxAttempts: number }): Promise<ClaimResult> {
    const time = now();
    const updated = await this.db.knex('simulations')
      .where({ id })
      .andWhere((w) => {
        w.where('status', 'pending').orWhere((r) => {
          r.where('status', 'running');
          if (!options.force) r.andWhere((s) => s.whereNull('heartbeat_at').orWhere('heartbeat_at', '<', options.staleBefore).orWhere('owner', owner));
        });
      })
      .update({ status: 'running', owner, heartbeat_at: time, updated_at: time, started_at: time, progress: 0, attempts: this.db.knex.raw('attempts + 1') });
    const row = await this.get(id);
    if (!row) return { skipped: 'missing' };
    if (updated === 1 && row.owner === owner) {
      if (row.attempts > options.maxAttempts) {
        await this.fail(id, owner, `gave up after ${row.attempts - 1} attempts: the worker running it stopped each time (killed, or out of memory?)`);
        return { skipped: 'failed' };
      }
      return { claimed: row };
    }
    if (row.status === 'completed') return { skipped: 'completed' };
    if (row.status === 'failed') return { skipped: 'failed' };
    return { skipped: 'busy' };
  }

  /** Progress and proof of life; false when the claim was lost. */
  async heartbeat(id: string, owner: string, progress: number): Promise<boolean> {
    const time = now();
    const n = await this.db.knex('simulations').where({ id, owner, status: 'running' }).update({ progress, heartbeat_at: time, updated_at: time });
    return n === 1;
  }

  async complete(id: string, owner: string, summary: unknown, outputFile: string): Promise<boolean> {
    const time = now();
    const n = await this.db.knex('simulations')
      .where({ id, owner, status: 'running' })
      .update({ status: 'completed', progress: 1, summary: JSON.stringify(summary), output_file: outputFile, error_message: null, completed_at: time, updated_at: time, heartbeat_at: time });
    return n === 1;
  }

  async fail(id: string, owner: string | null, message: string): Promise<boolean> {
    const time = now();
    const q = this.db.knex('simulations').where({ id }).whereIn('status', ['running', 'pending']);
    if (owner) q.andWhere({ owner });
    const n = await q.update({ status: 'failed', error_message: message, completed_at: time, updated_at: time });
    return n === 1;
  }

  /** Back to pending for another attempt (the error is kept as the reason of the last one). */
  async release(id: string, owner: string, message: string): Promise<boolean> {
    const n = await this.db.knex('simulations').where({ id, owner, status: 'running' }).update({ status: 'pending', owner: null, error_message: message, updated_at: now() });
    return n === 1;
  }

  /** A failed simulation asked for again: it runs again (a completed one never does). */
  async retryFailed(id: string): Promise<boolean> {
    const n = await this.db.knex('simulations').where({ id, status: 'failed' }).update({ status: 'pending', error_message: null, progress: 0, attempts: 0, owner: null, completed_at: null, updated_at: now() });
    return n === 1;
  }

  /**
   * A completed simulation whose output file was lost (its process died before the file was
   * written) runs again; attempts are kept, so one whose file is lost every time ends failed.
   */
  async rerunLost(id: string, message: string): Promise<boolean> {
    const n = await this.db.knex('simulations').where({ id, status: 'completed' }).update({ status: 'pending', owner: null, progress: 0, summary: null, output_file: null, error_message: message, completed_at: null, updated_at: now() });
    return n === 1;
  }

  /** Simulations left pending, or running under an owner that stopped beating (for recovery at start). */
  async orphans(staleBefore: string): Promise<string[]> {
    return this.db.knex('simulations')
      .where('status', 'pending')
      .orWhere((w) => w.where('status', 'running').andWhere((s) => s.whereNull('heartbeat_at').orWhere('heartbeat_at', '<', staleBefore)))
      .orderBy('created_at')
      .pluck('id');
  }

  // Reports -----------------------------------------------------------------------------------

  async insertReport(row: ReportRow): Promise<boolean> {
    const inserted = await this.db.knex('reports').insert(row).onConflict('id').ignore().returning('id');
    return (inserted as unknown[]).length > 0;
  }

  getReport(id: string): Promise<ReportRow | undefined> {
    return this.db.knex('reports').where({ id }).first();
  }

  /** Reports waiting on a simulation. */
  openReportsOf(simulationId: string): Promise<ReportRow[]> {
    return this.db.knex('reports')
      .where((w) => w.where('baseline_simulation_id', simulationId).orWhere('reform_simulation_id', simulationId))
      .andWhere('status', 'pending');
  }

  /** Stores a report's result once (a second computation of the same report writes nothing). */
  async completeReport(id: string, result: unknown): Promise<boolean> {
    const time = now();
    const n = await this.db.knex('reports').where({ id, status: 'pending' }).update({ status: 'completed', result: JSON.stringify(result), error_message: null, completed_at: time, updated_at: time });
    return n === 1;
  }

  async failReport(id: string, message: string): Promise<boolean> {
    const time = now();
    const n = await this.db.knex('reports').where({ id, status: 'pending' }).update({ status: 'failed', error_message: message, completed_at: time, updated_at: time });
    return n === 1;
  }

  async retryFailedReport(id: string): Promise<boolean> {
    const n = await this.db.knex('reports').where({ id, status: 'failed' }).update({ status: 'pending', error_message: null, completed_at: null, updated_at: now() });
    return n === 1;
  }
}
