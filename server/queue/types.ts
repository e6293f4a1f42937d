/**
 * The simulation queue. Jobs name what to do by id; the database holds the state (status,
 * progress, owner), so a job can be delivered twice, or to a worker that finds it done, without
 * harm. Two implementations: in-process (the default: `npm start` alone runs simulations) and
 * bee-queue on Redis (`REDIS_URL`: `fiscus worker` processes take the jobs).
 */

export type Job = { kind: 'simulation'; id: string } | { kind: 'report'; id: string };

/** Runs one job; `lease.force` says the queue took the job from a worker that stopped (stall). */
export type JobHandler = (job: Job, lease: { force: boolean }) => Promise<void>;

export interface SimulationQueue {
  readonly name: 'in-process' | 'redis';
  enqueue(job: Job): Promise<void>;
  /** Stops taking jobs and waits for the running one. */
  close(): Promise<void>;
}
