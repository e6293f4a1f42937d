/**
 * Runs normalized cases on the engine. Cases that share parameter overrides and give the same
 * computed variables (see `batchKey`) are batched into one population; rows a case leaves empty
 * get the variable's default exactly as they would alone (PolicyEngine fills unset instances of
 * a given variable with its default).
 * A batch that fails falls back to one case at a time, so a bad case fails alone with its reason.
 */
import type { Column, Population, VariableSpec } from '../types';
import type { Reform } from '../../parameters/types';
import { compareValue } from './compare';
import { periodSizeRank } from './periods';
import type { CaseResult, NormalizedCase, OutputFailure, ScalarValue, TestModel } from './types';
import { defaultValue } from './values';

/** The parts of a simulation the runner uses (the engine's `Simulation` satisfies it). */
export interface TestSimulation {
  setInput(variable: string, period: string, values: ArrayLike<number> | ArrayLike<boolean> | ArrayLike<string>): void;
  calculate(variable: string, period: string): Column;
  decode(variable: string, column: Column): (number | boolean | string)[];
}

/** How the runner reaches the engine; `core/testing/engine.ts` wires the real classes. */
export interface TestEngine {
  readonly model: TestModel;
  /** Whether computing the variable reads statistics of the whole population (deciles, medians). */
  readsPopulation?(variable: string, period: string): boolean;
  buildPopulation(personIds: string[], groups: Record<string, { id: string; members: string[] }[]>): Population;
  createSimulation(population: Population, reform?: Reform): TestSimulation;
}

export interface RunOptions {
  /** Upper bound on cases per batch (keeps a failed batch's fallback cheap). */
  maxBatch?: number;
}

const SEPARATOR = '\u0000';

function isComputed(spec: VariableSpec): boolean {
  return spec.formula !== undefined || spec.adds !== undefined || spec.subtracts !== undefined;
}

function matchesDefinitionPeriod(spec: VariableSpec, period: string): boolean {
  if (spec.period === 'eternity') return period === 'eternity';
  return spec.period === 'year' ? /^\d{4}$/.test(period) : /^\d{4}-\d{2}$/.test(period);
}

/**
 * Cases may share a population only when this key is equal. It lists the (variable, period)
 * inputs whose absence would matter: those of computed variables (no input means "run the
 * formula", not "use the default") and those given for another period than the variable's own
 * (setting them spreads or moves values across periods). A plain input variable given for its own
 * period is left out: rows that do not give it hold its default, which is what "not given" means.
 */
