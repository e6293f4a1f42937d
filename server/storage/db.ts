/**
 * The database, through knex: a SQLite file under the data folder by default (no service to run),
 * PostgreSQL when `DATABASE_URL=postgres://...` is set. Everything above this file speaks knex
 * and never asks which one it got, except where SQL dialects truly differ (see `dialect`).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import knex, { type Knex } from 'knex';

export type Dialect = 'sqlite' | 'postgres';

export interface StorageConfig {
  dialect: Dialect;
  /** SQLite: the database file. */
  file?: string;
  /** PostgreSQL: the connection URL. */
  url?: string;
  /** PostgreSQL: the schema our tables live in (created when missing; tests use one per run). */
  schema?: string;
}

export interface Database {
  knex: Knex;
  dialect: Dialect;
  config: StorageConfig;
  close(): Promise<void>;
}

/** `FISCUS_DATA_DIR`, else `.fiscus/` in the working directory. */
export function dataDirFrom(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return env.FISCUS_DATA_DIR || path.join(cwd, '.fiscus');
}

/** `FISCUS_STORAGE`, else `storage/` inside the data folder: where dataset and output files live. */
export function storageDirFrom(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return env.FISCUS_STORAGE ? path.resolve(cwd, env.FISCUS_STORAGE) : path.join(dataDirFrom(env, cwd), 'storage');
}

export function storageConfigFrom(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): StorageConfig {
  const url = env.DATABASE_URL;
  if (url) {
    if (!/^postgres(ql)?:\/\//.test(url)) throw new Error(`DATABASE_URL must be a postgres:// URL (unset it to use the SQLite file), got "${url.replace(/\/\/[^@]*@/, '//***@')}"`);
    return { dialect: 'postgres', url, schema: env.FISCUS_DB_SCHEMA || undefined };
  }
  return { dialect: 'sqlite', file: path.join(dataDirFrom(env, cwd), 'fiscus.sqlite') };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export async function openDatabase(config: StorageConfig): Promise<Database> {
  let db: Knex;
  if (config.dialect === 'sqlite') {
    fs.mkdirSync(path.dirname(config.file!), { recursive: true });
    db = knex({
      client: 'sqlite3',
      connection: { filename: config.file! },
      useNullAsDefault: true,
      // One connection: SQLite serialises writers anyway, and one connection makes transactions
      // queue instead of failing with SQLITE_BUSY. WAL lets worker processes read while we write.
      pool: {
        min: 1,
        max: 1,
        afterCreate: (conn: { run(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) => {
          conn.run('PRAGMA foreign_keys = ON', (e1) => {
            if (e1) return done(e1, conn);
            conn.run('PRAGMA journal_mode = WAL', (e2) => {
              if (e2) return done(e2, conn);
              conn.run('PRAGMA busy_timeout = 10000', (e3) => done(e3, conn));
            });
          });
        },
      },
    });
  } else {
    if (config.schema !== undefined && !SCHEMA_NAME.test(config.schema)) throw new Error(`database schema name "${config.schema}" must be lower-case letters, digits and _`);
    db = knex({ client: 'pg', connection: config.url!, searchPath: config.schema ? [config.schema] : undefined, pool: { min: 0, max: 10 } });
    if (config.schema) await db.raw(`CREATE SCHEMA IF NOT EXISTS "${config.schema}"`);
  }
  return { knex: db, dialect: config.dialect, config, close: () => db.destroy() };
}

/** A short description for logs (never the password). */
export function describeStorage(config: StorageConfig): string {
  if (config.dialect === 'sqlite') return `SQLite ${config.file}`;
  const safe = config.url!.replace(/\/\/([^:@/]*)(:[^@/]*)?@/, '//$1@');
  return `PostgreSQL ${safe}${config.schema ? ` (schema ${config.schema})` : ''}`;
}
