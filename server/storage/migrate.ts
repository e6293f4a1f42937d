/** Runs the migrations that have not run yet; used at start and by `fiscus db migrate`. */
import type { Database } from './db';
import { migrationSource } from './migrations';

export interface MigrationResult {
  applied: string[];
  current: string[];
}

function options(db: Database) {
  return { migrationSource, tableName: 'fiscus_migrations', schemaName: db.config.schema };
}

export async function migrate(db: Database): Promise<MigrationResult> {
  const [, applied] = (await db.knex.migrate.latest(options(db))) as [number, string[]];
  const [done] = (await db.knex.migrate.list(options(db))) as [{ name: string }[], unknown[]];
  return { applied, current: done.map((m) => (typeof m === 'string' ? m : m.name)) };
}

/** Undoes the last batch (for `fiscus db rollback`, in development only). */
export async function rollback(db: Database): Promise<string[]> {
  const [, undone] = (await db.knex.migrate.rollback(options(db))) as [number, string[]];
  return undone;
}
