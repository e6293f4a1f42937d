/**
 * The long-lived services behind the microsimulation API in one server process: the database
 * (migrated), the catalogue (seeded in the background), the queue (in-process, or bee-queue on
 * Redis when `REDIS_URL` is set: then `fiscus worker` processes run the jobs), the data modules,
 * and the default datasets (generated in the background on first start).
 */
import type { CountryModel } from '../core/model';
import { DEFAULT_MICROSIM_LIMITS, type MicrosimContext, type MicrosimLimits } from './microsim/context';
import { loadDataModules, type DataModules } from './microsim/data-modules';
import { ensureDefaultDatasets } from './microsim/defaults';
import { seedCatalogue } from './microsim/seed';
import type { ModelRegistry } from './models/registry';
import { InProcessQueue, RedisQueue, type SimulationQueue } from './queue';
import { openStorage } from './storage';
import { storageConfigFrom, storageDirFrom, type StorageConfig } from './storage/db';
import { createJobHandler, DEFAULT_STALE_MS, ownerName } from './workers/jobs';

export interface ServiceOptions {
  registry: ModelRegistry<CountryModel>;
  env: NodeJS.ProcessEnv;
  log(message: string): void;
  storage?: StorageConfig;
  storageDir?: string;
  /** Tests inject modules; by default the ones of this build. */
  modules?: DataModules;
  /** false: no default datasets; a number: their household count (default 100,000). */
  defaultDatasets?: boolean | number;
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
  close(): Promise<void>;
}

export async function startServices(options: ServiceOptions): Promise<Services> {
  const env = options.env;
  const config = options.storage ?? storageConfigFrom(env);
  const storage = await openStorage(config, { migrate: !options.skipMigrations });
  const storageDir = options.storageDir ?? storageDirFrom(env);
  const modules = options.modules ?? loadDataModules(env);
  const log = options.log;
  const seeded = seedCatalogue(options.registry, storage.catalogue, log).then(
    (r) => (r.added.length > 0 ? log(`microsim: catalogue: added ${r.added.join(', ')}`) : undefined),
    (error) => log(`microsim: catalogue seeding failed: ${(error as Error).stack ?? error}`),
  );
  let queue: SimulationQueue;
  const jobs = { storage, registry: options.registry, storageDir, modules, owner: ownerName(), log, heartbeatMs: options.heartbeatMs, staleMs: options.staleMs };
  if (env.REDIS_URL) {
    const redis = new RedisQueue({ url: env.REDIS_URL, prefix: env.FISCUS_QUEUE_PREFIX });
    await redis.ready();
    queue = redis;
  } else {
    queue = new InProcessQueue(createJobHandler(jobs), log);
  }
  const context: MicrosimContext = { storage, registry: options.registry, storageDir, queue, modules, limits: { ...DEFAULT_MICROSIM_LIMITS, ...options.limits }, catalogueReady: seeded, log };
  const background = (async () => {
    await seeded;
    // In-process: work left by a previous run of this server (stopped mid-job) is taken up again.
    if (queue.name === 'in-process') {
      const stale = new Date(Date.now() - (options.staleMs ?? DEFAULT_STALE_MS)).toISOString();
      for (const id of await storage.simulations.orphans(stale)) await queue.enqueue({ kind: 'simulation', id });
    }
    if (options.defaultDatasets !== false) await ensureDefaultDatasets(context, { households: typeof options.defaultDatasets === 'number' ? options.defaultDatasets : undefined });
  })().catch((error) => log(`microsim: background start-up work failed: ${(error as Error).stack ?? error}`));
  return {
    context,
    background,
    close: async () => {
      await queue.close();
      await background;
      await modules.simulation?.shutdownSimulationThreads();
      await storage.close();
    },
  };
}

/** `FISCUS_DEFAULT_DATASETS=false` turns the default datasets off (benches of the household API). */
export function defaultDatasetsFrom(env: NodeJS.ProcessEnv): boolean {
  return !['false', '0', 'no', 'off'].includes((env.FISCUS_DEFAULT_DATASETS ?? '').toLowerCase());
}