export function batchKey(c: NormalizedCase, model: TestModel): string {
  const pairs = new Set<string>();
  for (const input of c.inputs) {
    const spec = model.variables.get(input.variable)!;
    if (isComputed(spec) || !matchesDefinitionPeriod(spec, input.period)) pairs.add(`${input.variable}@${input.period}`);
  }
  return [c.reformKey, ...[...pairs].sort()].join(SEPARATOR);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

interface Offsets { [entityKey: string]: number }

/** One population for several cases: ids are prefixed with the case's position to stay unique. */
function mergeCases(model: TestModel, cases: NormalizedCase[]): { persons: string[]; groups: Record<string, { id: string; members: string[] }[]>; offsets: Offsets[] } {
  const persons: string[] = [];
  const groups: Record<string, { id: string; members: string[] }[]> = {};
  const personKey = model.country.entities.find((e) => e.isPerson)!.key;
  const groupKeys = model.country.entities.filter((e) => !e.isPerson).map((e) => e.key);
  for (const key of groupKeys) groups[key] = [];
  const offsets: Offsets[] = cases.map((c, k) => {
    const offset: Offsets = { [personKey]: persons.length };
    for (const id of c.persons) persons.push(`${k}/${id}`);
    for (const key of groupKeys) {
      offset[key] = groups[key].length;
      for (const g of c.groups[key] ?? []) groups[key].push({ id: `${k}/${g.id}`, members: g.members.map((m) => `${k}/${m}`) });
    }
    return offset;
  });
  return { persons, groups, offsets };
}

function emptyColumn(spec: VariableSpec, size: number): number[] | boolean[] | string[] | Float64Array {
  const fill = defaultValue(spec);
  if (spec.type === 'float' || spec.type === 'int') return new Float64Array(size).fill(Number(fill));
  if (spec.type === 'bool') return new Array<boolean>(size).fill(Boolean(fill));
  return new Array<string>(size).fill(String(fill));
}

function setInputs(engine: TestEngine, sim: TestSimulation, population: Population, cases: NormalizedCase[], offsets: Offsets[]): void {
  const columns = new Map<string, { spec: VariableSpec; period: string; values: ReturnType<typeof emptyColumn> }>();
  cases.forEach((c, k) => {
    for (const input of c.inputs) {
      const key = `${input.variable}${SEPARATOR}${input.period}`;
      let column = columns.get(key);
      if (!column) {
        const spec = engine.model.variables.get(input.variable)!;
        column = { spec, period: input.period, values: emptyColumn(spec, population.count[spec.entity]) };
        columns.set(key, column);
      }
      (column.values as ScalarValue[])[offsets[k][input.entityKey] + input.instanceIndex] = input.value;
    }
  });
  // Small periods first, as PolicyEngine does, so a year given after its months does not clobber them.
  const ordered = [...columns.values()].sort((a, b) => periodSizeRank(a.period) - periodSizeRank(b.period));
  for (const column of ordered) sim.setInput(column.spec.name, column.period, column.values);
}

type Computed = { values: ScalarValue[] } | { error: string };

function compute(engine: TestEngine, sim: TestSimulation, variable: string, period: string): Computed {
  try {
    const spec = engine.model.variables.get(variable)!;
    const column = sim.calculate(variable, period);
    const values = spec.type === 'enum' || spec.type === 'string' ? sim.decode(variable, column) : Array.from(column);
    return { values };
  } catch (error) {
    return { error: messageOf(error) };
  }
}

function instanceIds(c: NormalizedCase, entityKey: string, personKey: string): string[] {
  return entityKey === personKey ? c.persons : (c.groups[entityKey] ?? []).map((g) => g.id);
}

/** Checks one case's outputs against computed columns; returns null if a column failed to compute. */
function checkCase(engine: TestEngine, c: NormalizedCase, offset: Offsets, computed: Map<string, Computed>, alone: boolean): CaseResult | null {
  const personKey = engine.model.country.entities.find((e) => e.isPerson)!.key;
  const failures: OutputFailure[] = [];
  for (const output of c.outputs) {
    const result = computed.get(`${output.variable}${SEPARATOR}${output.period}`)!;
    const ids = instanceIds(c, output.entityKey, personKey);
    if ('error' in result) {
      if (!alone) return null;
      failures.push({ variable: output.variable, entity: output.entityKey, instance: output.instanceIndex === null ? '*' : ids[output.instanceIndex], period: output.period, expected: output.expected, actual: null, reason: result.error });
      continue;
    }
    const type = engine.model.variables.get(output.variable)!.type;
    const indexes = output.instanceIndex === null ? ids.map((_, i) => i) : [output.instanceIndex];
    for (const i of indexes) {
      const actual = result.values[offset[output.entityKey] + i];
      const reason = actual === undefined ? 'no value computed for this instance' : compareValue(type, actual, output.expected, c.margins);
      if (reason !== null) {
        failures.push({ variable: output.variable, entity: output.entityKey, instance: ids[i], period: output.period, expected: output.expected, actual: actual ?? null, reason });
      }
    }
  }
  return { file: c.file, index: c.index, name: c.name, passed: failures.length === 0 && c.errors.length === 0, errors: [...c.errors], failures };
}

function failedCase(c: NormalizedCase, reason: string): CaseResult {
  return { file: c.file, index: c.index, name: c.name, passed: false, errors: [...c.errors, reason], failures: [] };
}

/** Runs one batch; cases it cannot settle together are returned for a run on their own. */
function runBatch(engine: TestEngine, cases: NormalizedCase[]): { settled: [NormalizedCase, CaseResult][]; retry: NormalizedCase[] } {
  const alone = cases.length === 1;
  const { persons, groups, offsets } = mergeCases(engine.model, cases);
  let sim: TestSimulation;
  try {
    const population = engine.buildPopulation(persons, groups);
    sim = engine.createSimulation(population, cases[0].reform);
    setInputs(engine, sim, population, cases, offsets);
  } catch (error) {
    if (!alone) return { settled: [], retry: cases };
    return { settled: [[cases[0], failedCase(cases[0], `the engine rejected the case: ${messageOf(error)}`)]], retry: [] };
  }
  const computed = new Map<string, Computed>();
  for (const c of cases) {
    for (const output of c.outputs) {
      const key = `${output.variable}${SEPARATOR}${output.period}`;
      if (!computed.has(key)) computed.set(key, compute(engine, sim, output.variable, output.period));
    }
  }
  const settled: [NormalizedCase, CaseResult][] = [];
  const retry: NormalizedCase[] = [];
  cases.forEach((c, k) => {
    const result = checkCase(engine, c, offsets[k], computed, alone);
    if (result) settled.push([c, result]);
    else retry.push(c);
  });
  return { settled, retry };
}

/** Runs cases and returns one result per case, in the order given. */
export function runCases(engine: TestEngine, cases: NormalizedCase[], options: RunOptions = {}): CaseResult[] {
  const maxBatch = options.maxBatch ?? 400;
  const results = new Map<NormalizedCase, CaseResult>();
  const batches = new Map<string, NormalizedCase[]>();
  for (const c of cases) {
    if (!c.runnable) {
      results.set(c, { file: c.file, index: c.index, name: c.name, passed: false, errors: [...c.errors], failures: [] });
      continue;
    }
    // A case whose outputs depend on the whole population (deciles, relative poverty) runs alone:
    // batched with others, its statistics would be taken over their households too.
    const alone = engine.readsPopulation && c.outputs.some((o) => engine.readsPopulation!(o.variable, o.period));
    const key = alone ? `alone${SEPARATOR}${batches.size}` : batchKey(c, engine.model);
    const batch = batches.get(key);
    if (batch) batch.push(c);
    else batches.set(key, [c]);
  }
  for (const batch of batches.values()) {
    for (let start = 0; start < batch.length; start += maxBatch) {
      const { settled, retry } = runBatch(engine, batch.slice(start, start + maxBatch));
      for (const [c, result] of settled) results.set(c, result);
      for (const c of retry) for (const [one, result] of runBatch(engine, [c]).settled) results.set(one, result);
    }
  }
  return cases.map((c) => results.get(c)!);
}
