/** `fiscus worker`: takes simulation jobs from Redis (bee-queue) until stopped. */
import { loadCountryModel } from '../../models/engine';
import { ModelRegistry } from '../../models/registry';
import { RedisWorker, type Job } from '../../queue';
import { shutdownSimulationThreads } from '../../simulation';
import { openStorage } from '../../storage';
import { storageConfigFrom, storageDirFrom } from '../../storage/db';
import { createJobHandler, ownerName } from '../../workers/jobs';
import { warmFrom, warmThreads } from '../../workers/warm';
import { parseArgs } from '../args';
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';
import { packageRoot } from '../root';
import { defaultReleasesRoot } from '../../start';
import * as path from 'node:path';

const usage = `Usage: fiscus worker [--threads N] [--countries DIR] [--releases DIR]

Runs simulation jobs from the Redis queue (REDIS_URL=redis://...), one at a time, each on every
core (--threads N to limit). Start any number, on any machines that share the database
(DATABASE_URL, PostgreSQL; or the same SQLite file under FISCUS_DATA_DIR) and the storage folder
(FISCUS_STORAGE). A worker killed mid-job loses the job to another worker after a few seconds
(FISCUS_STALL_MS, default 5000). Before taking jobs, a worker loads every country's current
model into its threads (FISCUS_WARM=false skips it; FISCUS_WARM=uk loads only the UK's).`;

export const command: CliCommand = {
  name: 'worker',
  summary: 'Run simulation jobs from the Redis queue (REDIS_URL)',
  usage,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, ['threads', 'countries', 'releases']);
    if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0]}`);
    const env = process.env;
    if (!env.REDIS_URL) {
      io.err('fiscus worker: REDIS_URL is not set: workers take jobs from Redis (without it, `fiscus serve` runs simulations itself)');
      return 1;
    }
    const threads = parsed.options.threads === undefined ? undefined : Number(parsed.options.threads);
    if (threads !== undefined && !(Number.isInteger(threads) && threads >= 1 && threads <= 256)) throw new UsageError(`--threads must be a whole number from 1 to 256, got "${parsed.options.threads}"`);
    const stallInterval = env.FISCUS_STALL_MS ? Number(env.FISCUS_STALL_MS) : undefined;
    const storage = await openStorage(storageConfigFrom(env));
    const registry = new ModelRegistry({
      countriesRoot: parsed.options.countries ? path.resolve(io.cwd, parsed.options.countries) : path.join(packageRoot(), 'countries'),
      releasesRoot: parsed.options.releases ? path.resolve(io.cwd, parsed.options.releases) : defaultReleasesRoot(env),
      loadModel: loadCountryModel,
    });
    const owner = ownerName();
    // A job that arrives before the threads are warm would pay for loading in every thread.
    const warm = warmFrom(env);
    if (warm !== false) await warmThreads(registry, { countries: warm === true ? undefined : warm, threads, log: io.err });
    let worker: RedisWorker | undefined;
    const jobs = createJobHandler({ storage, registry, storageDir: storageDirFrom(env), owner, log: io.err, threads, awaitOutputs: true, enqueue: (job: Job) => worker!.enqueue(job) });
    worker = new RedisWorker({ url: env.REDIS_URL, stallInterval, prefix: env.FISCUS_QUEUE_PREFIX }, jobs.handler, io.err);
    await worker.start();
    io.out(`fiscus worker ${owner} taking jobs from ${env.REDIS_URL.replace(/\/\/[^@]*@/, '//***@')} (${storage.describe()})`);
    await new Promise<void>((resolve) => {
      process.once('SIGINT', resolve);
      process.once('SIGTERM', resolve);
    });
    await worker.close();
    await jobs.outputsWritten();
    await shutdownSimulationThreads();
    await storage.close();
    return 0;
  },
};
