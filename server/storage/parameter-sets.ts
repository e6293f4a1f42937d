/**
 * Policies and dynamics: named sets of parameter values. They are stored alike (a row, and
 * parameter_values rows pointing at it), so one store serves both, told apart by `kind`.
 */
import type { Database } from './db';
import type { Page, ParameterSetRow, ParameterValueRow } from './rows';

export type ParameterSetKind = 'policy' | 'dynamic';

const TABLE: Record<ParameterSetKind, string> = { policy: 'policies', dynamic: 'dynamics' };
const LINK: Record<ParameterSetKind, 'policy_id' | 'dynamic_id'> = { policy: 'policy_id', dynamic: 'dynamic_id' };

export class ParameterSetStore {
  constructor(private readonly db: Database, readonly kind: ParameterSetKind) {}

  /** The set and its values in one transaction: a rejected or failed write leaves nothing behind. */
  async create(row: ParameterSetRow, values: ParameterValueRow[]): Promise<void> {
    await this.db.knex.transaction(async (trx) => {
      await trx(TABLE[this.kind]).insert(row);
      if (values.length > 0) await trx.batchInsert('parameter_values', values, 100);
    });
  }

  get(id: string): Promise<ParameterSetRow | undefined> {
    return this.db.knex(TABLE[this.kind]).where({ id }).first();
  }

  list(page: Page): Promise<ParameterSetRow[]> {
    return this.db.knex(TABLE[this.kind]).select('*').orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(page.limit).offset(page.offset);
  }

  /** Values of one set with their parameter's name, in the order they were given. */
  values(id: string): Promise<(ParameterValueRow & { parameter_name: string })[]> {
    return this.db.knex('parameter_values as pv')
      .join('parameters as p', 'p.id', 'pv.parameter_id')
      .where(`pv.${LINK[this.kind]}`, id)
      .select('pv.*', 'p.name as parameter_name')
      .orderBy('pv.position');
  }

  /**
   * Deletes the set unless a simulation uses it; the check and the delete are one transaction so a
   * simulation created meanwhile cannot be left pointing at nothing (its foreign key would refuse).
   */
  async delete(id: string): Promise<'deleted' | 'missing' | { usedBy: string[] }> {
    return this.db.knex.transaction(async (trx) => {
      if (!(await trx(TABLE[this.kind]).where({ id }).first('id'))) return 'missing';
      const users = await trx('simulations').where(LINK[this.kind], id).limit(5).pluck('id');
      if (users.length > 0) return { usedBy: users as string[] };
      await trx('parameter_values').where(LINK[this.kind], id).delete();
      await trx(TABLE[this.kind]).where({ id }).delete();
      return 'deleted';
    });
  }
}
