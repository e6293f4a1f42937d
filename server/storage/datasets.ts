/** Registered datasets (the HDF5 files themselves live in the storage folder). */
import type { Database } from './db';
import type { DatasetRow, Page } from './rows';

export class DatasetStore {
  constructor(private readonly db: Database) {}

  async create(row: DatasetRow): Promise<void> {
    await this.db.knex('datasets').insert(row);
  }

  /** Registers a country's default dataset once; false when another process did it first. */
  async createDefault(row: DatasetRow): Promise<boolean> {
    const inserted = await this.db.knex('datasets').insert(row).onConflict('default_for').ignore().returning('id');
    return (inserted as unknown[]).length > 0;
  }

  get(id: string): Promise<DatasetRow | undefined> {
    return this.db.knex('datasets').where({ id }).first();
  }

  defaultFor(country: string): Promise<DatasetRow | undefined> {
    return this.db.knex('datasets').where({ default_for: country }).first();
  }

  list(filter: { modelId?: string }, page: Page): Promise<DatasetRow[]> {
    const q = this.db.knex('datasets').select('*');
    if (filter.modelId) q.where({ tax_benefit_model_id: filter.modelId });
    return q.orderBy([{ column: 'created_at' }, { column: 'id' }]).limit(page.limit).offset(page.offset);
  }

  /** Deletes unless a simulation uses it (check and delete in one transaction). */
  async delete(id: string): Promise<'deleted' | 'missing' | { usedBy: string[] }> {
    return this.db.knex.transaction(async (trx) => {
      if (!(await trx('datasets').where({ id }).first('id'))) return 'missing';
      const users = await trx('simulations').where({ dataset_id: id }).limit(5).pluck('id');
      if (users.length > 0) return { usedBy: users as string[] };
      await trx('datasets').where({ id }).delete();
      return 'deleted';
    });
  }
}
