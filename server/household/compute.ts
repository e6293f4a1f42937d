/**
 * Runs a planned household through the engine and writes every requested output into the
 * payload itself (the answer echoes the request with its nulls filled, so filling in place
 * saves a deep copy per request).
 */
import type { Reform } from '../../parameters/types';
import type { Column, InputValues, Population } from '../../core/types';
import type { AxesPlan } from './axes';
import type { ModelView } from './model-view';
import type { GroupInstance, HouseholdPlan } from './plan';

export interface SimulationPort {
  setInput(variable: string, period: string, values: InputValues): void;
  calculate(variable: string, period: string): Column;
  /** Several variables at one period (an engine may run a repeated request shape through a cached plan). */
  calculateMany?(variables: string[], period: string): Map<string, Column>;
  decode(variable: string, column: Column): (number | boolean | string)[];
}

/** How the household layer reaches the engine (core/population.ts + core/simulation.ts). */
export interface EnginePort<M extends ModelView> {
  buildPopulation(model: M, personIds: string[], groups: Record<string, GroupInstance[]>): Population;
  simulate(model: M, population: Population, reform: Reform | undefined): SimulationPort;
}

type Payload = Record<string, Record<string, Record<string, Record<string, unknown>>>>;
type OutputValue = number | boolean | string | (number | boolean | string)[];

// Copy ids need a separator no client id contains, so copies never collide with declared ids.
const COPY_SEPARATOR = '\u0001';

/** A note on a result the rules do not fully cover (country.yaml `coverage:`). */
export interface CoverageWarning {
  path: string;
  period: string;
  message: string;
}

export function computeHousehold<M extends ModelView>(
  engine: EnginePort<M>, model: M, household: Payload, plan: HouseholdPlan, axes: AxesPlan | undefined, reform: Reform | undefined,
): CoverageWarning[] {
  const copies = axes?.copies ?? 1;
  const personIds = copies === 1 ? plan.personIds : replicate(plan.personIds, copies);
  const groups: Record<string, GroupInstance[]> = {};
  for (const [key, instances] of Object.entries(plan.groups)) {
    groups[key] = copies === 1 ? instances : replicateGroups(instances, copies);
  }
  const population = engine.buildPopulation(model, personIds, groups);
  const simulation = engine.simulate(model, population, reform);
  setInputs(simulation, plan, axes, population, copies);

  const computed = computeOutputs(simulation, plan);
  for (const slot of plan.outputs) {
    const values = computed.get(`${slot.variable}\u0000${slot.period}`)!;
    let out: OutputValue;
    if (axes) {
      const n = plan.declared[slot.entityKey];
      const series: (number | boolean | string)[] = new Array(copies);
      for (let c = 0; c < copies; c++) series[c] = jsonSafe(values[c * n + slot.instance]);
      out = series;
    } else {
      out = jsonSafe(values[slot.instance]);
    }
    household[slot.plural][slot.id][slot.variable][slot.periodKey] = out;
  }
  return coverageWarnings(simulation, model, plan);
}

/**
 * The country's coverage rules for every declared instance in every year the request asks about:
 * where the rule's variable is false, its message with `{name}` filled from that instance.
 */
function coverageWarnings(simulation: SimulationPort, model: ModelView, plan: HouseholdPlan): CoverageWarning[] {
  const rules = model.country.coverage;
  if (rules.length === 0 || plan.outputs.length === 0) return [];
  const years = [...new Set(plan.outputs.map((o) => o.period.slice(0, 4)))].sort();
  const warnings: CoverageWarning[] = [];
  for (const rule of rules) {
    const entity = model.variables.get(rule.variable)!.entity;
    const ids = entity === model.personEntity().key ? plan.personIds : (plan.groups[entity] ?? []).map((g) => g.id);
    const plural = model.country.entities.find((e) => e.key === entity)!.plural;
    const names = [...rule.message.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)].map((m) => m[1]);
    for (const year of years) {
      const covered = simulation.decode(rule.variable, simulation.calculate(rule.variable, year));
      const fills = new Map(names.map((n) => [n, simulation.decode(n, simulation.calculate(n, year))]));
      ids.forEach((id, i) => {
        if (covered[i]) return;
        const message = rule.message.replace(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, n: string) => String(fills.get(n)![i]));
        warnings.push({ path: `${plural}/${id}`, period: year, message });
      });
    }
  }
  return warnings;
}

/** Every requested output, decoded, by `variable\0period`: one engine call per period. */
function computeOutputs(simulation: SimulationPort, plan: HouseholdPlan): Map<string, (number | boolean | string)[]> {
  const byPeriod = new Map<string, Set<string>>();
  for (const slot of plan.outputs) {
    let names = byPeriod.get(slot.period);
    if (!names) byPeriod.set(slot.period, (names = new Set()));
    names.add(slot.variable);
  }
  const out = new Map<string, (number | boolean | string)[]>();
  for (const [period, names] of byPeriod) {
    const list = [...names];
    const columns = simulation.calculateMany ? simulation.calculateMany(list, period) : new Map(list.map((n) => [n, simulation.calculate(n, period)]));
    for (const name of list) out.set(`${name}\u0000${period}`, simulation.decode(name, columns.get(name)!));
  }
  return out;
}

function setInputs(simulation: SimulationPort, plan: HouseholdPlan, axes: AxesPlan | undefined, population: Population, copies: number): void {
  const arrays = new Map<string, { variable: string; period: string; values: Float64Array | (boolean | string)[] }>();
  for (const series of plan.inputs) {
    const total = population.count[series.entityKey];
    const n = plan.declared[series.entityKey];
    const values = typeof series.fallback === 'number' ? new Float64Array(total).fill(series.fallback) : new Array<boolean | string>(total).fill(series.fallback);
    for (let c = 0; c < copies; c++) {
      for (const [i, v] of series.values) (values as (number | boolean | string)[])[c * n + i] = v;
    }
    arrays.set(`${series.variable}\u0000${series.period}`, { variable: series.variable, period: series.period, values });
  }
  for (const o of axes?.overrides ?? []) {
    const key = `${o.variable}\u0000${o.period}`;
    let entry = arrays.get(key);
    if (!entry) {
      entry = { variable: o.variable, period: o.period, values: new Float64Array(population.count[o.entityKey]) };
      arrays.set(key, entry);
    }
    const n = plan.declared[o.entityKey];
    const target = entry.values as Float64Array;
    for (let c = 0; c < copies; c++) target[c * n + o.index] = o.values[c];
  }
  for (const { variable, period, values } of arrays.values()) simulation.setInput(variable, period, values as InputValues);
}

function replicate(ids: string[], copies: number): string[] {
  const out: string[] = [];
  for (let c = 0; c < copies; c++) for (const id of ids) out.push(`${id}${COPY_SEPARATOR}${c}`);
  return out;
}

function replicateGroups(instances: GroupInstance[], copies: number): GroupInstance[] {
  const out: GroupInstance[] = [];
  for (let c = 0; c < copies; c++) {
    for (const g of instances) {
      out.push({ id: `${g.id}${COPY_SEPARATOR}${c}`, members: g.members.map((m) => `${m}${COPY_SEPARATOR}${c}`) });
    }
  }
  return out;
}

/** JSON has no Infinity or NaN: send them as strings, as PolicyEngine's clients already parse. */
function jsonSafe(value: number | boolean | string): number | boolean | string {
  if (typeof value === 'number' && !Number.isFinite(value)) return Number.isNaN(value) ? 'NaN' : value > 0 ? 'Infinity' : '-Infinity';
  return value;
}
