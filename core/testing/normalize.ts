/**
 * Turns a loaded YAML case into an engine-neutral description: persons, groups, typed inputs,
 * inline parameter overrides as a Reform, and expected outputs per entity instance. Pure: it
 * needs only the country's entities and variable specs, so it is testable without the engine.
 */
import type { Reform } from '../../parameters/types';
import { parseTestPeriod } from './periods';
import { buildSituation, Entities, isMapping } from './situation';
import type { ExpectedOutput, LoadedCase, Margins, NormalizedCase, RawCase, TestModel } from './types';
import { toExpectedValue } from './values';

/** PolicyEngine applies inline overrides to `year:2000:40`, i.e. 2000-01-01 to 2039-12-31. */
export const OVERRIDE_SPAN = '2000-01-01.2039-12-31';

/** Splits `input` into variables and inline parameter overrides (keys containing a dot). */
function splitOverrides(input: Record<string, unknown>): { variables: Record<string, unknown>; reform?: Reform; reformKey: string } {
  const variables: Record<string, unknown> = {};
  const overrides: [string, unknown][] = [];
  for (const [key, value] of Object.entries(input)) {
    if (key.includes('.')) overrides.push([key, value]);
    else variables[key] = value;
  }
  if (overrides.length === 0) return { variables, reformKey: '' };
  const reform: Reform = {};
  for (const [path, value] of overrides) reform[path] = { [OVERRIDE_SPAN]: value as Reform[string][string] };
  const reformKey = JSON.stringify([...overrides].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { variables, reform, reformKey };
}

function marginsOf(raw: RawCase): Margins {
  const margins: Margins = {};
  if (typeof raw.absolute_error_margin === 'number') margins.absolute = raw.absolute_error_margin;
  if (typeof raw.relative_error_margin === 'number') margins.relative = raw.relative_error_margin;
  if (margins.absolute === undefined && margins.relative === undefined) margins.absolute = 0.001;
  return margins;
}

function unsupported(raw: RawCase): string[] {
  const errors: string[] = [];
  const listed = (value: unknown): string[] => (typeof value === 'string' ? [value] : Array.isArray(value) ? value.map(String) : []);
  const reforms = listed(raw.reforms);
  if (reforms.length > 0) errors.push(`reforms: Python reform classes cannot run here (${reforms.join(', ')}); write the change as inline parameter overrides`);
  const extensions = listed(raw.extensions);
  if (extensions.length > 0) errors.push(`extensions: not supported (${extensions.join(', ')})`);
  return errors;
}

class OutputReader {
  readonly outputs: ExpectedOutput[] = [];
  readonly errors: string[] = [];
  constructor(
    private readonly model: TestModel,
    private readonly instanceCount: (entityKey: string) => number,
    private readonly skip: (variable: string) => boolean,
  ) {}

  /** One variable's expectation: a value, a list (one per instance) or a mapping of periods. */
  add(variable: string, value: unknown, period: string, instanceIndex: number | null, path: string, requiredEntity?: string): void {
    const spec = this.model.variables.get(variable);
    if (!spec) {
      this.errors.push(`${path}: unknown variable ${variable}`);
      return;
    }
    if (this.skip(variable)) return;
    if (requiredEntity !== undefined && spec.entity !== requiredEntity) {
      this.errors.push(`${path}: ${variable} is a ${spec.entity} variable, it cannot be checked for a ${requiredEntity}`);
      return;
    }
    if (isMapping(value)) {
      for (const [periodText, periodValue] of Object.entries(value)) {
        try {
          this.add(variable, periodValue, parseTestPeriod(periodText), instanceIndex, `${path}/${periodText}`);
        } catch (error) {
          this.errors.push(`${path}/${periodText}: ${(error as Error).message}`);
        }
      }
      return;
    }
    const count = this.instanceCount(spec.entity);
    if (Array.isArray(value) && value.length !== 1) {
      if (instanceIndex !== null || value.length !== count) {
        const target = instanceIndex !== null ? 'one instance' : `${count} ${spec.entity} ${count === 1 ? 'instance' : 'instances'}`;
        this.errors.push(`${path}: ${value.length} expected values given for ${target}`);
        return;
      }
      value.forEach((one, i) => this.push(spec.name, spec.entity, one, period, i, `${path}[${i}]`));
      return;
    }
    this.push(spec.name, spec.entity, Array.isArray(value) ? value[0] : value, period, instanceIndex, path);
  }

  private push(variable: string, entityKey: string, value: unknown, period: string, instanceIndex: number | null, path: string): void {
    if (value === null || value === undefined) {
      this.errors.push(`${path}: no expected value`);
      return;
    }
    try {
      const expected = toExpectedValue(this.model.variables.get(variable)!, value);
      this.outputs.push({ variable, entityKey, instanceIndex, period, expected, path });
    } catch (error) {
      this.errors.push(`${path}: ${(error as Error).message}`);
    }
  }
}

/** Normalizes one validated case. Problems never throw: they are listed in `errors`. */
export function normalizeCase(model: TestModel, loaded: LoadedCase & { raw: RawCase }): NormalizedCase {
  const raw = loaded.raw;
  const entities = new Entities(model.country.entities);
  const errors: string[] = unsupported(raw);
  let period: string;
  try {
    // PolicyEngine falls back to the current year when a case gives no period.
    period = parseTestPeriod(raw.period ?? new Date().getFullYear());
  } catch (error) {
    errors.push(`period: ${(error as Error).message}`);
    period = String(new Date().getFullYear());
  }
  const { variables, reform, reformKey } = splitOverrides(raw.input ?? {});
  const situation = buildSituation(model, entities, variables, period);
  errors.push(...situation.errors);
  const runnable = errors.length === 0;

  const instanceCount = (key: string): number =>
    key === entities.person.key ? situation.persons.length : situation.groups[key]?.length ?? 0;
  const only = raw.only_variables;
  const ignored = raw.ignore_variables ?? [];
  const reader = new OutputReader(model, instanceCount, (v) => ignored.includes(v) || (only !== undefined && !only.includes(v)));

  for (const [key, value] of Object.entries(raw.output)) {
    const path = `output/${key}`;
    if (model.variables.has(key)) {
      reader.add(key, value, period, null, path);
      continue;
    }
    const singular = entities.byKey(key);
    const plural = entities.byPlural(key);
    if (!singular && !plural) {
      reader.errors.push(`${path}: unknown variable ${key}`);
      continue;
    }
    if (!isMapping(value)) {
      reader.errors.push(`${path}: expected a mapping of ${singular ? 'variables' : `${key} ids`}`);
      continue;
    }
    if (singular) {
      // A singular entity key checks its variables on every instance, as PolicyEngine does.
      for (const [variable, expected] of Object.entries(value)) reader.add(variable, expected, period, null, `${path}/${variable}`);
      continue;
    }
    const ids = plural!.isPerson ? situation.persons : (situation.groups[plural!.key] ?? []).map((g) => g.id);
    for (const [id, checks] of Object.entries(value)) {
      const index = ids.indexOf(id);
      if (index < 0) {
        reader.errors.push(`${path}/${id}: no ${plural!.key} '${id}' in the input${ids.length ? ` (there are: ${ids.join(', ')})` : ''}`);
        continue;
      }
      if (!isMapping(checks)) {
        reader.errors.push(`${path}/${id}: expected a mapping of variables`);
        continue;
      }
      for (const [variable, expected] of Object.entries(checks)) reader.add(variable, expected, period, index, `${path}/${id}/${variable}`, plural!.key);
    }
  }
  errors.push(...reader.errors);

  return {
    file: loaded.file, index: loaded.index, name: loaded.name, period,
    persons: situation.persons, groups: situation.groups, inputs: situation.inputs,
    reform, reformKey, outputs: reader.outputs, margins: marginsOf(raw), errors, runnable,
  };
}
