/**
 * Several server processes sharing one port (node:cluster): calculations are CPU-bound and
 * synchronous, so one process uses one core. The primary only supervises: it restarts a worker
 * that dies and stops them all on SIGINT/SIGTERM.
 */
import cluster, { type Worker } from 'node:cluster';

export interface ClusterOptions {
  workers: number;
  /** Called in each worker: starts the server and returns its URL. */
  startWorker(): Promise<string>;
  /** Called once in the primary with the URL of the first worker to listen. */
  onListening(url: string): void;
  log(message: string): void;
}

/** In the primary: resolves when the cluster has been stopped. In a worker: runs the server. */
export async function runCluster(options: ClusterOptions): Promise<void> {
  if (!cluster.isPrimary) {
    const url = await options.startWorker();
    process.send?.({ listening: url });
    return new Promise(() => undefined); // the worker lives until the primary stops it
  }
  let stopping = false;
  let announced = false;
  const listening = new Set<number>();
  const fork = (): Worker => {
    const worker = cluster.fork();
    worker.on('message', (message: { listening?: string }) => {
      if (!message.listening) return;
      listening.add(worker.id);
      if (!announced) {
        announced = true;
        options.onListening(message.listening);
      }
    });
    return worker;
  };
  for (let i = 0; i < options.workers; i++) fork();
  let failed = false;
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    cluster.on('exit', (worker, code, signal) => {
      if (stopping) return;
      // A worker that dies before it ever listened would die again: stop instead of looping.
      if (!listening.has(worker.id)) {
        options.log(`worker ${worker.process.pid} exited (${signal ?? code}) before listening; stopping`);
        failed = true;
        return resolve();
      }
      options.log(`worker ${worker.process.pid} exited (${signal ?? code}); starting another`);
      fork();
    });
  });
  stopping = true;
  await Promise.all(
    Object.values(cluster.workers ?? {}).map(
      (worker) =>
        new Promise<void>((resolve) => {
          if (!worker || worker.isDead()) return resolve();
          worker.once('exit', () => resolve());
          worker.kill('SIGTERM');
        }),
    ),
  );
  if (failed) throw new Error('a server worker failed to start (see the messages above)');
}
