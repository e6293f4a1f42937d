/**
 * Warming the simulation threads of a process that runs simulations (the API process with its
 * in-process queue, and `fiscus worker` processes): each country's current model is loaded and
 * its report plan compiled and optimised in every thread before the first job, so the first
 * simulation pays neither (about a second per thread and model, more on a busy machine); then the
 * main thread's part of a report is run once on a small dataset (warmReport).
 *
 * The main thread takes the model the registry loaded for the household API (adoptModel) rather
 * than loading a second copy: loading blocks the thread that answers household requests for
 * seconds, and a copy costs a few hundred MB.
 */
import type { CountryModel } from '../../core/model';
import { DEFAULT_YEAR } from '../microsim/defaults';
import type { ModelRegistry } from '../models/registry';
import { adoptModel, warmReport, warmSimulationThreads } from '../simulation';

export interface WarmOptions {
  /** Countries to warm (default: every country of the registry). */
  countries?: string[];
  threads?: number;
  log(message: string): void;
}

/** Resolves when every thread holds the models; a country whose model fails to load is skipped (logged). */
export async function warmThreads(registry: ModelRegistry<CountryModel>, options: WarmOptions): Promise<void> {
  const started = Date.now();
  const folders: string[] = [];
  const warmed: string[] = [];
  for (const country of options.countries ?? registry.countries()) {
    const source = registry.currentSource(country);
    if (!source) continue;
    try {
      const folder = registry.folderOf(source);
      adoptModel(folder, registry.modelOf(country, source));
      folders.push(folder);
      warmed.push(country);
    } catch (error) {
      options.log(`microsim: ${country} not warmed: ${(error as Error).message}`);
    }
  }
  if (folders.length === 0) return;
  await warmSimulationThreads(folders, options.threads, DEFAULT_YEAR);
  for (const [i, country] of warmed.entries()) {
    await warmReport(folders[i], country, DEFAULT_YEAR, options.threads).catch((error) => options.log(`microsim: ${country} report path not warmed: ${(error as Error).message}`));
  }
  options.log(`microsim: simulation threads ready for ${warmed.join(', ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** `FISCUS_WARM`: false (or off, 0, no) leaves threads cold; a comma list names the countries; default all. */
export function warmFrom(env: NodeJS.ProcessEnv): boolean | string[] {
  const text = (env.FISCUS_WARM ?? '').trim().toLowerCase();
  if (text === '' || ['true', 'all', '1', 'yes', 'on'].includes(text)) return true;
  if (['false', '0', 'no', 'off', 'none'].includes(text)) return false;
  return text.split(',').map((c) => c.trim()).filter(Boolean);
}
