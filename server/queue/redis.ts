/**
 * Jobs on Redis through bee-queue. The API process only enqueues; `fiscus worker` processes (any
 * number, on any machine sharing the database and the storage folder) take jobs one at a time.
 *
 * A worker killed mid-job stops renewing its lock; bee-queue's stall check (run by every worker)
 * puts the job back on the waiting list after one to two `stallInterval`s, and another worker
 * takes it over (the handler is told `force`, and takes the simulation's claim from the dead
 * owner). bee-queue retries stalled jobs without counting them, so the handler counts attempts in
 * the database and fails a simulation that killed its worker too many times.
 */
import BeeQueue from 'bee-queue';
import type { Job, JobHandler, SimulationQueue } from './types';

export const QUEUE_NAME = 'fiscus-simulations';

export interface RedisQueueOptions {
  url: string;
  /** ms without a lock renewal after which a job counts as stalled (default 5000). */
  stallInterval?: number;
  /** Key prefix, so several deployments (or test runs) can share one Redis. */
  prefix?: string;
}

function settings(options: RedisQueueOptions, isWorker: boolean): BeeQueue.QueueSettings {
  return {
    redis: { url: options.url } as BeeQueue.QueueSettings['redis'],
    prefix: options.prefix ?? 'fiscus',
    isWorker,
    getEvents: false,
    sendEvents: false,
    storeJobs: false,
    removeOnSuccess: true,
    removeOnFailure: true,
    stallInterval: options.stallInterval ?? 5000,
    activateDelayedJobs: isWorker,
  };
}

/** The job id is the work's own id: enqueueing work that is already waiting adds nothing. */
async function save(queue: BeeQueue, job: Job): Promise<void> {
  await queue.createJob(job).setId(`${job.kind}:${job.id}`).retries(2).backoff('fixed', 1000).save();
}

/** The producer side, used by the API process. */
export class RedisQueue implements SimulationQueue {
  readonly name = 'redis' as const;
  private readonly queue: BeeQueue;

  constructor(options: RedisQueueOptions) {
    this.queue = new BeeQueue(QUEUE_NAME, settings(options, false));
  }

  async ready(): Promise<void> {
    await this.queue.ready();
  }

  async enqueue(job: Job): Promise<void> {
    await save(this.queue, job);
  }

  async close(): Promise<void> {
    await this.queue.close(5000);
  }
}

/** A worker: takes jobs one at a time and runs the stall check, until closed. */
export class RedisWorker {
  private readonly queue: BeeQueue;
  private timer?: NodeJS.Timeout;

  constructor(private readonly options: RedisQueueOptions, handler: JobHandler, log: (message: string) => void) {
    this.queue = new BeeQueue(QUEUE_NAME, settings(options, true));
    this.queue.on('error', (error) => log(`queue: ${error.message}`));
    this.queue.process(1, async (job: BeeQueue.Job<Job>) => {
      // The queue hands a job to one worker at a time: a redelivered job belongs to us now.
      await handler(job.data, { force: true });
    });
  }

  /** Queues work from a worker (a simulation to run again). */
  async enqueue(job: Job): Promise<void> {
    await save(this.queue, job);
  }

  async start(): Promise<void> {
    await this.queue.ready();
    const interval = Math.max(100, Math.floor((this.options.stallInterval ?? 5000) / 2));
    const check = () => this.queue.checkStalledJobs().catch(() => undefined);
    void check();
    this.timer = setInterval(check, interval);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.queue.close(30_000);
  }
}
