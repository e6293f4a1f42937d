/**
 * The schema's history, in order. A migration, once released, is never edited: a change is a new
 * file appended here (knex records which ran, and refuses a history that lost one).
 */
import type { Knex } from 'knex';
import * as m001 from './001-catalogue';
import * as m002 from './002-simulations';

interface Migration {
  name: string;
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

export const MIGRATIONS: readonly Migration[] = [m001, m002];

/** knex's migration source over the list above (no files are scanned at run time). */
export const migrationSource: Knex.MigrationSource<Migration> = {
  getMigrations: async () => [...MIGRATIONS],
  getMigrationName: (m) => m.name,
  getMigration: async (m) => m,
};
