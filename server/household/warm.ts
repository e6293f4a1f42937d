/**
 * Warming the household API. The first request a fresh server answers for a country compiles the
 * formula of every variable it reaches, at every period it reaches them (1.2 s for the UK, 1.5 s
 * for the US and 0.8 s more for each further US year, against 10-150 ms once compiled). So once
 * the server listens it computes a household of its own for each country, for this year and last
 * year (the years clients ask for most: current law, and last year's return), one at a time on
 * the event loop so that requests arriving meanwhile are answered between them.
 *
 * The household is built from the model's entities (two adults and two children, every group
 * holding all four) and asks for `household_net_income`, which reaches most of a model; a country
 * without that variable is not warmed. It is not computed again until it gets an execution plan:
 * the plan of so bare a household shares too few kernels with clients' richer ones (a
 * PolicyEngine-style household of twenty inputs built its plan in 1.06 s after such a warm-up,
 * 0.92-0.94 s without), for 3.4 s more of warming.
 */
import type { ModelRegistry } from '../models/registry';
import { HouseholdCalculator, DEFAULT_LIMITS, type CalculableModel } from './calculate';
import type { EnginePort } from './compute';
import type { ModelView } from './model-view';

const WARM_TARGET = 'household_net_income';

/** What warming one country did. */
export interface HouseholdWarmth {
  country: string;
  years: string[];
  /** Formulas compiled by the warm-up (0 when the model had compiled them already). */
  kernels: number;
  ms: number;
}

export interface HouseholdWarmOptions {
  /** Countries to warm (default: every country of the registry). */
  countries?: string[];
  /** Default: this calendar year and the one before. */
  years?: string[];
  log(message: string): void;
}

/** Counts the formulas a model has compiled (the registry's models expose it; others count 0). */
type KernelCounter = { compiledKernels?(): number };

export async function warmHouseholds<M extends CalculableModel & KernelCounter>(
  registry: ModelRegistry<M>,
  engine: EnginePort<M>,
  options: HouseholdWarmOptions,
): Promise<HouseholdWarmth[]> {
  const thisYear = new Date().getFullYear();
  const years = options.years ?? [String(thisYear), String(thisYear - 1)];
  const calculator = new HouseholdCalculator(registry, engine, DEFAULT_LIMITS);
  const done: HouseholdWarmth[] = [];
  for (const country of options.countries ?? registry.countries()) {
    const started = Date.now();
    let model: M;
    try {
      model = registry.resolve(country, 'current').model;
    } catch (error) {
      options.log(`household API: ${country} not warmed: ${(error as Error).message}`);
      continue;
    }
    if (!model.variables.has(WARM_TARGET)) continue;
    const before = model.compiledKernels?.() ?? 0;
    try {
      for (const year of years) {
        // One household per turn of the event loop: a request that came in meanwhile goes first.
        await new Promise((resolve) => setImmediate(resolve));
        calculator.calculate(country, JSON.stringify({ household: warmHousehold(model, year) }));
      }
    } catch (error) {
      options.log(`household API: ${country} not warmed: ${(error as Error).message}`);
      continue;
    }
    const warmth = { country, years, kernels: (model.compiledKernels?.() ?? 0) - before, ms: Date.now() - started };
    done.push(warmth);
    options.log(`household API: ${country} warmed for ${years.join(' and ')} in ${(warmth.ms / 1000).toFixed(1)} s (${warmth.kernels} formulas compiled)`);
  }
  return done;
}

/** Two adults earning and two children, in one instance of every group, asking for the warm target. */
export function warmHousehold(model: ModelView, year: string): Record<string, Record<string, Record<string, unknown>>> {
  const has = (name: string) => model.variables.has(name);
  const person = (age: number, earnings: number) => ({
    ...(has('age') ? { age: { [year]: age } } : {}),
    ...(has('employment_income') ? { employment_income: { [year]: earnings } } : {}),
  });
  const people = { adult1: person(40, 30_000), adult2: person(38, 15_000), child1: person(10, 0), child2: person(4, 0) };
  const members = Object.keys(people);
  const household: Record<string, Record<string, Record<string, unknown>>> = { [model.personEntity().plural]: people };
  const target = model.variables.get(WARM_TARGET)!.entity;
  for (const entity of model.country.entities) {
    if (entity.isPerson) continue;
    household[entity.plural] = { [`${entity.key}1`]: { members, ...(entity.key === target ? { [WARM_TARGET]: { [year]: null } } : {}) } };
  }
  return household;
}
