/** `fiscus db migrate|status`: the database schema (migrations also run at every server start). */
import { openStorage } from '../../storage';
import { storageConfigFrom } from '../../storage/db';
import { migrate } from '../../storage/migrate';
import { MIGRATIONS } from '../../storage/migrations';
import { parseArgs } from '../args';
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';

const usage = `Usage: fiscus db migrate | fiscus db status

  migrate   apply the migrations that have not run (SQLite under FISCUS_DATA_DIR, else ./.fiscus;
            PostgreSQL when DATABASE_URL=postgres://...)
  status    list the migrations and whether each has run`;

export const command: CliCommand = {
  name: 'db',
  summary: 'Database schema: migrate, status',
  usage,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, []);
    const [action] = parsed.positionals;
    if (parsed.positionals.length !== 1 || !['migrate', 'status'].includes(action)) throw new UsageError('give migrate or status');
    const config = storageConfigFrom(process.env, io.cwd);
    if (action === 'status') {
      const storage = await openStorage(config, { migrate: false });
      try {
        const done = new Set(await storage.db.knex.schema.hasTable('fiscus_migrations').then((has) => (has ? storage.db.knex('fiscus_migrations').pluck('name') : [])));
        for (const m of MIGRATIONS) io.out(`${done.has(m.name) ? 'applied' : 'pending'}  ${m.name}`);
        io.out(storage.describe());
      } finally {
        await storage.close();
      }
      return 0;
    }
    const before = Date.now();
    const storage = await openStorage(config, { migrate: false });
    try {
      const result = await migrate(storage.db);
      io.out(result.applied.length > 0 ? `applied ${result.applied.join(', ')} in ${Date.now() - before} ms` : 'the schema is up to date');
      io.out(`${storage.describe()}: ${result.current.length} migrations applied`);
    } finally {
      await storage.close();
    }
    return 0;
  },
};
