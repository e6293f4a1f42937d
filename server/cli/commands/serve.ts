/** `fiscus serve`: the household calculation API and the microsimulation API, on one port. */
import cluster from 'node:cluster';
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';
import { parseArgs } from '../args';
import { ConfigError, loadAuthConfig } from '../../auth/config';
import { startServer, type StartOptions } from '../../start';
import { runCluster } from '../../cluster';
import { openStorage } from '../../storage';
import { storageConfigFrom } from '../../storage/db';

const usage = `Usage: fiscus serve [--port N] [--host ADDRESS] [--workers N] [--countries DIR] [--releases DIR]

Serves the household calculation API (POST /{country}/calculate) and the microsimulation API
(/datasets, /policies, /simulations, /analysis/economic-impact, ...: see docs/api/microsim.md).
  --port N          port (default: $PORT, else 8080)
  --host ADDRESS    address to listen on (default: $HOST, else 0.0.0.0)
  --workers N       server processes sharing the port, one core each (default: $WEB_CONCURRENCY, else 1)
  --countries DIR   country plugins folder (default: the package's countries/)
  --releases DIR    released model bundles (default: $FISCUS_RELEASES_DIR, else releases/)

Hosted mode: AUTH_ENABLED=true with JWT_SECRET (or JWT_PRIVATE_KEY_FILE), optional AUTH_AUDIENCE,
AUTH_ISSUER, JWT_EXPIRES_IN; or AUTH_JWKS_URL + AUTH_AUDIENCE + AUTH_ISSUER for an external issuer.
Clients: fiscus clients add NAME (stored under $FISCUS_DATA_DIR, else ./.fiscus).

Microsimulation: a SQLite database under $FISCUS_DATA_DIR (else ./.fiscus), or PostgreSQL with
DATABASE_URL=postgres://...; dataset files under $FISCUS_STORAGE (else ./.fiscus/storage); jobs run
in this process, or on \`fiscus worker\` processes with REDIS_URL=redis://... A default synthetic
dataset per country is generated on first start (FISCUS_DEFAULT_DATASETS=false turns it off).`;

export function portFrom(option: string | undefined, env: NodeJS.ProcessEnv): number {
  const text = option ?? env.PORT ?? '8080';
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 0 || port > 65535) throw new UsageError(`port must be a number from 0 to 65535, got "${text}"${option === undefined ? ' (from PORT)' : ''}`);
  return port;
}

export function workersFrom(option: string | undefined, env: NodeJS.ProcessEnv): number {
  const text = option ?? env.WEB_CONCURRENCY ?? '1';
  const workers = Number(text);
  if (!/^\d+$/.test(text) || workers < 1 || workers > 64) throw new UsageError(`workers must be a number from 1 to 64, got "${text}"`);
  return workers;
}

export const command: CliCommand = {
  name: 'serve',
  summary: 'Serve the household calculation API over HTTP',
  usage,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, ['port', 'host', 'workers', 'countries', 'releases']);
    if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0]}`);
    const start: StartOptions = {
      port: portFrom(parsed.options.port, process.env),
      host: parsed.options.host ?? process.env.HOST ?? '0.0.0.0',
      countriesRoot: parsed.options.countries,
      releasesRoot: parsed.options.releases,
      warm: true,
      log: io.err,
    };
    const workers = workersFrom(parsed.options.workers, process.env);
    try {
      loadAuthConfig(process.env); // fail once, here, rather than in every worker
    } catch (error) {
      if (error instanceof ConfigError) {
        io.err(`fiscus serve: configuration error: ${error.message}`);
        return 1;
      }
      throw error;
    }
    const mode = `auth ${process.env.AUTH_ENABLED === 'true' ? 'on' : 'off'}, queue ${process.env.REDIS_URL ? 'redis' : 'in-process'}`;
    if (workers > 1) {
      // The primary brings the schema up to date once, before any worker opens the database;
      // only the first worker makes the default datasets.
      if (cluster.isPrimary) await (await openStorage(storageConfigFrom(process.env))).close();
      const first = cluster.isWorker && cluster.worker?.id === 1;
      await runCluster({
        workers,
        startWorker: async () => (await startServer({ ...start, microsim: { skipMigrations: true, ...(first ? {} : { defaultDatasets: false }) } })).url,
        onListening: (url) => io.out(`fiscus API listening on ${url} (${mode}, ${workers} workers)`),
        log: io.err,
      });
      return 0;
    }
    let running;
    try {
      running = await startServer(start);
    } catch (error) {
      if (error instanceof ConfigError) {
        io.err(`fiscus serve: configuration error: ${error.message}`);
        return 1;
      }
      throw error;
    }
    io.out(`fiscus API listening on ${running.url} (${mode}; ${running.services?.context.storage.describe() ?? 'no microsimulation'})`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await running.close();
    return 0;
  },
};
