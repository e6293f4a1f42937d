/**
 * The embedded queue: jobs run in this process, one at a time, in the order they came (a
 * simulation already uses every core through worker threads, so running two at once would only
 * split the cores). A job enqueued twice while waiting runs once.
 */
import type { Job, JobHandler, SimulationQueue } from './types';

export class InProcessQueue implements SimulationQueue {
  readonly name = 'in-process' as const;
  private readonly waiting: Job[] = [];
  private readonly keys = new Set<string>();
  private running?: Promise<void>;
  private closed = false;

  constructor(private readonly handler: JobHandler, private readonly log: (message: string) => void) {}

  async enqueue(job: Job): Promise<void> {
    if (this.closed) throw new Error('the simulation queue is closed');
    const key = `${job.kind}:${job.id}`;
    if (this.keys.has(key)) return;
    this.keys.add(key);
    this.waiting.push(job);
    this.running ??= this.drain();
  }

  private async drain(): Promise<void> {
    // Let the request that enqueued answer first.
    await new Promise((resolve) => setImmediate(resolve));
    while (!this.closed && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      this.keys.delete(`${job.kind}:${job.id}`);
      try {
        await this.handler(job, { force: false });
      } catch (error) {
        // The handler records failures on the simulation; this is only what it could not record.
        this.log(`queue: ${job.kind} ${job.id}: ${(error as Error)?.stack ?? String(error)}`);
      }
    }
    this.running = undefined;
  }

  /** Resolves when nothing is waiting or running (tests). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  async close(): Promise<void> {
    this.closed = true;
    this.waiting.length = 0;
    await this.running;
  }
}
