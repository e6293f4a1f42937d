/**
 * Runs a suite against SQLite (always) and PostgreSQL (whenever one is reachable: the machine's
 * server, FISCUS_TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test). Each
 * PostgreSQL run gets its own schema, dropped afterwards, so runs never collide. A PostgreSQL suite
 * that cannot connect is reported skipped, with the reason printed, never passed.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import knex from 'knex';
import type { StorageConfig } from '../../server/storage/db';

export const TEST_DATABASE_URL = process.env.FISCUS_TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

let reachable: Promise<string | null> | undefined;

/** null when PostgreSQL answers; otherwise why not. */
export function postgresProblem(): Promise<string | null> {
  reachable ??= (async () => {
    const db = knex({ client: 'pg', connection: { connectionString: TEST_DATABASE_URL, connectionTimeoutMillis: 3000 }, pool: { min: 0, max: 1 } });
    try {
      await db.raw('select 1');
      return null;
    } catch (error) {
      return `PostgreSQL at ${TEST_DATABASE_URL} is not reachable: ${(error as Error).message}`;
    } finally {
      await db.destroy();
    }
  })();
  return reachable;
}

export type ConfigMaker = () => StorageConfig;

/** Declares `suite` once per database; `config()` gives a fresh database (file or schema) each call. */
export function forEachDatabase(title: string, suite: (config: ConfigMaker) => void): void {
  describe(`${title} (SQLite)`, () => {
    suite(() => ({ dialect: 'sqlite', file: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-db-')), 'fiscus.sqlite') }));
  });
  describe(`${title} (PostgreSQL)`, function () {
    const schemas: string[] = [];
    before(async function () {
      const problem = await postgresProblem();
      if (problem) {
        console.log(`      skipped: ${problem}`);
        this.skip();
      }
    });
    after(async () => {
      if (schemas.length === 0) return;
      const db = knex({ client: 'pg', connection: TEST_DATABASE_URL });
      for (const schema of schemas) await db.raw(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await db.destroy();
    });
    suite(() => {
      const schema = `fiscus_test_${process.pid}_${Date.now().toString(36)}_${schemas.length}`;
      schemas.push(schema);
      return { dialect: 'postgres', url: TEST_DATABASE_URL, schema };
    });
  });
}
