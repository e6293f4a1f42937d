/**
 * What the microsimulation API uses from `server/datasets` (reading, checking, writing and
 * synthesising HDF5 populations) and `server/simulation` (running a model over a dataset,
 * economic-impact reports, regions): the interface of MICROSIM_CONTRACT.md, as types.
 *
 * The two modules are bound when the server starts (`loadDataModules`), so the API, its storage
 * and its queue build and run without them; until they exist the routes that need them answer
 * 503 naming what is missing, and tests inject their own implementations.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CountryModel } from '../../core/model';
import type { Reform } from '../../parameters/types';

export interface DatasetProblem { table: string; column?: string; row?: number; message: string }
export interface DatasetCheck {
  errors: DatasetProblem[];
  warnings: DatasetProblem[];
  counts: Record<string, number>;
  weighted_households: number;
}
/** Opaque to the API: it only passes tables from `readDataset` or `synthesize` back to the module. */
export interface DatasetTables { layout: string; year: number | null }

export interface DatasetsModule {
  readDataset(file: string): Promise<DatasetTables>;
  checkDataset(tables: DatasetTables, model: CountryModel): DatasetCheck;
  writeDataset(file: string, tables: DatasetTables): Promise<void>;
  synthesize(country: string, options: { households: number; year: number; seed: number }, onProgress?: (done: number, total: number) => void): Promise<DatasetTables>;
  /** Thrown by readDataset for unreadable files; its problems are listed in the 422. */
  DatasetReadError: new (...args: never[]) => Error & { problems: DatasetProblem[] };
}

export interface SimulationSpec {
  country: string;
  modelFolder: string;
  datasetFile: string;
  year: number;
  reform?: Reform;
  dynamic?: Reform;
  region?: string | null;
  outputFile: string;
  threads?: number;
}
export interface SimulationOutcome { summary: unknown; outputFile: string }
export interface Region { name: string; label: string; type: string }

export interface SimulationModule {
  runSimulation(spec: SimulationSpec, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<SimulationOutcome>;
  economicImpact(country: string, baseline: SimulationOutcome, reform: SimulationOutcome): Promise<unknown>;
  regions(country: string): Region[];
  shutdownSimulationThreads(): Promise<void>;
}

export interface DataModules {
  datasets?: DatasetsModule;
  simulation?: SimulationModule;
}

/**
 * Binds the modules that exist in this build (compiled next to this file's folder).
 * `FISCUS_SIMULATION_MODULE` names another module with the simulation interface: the worker-process
 * tests use it to run a runner they control in real `fiscus worker` processes.
 */
export function loadDataModules(env: NodeJS.ProcessEnv = process.env): DataModules {
  const simulationDir = env.FISCUS_SIMULATION_MODULE ? path.resolve(env.FISCUS_SIMULATION_MODULE) : path.join(__dirname, '..', 'simulation');
  return { datasets: load<DatasetsModule>(path.join(__dirname, '..', 'datasets'), 'readDataset'), simulation: load<SimulationModule>(simulationDir, 'runSimulation') };
}

function load<T>(dir: string, probe: string): T | undefined {
  if (!fs.existsSync(dir.endsWith('.js') ? dir : path.join(dir, 'index.js'))) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const mod = require(dir) as Record<string, unknown>;
  return typeof mod[probe] === 'function' ? (mod as T) : undefined;
}
