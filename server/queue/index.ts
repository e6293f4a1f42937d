export type { Job, JobHandler, SimulationQueue } from './types';
export { InProcessQueue } from './in-process';
export { RedisQueue, RedisWorker, QUEUE_NAME, type RedisQueueOptions } from './redis';
