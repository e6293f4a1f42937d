/**
 * The long-lived services behind the microsimulation API in one server process: the database
 * (migrated), the catalogue (seeded in the background), the queue (in-process, or bee-queue on
 * Redis when `REDIS_URL` is set: then `fiscus worker` processes run the jobs), the simulation
 * threads (warmed once the server listens), and the default datasets (generated in the background
 * on first start).
 */
import type { CountryModel } from '../core/model';
import { DEFAULT_MICROSIM_LIMITS, type MicrosimContext, type MicrosimLimits } from './microsim/context';
import { ensureDefaultDatasets } from './microsim/defaults';
import { seedCatalogue } from './microsim/seed';
import type { ModelRegistry } from './models/registry';
import { InProcessQueue, RedisQueue, type Job, type SimulationQueue } from './queue';
import { shutdownSimulationThreads } from './simulation';
import { openStorage } from './storage';
import { storageConfigFrom, storageDirFrom, type StorageConfig } from './storage/db';
import { createJobHandler, DEFAULT_STALE_MS, ownerName } from './workers/jobs';
import { warmFrom, warmThreads } from './workers/warm';

export interface ServiceOptions {
  registry: ModelRegistry<CountryModel>;
  env: NodeJS.ProcessEnv;
  log(message: string): void;
  storage?: StorageConfig;
  storageDir?: string;
  /** false: no default datasets; a number: their household count (default FISCUS_DEFAULT_HOUSEHOLDS, else 100,000). */
  defaultDatasets?: boolean | number;
  /** Warm the simulation threads (all countries, or these), when this process runs simulations (default FISCUS_WARM, else all). */
  warm?: boolean | string[];
  /**
   * Leave the simulation threads running at close (they belong to the process: a test process
   * starts several servers one after another, and each would otherwise load the models again).
   */
  keepThreads?: boolean;
  /** Migrations already ran (a cluster's primary ran them before forking). */
  skipMigrations?: boolean;
  limits?: Partial<MicrosimLimits>;
  /** Heartbeat period and staleness (ms) of in-process runs (tests shorten them). */
  heartbeatMs?: number;
  staleMs?: number;
}

export interface Services {
  context: MicrosimContext;
  /** The background work started here (seeding, default datasets), for tests and orderly stops. */
  background: Promise<void>;
  /** Warms the simulation threads (the server calls it once it listens); resolves when they are warm. */
  warm(): Promise<void>;
  close(): Promise<void>;
}

export async function startServices(options: ServiceOptions): Promise<Services> {
  const env = options.env;
  const config = options.storage ?? storageConfigFrom(env);
  const storage = await openStorage(config, { migrate: !options.skipMigrations });
  const storageDir = options.storageDir ?? storageDirFrom(env);
  const log = options.log;
  const seeded = seedCatalogue(options.registry, storage.catalogue, log).then(
    (r) => (r.added.length > 0 ? log(`microsim: catalogue: added ${r.added.join(', ')}`) : undefined),
    (error) => log(`microsim: catalogue seeding failed: ${(error as Error).stack ?? error}`),
  );
  let queue: SimulationQueue;
  const enqueue = (job: Job) => queue.enqueue(job);
  const jobs = createJobHandler({ storage, registry: options.registry, storageDir, owner: ownerName(), log, heartbeatMs: options.heartbeatMs, staleMs: options.staleMs, enqueue });
  if (env.REDIS_URL) {
    const redis = new RedisQueue({ url: env.REDIS_URL, prefix: env.FISCUS_QUEUE_PREFIX });
    await redis.ready();
    queue = redis;
  } else {
    queue = new InProcessQueue(jobs.handler, log);
  }
  const context: MicrosimContext = { storage, registry: options.registry, storageDir, queue, limits: { ...DEFAULT_MICROSIM_LIMITS, ...options.limits }, catalogueReady: seeded, log };
  const households = options.defaultDatasets ?? defaultDatasetsFrom(env);
  const background = (async () => {
    await seeded;
    // In-process: work left by a previous run of this server (stopped mid-job) is taken up again.
    if (queue.name === 'in-process') {
      const stale = new Date(Date.now() - (options.staleMs ?? DEFAULT_STALE_MS)).toISOString();
      for (const id of await storage.simulations.orphans(stale)) await queue.enqueue({ kind: 'simulation', id });
    }
    if (households !== false) await ensureDefaultDatasets(context, { households: typeof households === 'number' ? households : undefined });
  })().catch((error) => log(`microsim: background start-up work failed: ${(error as Error).stack ?? error}`));
  // Only a process that runs simulations warms threads: with Redis, the workers do.
  const warmWhat = queue.name === 'in-process' ? (options.warm ?? warmFrom(env)) : false;
  let warming: Promise<void> | undefined;
  return {
    context,
    background,
    warm: () => {
      if (warmWhat === false) return Promise.resolve();
      warming ??= warmThreads(options.registry, { countries: warmWhat === true ? undefined : warmWhat, log }).catch((error) => log(`microsim: warming the simulation threads failed: ${(error as Error).message}`));
      return warming;
    },
    close: async () => {
      await queue.close();
      await background;
      // Output files of finished simulations are written before the process may exit.
      await jobs.outputsWritten();
      if (!options.keepThreads) await shutdownSimulationThreads();
      await storage.close();
    },
  };
}

/**
 * `FISCUS_DEFAULT_DATASETS=false` turns the default datasets off (benches of the household API);
 * `FISCUS_DEFAULT_HOUSEHOLDS=N` sets their size (tests and demos that want them small).
 */
export function defaultDatasetsFrom(env: NodeJS.ProcessEnv): boolean | number {
  if (['false', '0', 'no', 'off'].includes((env.FISCUS_DEFAULT_DATASETS ?? '').toLowerCase())) return false;
  const households = Number(env.FISCUS_DEFAULT_HOUSEHOLDS);
  return Number.isInteger(households) && households > 0 ? households : true;
}
