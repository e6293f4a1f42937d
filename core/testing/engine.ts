/**
 * Connects the test runner to the engine, and runs whole files or folders of test files for one
 * country model.
 */
import { CountryModel } from '../model';
import { buildPopulation } from '../population';
import { Simulation } from '../simulation';
import { loadTestFile } from './load';
import { normalizeCase } from './normalize';
import { runCases, RunOptions, TestEngine } from './run';
import type { CaseResult, LoadedCase, NormalizedCase, RawCase } from './types';

export function engineFor(model: CountryModel): TestEngine {
  return {
    model,
    buildPopulation: (personIds, groups) => buildPopulation(model, personIds, groups),
    createSimulation: (population, reform) => new Simulation(model, population, { reform }),
    // A formula that does not compile fails its case when run; it decides nothing about batching.
    readsPopulation: (variable, period) => {
      try {
        return model.compiled().readsPopulation(variable, period);
      } catch {
        return false;
      }
    },
  };
}

/** PolicyEngine's `--name` filter: a substring of the file's base name, the case name or a keyword. */
export function matchesName(loaded: LoadedCase, filter: string | undefined): boolean {
  if (!filter) return true;
  const base = loaded.file.split(/[\\/]/).pop()!.replace(/\.ya?ml$/i, '');
  return base.includes(filter) || loaded.name.includes(filter) || loaded.keywords.some((k) => k.includes(filter));
}

/** Loads, normalizes and runs the given files on one model; results in file and case order. */
export interface RunFilesOptions extends RunOptions {
  /** `--name` filter. */
  name?: string;
  /** How results name a file (default: its path as given). */
  label?: (file: string) => string;
}

export function runTestFiles(model: CountryModel, files: string[], options: RunFilesOptions = {}): CaseResult[] {
  const results: (CaseResult | NormalizedCase)[] = [];
  for (const file of files) {
    for (const loaded of loadTestFile(file, options.label ? options.label(file) : file)) {
      if (!matchesName(loaded, options.name)) continue;
      if (!loaded.raw) {
        results.push({ file: loaded.file, index: loaded.index, name: loaded.name, passed: false, errors: loaded.errors, failures: [] });
        continue;
      }
      try {
        results.push(normalizeCase(model, loaded as LoadedCase & { raw: RawCase }));
      } catch (error) {
        // normalizeCase reports problems as errors; a throw here is a runner bug, kept to this case.
        const message = error instanceof Error ? error.message : String(error);
        results.push({ file: loaded.file, index: loaded.index, name: loaded.name, passed: false, errors: [`internal error while reading the case: ${message}`], failures: [] });
      }
    }
  }
  const cases = results.filter((r): r is NormalizedCase => 'runnable' in r);
  const ran = runCases(engineFor(model), cases, options);
  const byCase = new Map(cases.map((c, i) => [c, ran[i]]));
  return results.map((r) => ('runnable' in r ? byCase.get(r)! : r));
}
