/**
 * Everything the microsimulation routes use, built once at start (`server/start.ts`) and passed
 * in: the stores, the model registry, the storage folder and the queue.
 */
import type { CountryModel } from '../../core/model';
import type { ModelRegistry } from '../models/registry';
import type { SimulationQueue } from '../queue/types';
import type { Storage } from '../storage';

export interface MicrosimLimits {
  /** JSON bodies (policies, dynamics, simulations...). */
  maxBodyBytes: number;
  /** HDF5 uploads to POST /datasets/upload. */
  maxUploadBytes: number;
}

export const DEFAULT_MICROSIM_LIMITS: MicrosimLimits = { maxBodyBytes: 1024 * 1024, maxUploadBytes: 2 * 1024 * 1024 * 1024 };

export interface MicrosimContext {
  storage: Storage;
  registry: ModelRegistry<CountryModel>;
  /** Where dataset files are registered from and uploaded to, and outputs written (FISCUS_STORAGE). */
  storageDir: string;
  queue: SimulationQueue;
  limits: MicrosimLimits;
  /** Resolves when the catalogue is seeded: catalogue routes wait for it rather than answer half. */
  catalogueReady: Promise<void>;
  log(message: string): void;
}
