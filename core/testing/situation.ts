/**
 * The people, groups and input values of one test case, built as PolicyEngine's SimulationBuilder
 * does: the flat form (variables only) or the entity form (`people`, `households`, ...), with the
 * singular shortcut (`household: {members: [...]}`) expanded first.
 */
import type { EntityDef, VariableSpec } from '../types';
import { parseTestPeriod } from './periods';
import type { NormalizedInput, TestModel } from './types';
import { toInputValue } from './values';

export interface Situation {
  persons: string[];
  groups: Record<string, { id: string; members: string[] }[]>;
  inputs: NormalizedInput[];
  /** Any error means the case cannot run. */
  errors: string[];
}

export function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export class Entities {
  readonly person: EntityDef;
  readonly groups: EntityDef[];
  constructor(readonly all: readonly EntityDef[]) {
    const person = all.find((e) => e.isPerson);
    if (!person) throw new Error('the country defines no person entity');
    this.person = person;
    this.groups = all.filter((e) => !e.isPerson);
  }
  byKey(key: string): EntityDef | undefined {
    return this.all.find((e) => e.key === key);
  }
  byPlural(plural: string): EntityDef | undefined {
    return this.all.find((e) => e.plural === plural);
  }
}

/** Collects the inputs of one variable on one instance; `value` may be per-period. */
class InputCollector {
  readonly inputs: NormalizedInput[] = [];
  readonly errors: string[] = [];
  constructor(private readonly model: TestModel, private readonly period: string) {}

  spec(variable: string, path: string): VariableSpec | undefined {
    const spec = this.model.variables.get(variable);
    if (!spec) this.errors.push(`${path}: unknown variable ${variable}`);
    return spec;
  }

  /** `values` is one value per instance (flat form lists) or the same value for every instance. */
  add(spec: VariableSpec, instances: number[], value: unknown, path: string): void {
    const byPeriod: [string, unknown][] = isMapping(value) ? Object.entries(value) : [[this.period, value]];
    for (const [periodText, periodValue] of byPeriod) {
      let period: string;
      try {
        period = parseTestPeriod(periodText);
      } catch (error) {
        this.errors.push(`${path}/${periodText}: ${(error as Error).message}`);
        continue;
      }
      const where = isMapping(value) ? `${path}/${periodText}` : path;
      if (periodValue === null || periodValue === undefined) continue;
      if (Array.isArray(periodValue) && periodValue.length !== instances.length) {
        this.errors.push(`${where}: ${periodValue.length} values given for ${instances.length} ${instances.length === 1 ? 'instance' : 'instances'}`);
        continue;
      }
      instances.forEach((instanceIndex, i) => {
        const one = Array.isArray(periodValue) ? periodValue[i] : periodValue;
        if (one === null || one === undefined) return;
        try {
          this.inputs.push({ entityKey: spec.entity, instanceIndex, variable: spec.name, period, value: toInputValue(spec, one) });
        } catch (error) {
          this.errors.push(`${where}: ${(error as Error).message}`);
        }
      });
    }
  }
}

/** PolicyEngine's person count for the flat form: the length of the first value if it is a list. */
function flatPersonCount(input: Record<string, unknown>): number {
  let first = Object.values(input)[0];
  if (isMapping(first)) first = Object.values(first)[0];
  return Array.isArray(first) ? Math.max(1, first.length) : 1;
}

function buildFlat(model: TestModel, entities: Entities, input: Record<string, unknown>, period: string): Situation {
  const count = flatPersonCount(input);
  const ids = Array.from({ length: count }, (_, i) => String(i));
  const groups: Situation['groups'] = {};
  for (const entity of entities.groups) groups[entity.key] = ids.map((id) => ({ id, members: [id] }));
  const collector = new InputCollector(model, period);
  for (const [variable, value] of Object.entries(input)) {
    const spec = collector.spec(variable, `input/${variable}`);
    if (spec) collector.add(spec, ids.map((_, i) => i), value, `input/${variable}`);
  }
  return { persons: ids, groups, inputs: collector.inputs, errors: collector.errors };
}

/** `members` may be a list or a single id; numbers are read as ids (PolicyEngine's strict syntax). */
function memberList(value: unknown, path: string, errors: string[]): string[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string' || typeof value === 'number') return [String(value)];
  if (!Array.isArray(value)) {
    errors.push(`${path}: members must be a list of person ids`);
    return [];
  }
  const out: string[] = [];
  for (const item of value) {
    if (typeof item === 'string' || typeof item === 'number') out.push(String(item));
    else errors.push(`${path}: a member must be a person id, got ${JSON.stringify(item)}`);
  }
  return out;
}

function checkEntity(spec: VariableSpec, entity: EntityDef, path: string, errors: string[]): boolean {
  if (spec.entity === entity.key) return true;
  errors.push(`${path}: ${spec.name} is a ${spec.entity} variable, it cannot be given for a ${entity.key}`);
  return false;
}

function buildEntities(model: TestModel, entities: Entities, input: Record<string, unknown>, period: string): Situation {
  const errors: string[] = [];
  const collector = new InputCollector(model, period);
  const plurals = entities.all.map((e) => e.plural);
  for (const key of Object.keys(input)) {
    if (!plurals.includes(key)) {
      errors.push(`input/${key}: '${key}' is neither an entity (${plurals.join(', ')}) nor allowed next to them; give variables inside an entity`);
    }
  }
  const peopleJson = input[entities.person.plural];
  if (!isMapping(peopleJson) || Object.keys(peopleJson).length === 0) {
    errors.push(`input/${entities.person.plural}: at least one ${entities.person.key} must be defined`);
    return { persons: [], groups: {}, inputs: [], errors };
  }
  const persons = Object.keys(peopleJson);
  persons.forEach((id, index) => {
    const variables = peopleJson[id];
    const path = `input/${entities.person.plural}/${id}`;
    if (variables === null || variables === undefined) return;
    if (!isMapping(variables)) {
      errors.push(`${path}: expected a mapping of variables`);
      return;
    }
    for (const [variable, value] of Object.entries(variables)) {
      const spec = collector.spec(variable, `${path}/${variable}`);
      if (spec && checkEntity(spec, entities.person, `${path}/${variable}`, errors)) collector.add(spec, [index], value, `${path}/${variable}`);
    }
  });

  const groups: Situation['groups'] = {};
  for (const entity of entities.groups) {
    const instancesJson = input[entity.plural];
    if (instancesJson === undefined || instancesJson === null) {
      // PolicyEngine: an entity nobody mentions is one instance, named after the entity, holding everyone.
      groups[entity.key] = [{ id: entity.key, members: [...persons] }];
      continue;
    }
    if (!isMapping(instancesJson)) {
      errors.push(`input/${entity.plural}: expected a mapping of ${entity.key} ids`);
      continue;
    }
    const allocated = new Set<string>();
    const instances: { id: string; members: string[] }[] = [];
    const declared = Object.entries(instancesJson);
    declared.forEach(([id, body], instanceIndex) => {
      const path = `input/${entity.plural}/${id}`;
      const fields = isMapping(body) ? body : {};
      if (!isMapping(body) && body !== null) errors.push(`${path}: expected a mapping with members and variables`);
      // PolicyEngine: the only instance of an entity, declared without members, holds everyone.
      const everyone = declared.length === 1 && fields.members === undefined;
      const members = (everyone ? [...persons] : memberList(fields.members, `${path}/members`, errors)).filter((person) => {
        if (!persons.includes(person)) {
          errors.push(`${path}/members: ${person} is not declared in ${entities.person.plural}`);
          return false;
        }
        if (allocated.has(person)) {
          errors.push(`${path}/members: ${person} is declared more than once in ${entity.plural}`);
          return false;
        }
        allocated.add(person);
        return true;
      });
      instances.push({ id, members });
      for (const [variable, value] of Object.entries(fields)) {
        if (variable === 'members') continue;
        const spec = collector.spec(variable, `${path}/${variable}`);
        if (spec && checkEntity(spec, entity, `${path}/${variable}`, errors)) collector.add(spec, [instanceIndex], value, `${path}/${variable}`);
      }
    });
    // A person left out of every instance gets one of their own, named after them.
    for (const person of persons) if (!allocated.has(person)) instances.push({ id: person, members: [person] });
    groups[entity.key] = instances;
  }
  return { persons, groups, inputs: collector.inputs, errors: [...errors, ...collector.errors] };
}

/**
 * Builds the situation from a case's `input` (parameter overrides already removed). Singular
 * entity keys become one instance named after the key, and flat keys next to them are dropped,
 * as PolicyEngine does.
 */
export function buildSituation(model: TestModel, entities: Entities, input: Record<string, unknown>, period: string): Situation {
  const singular = Object.keys(input).filter((key) => entities.byKey(key) !== undefined);
  let explicit = input;
  if (singular.length > 0) {
    explicit = {};
    for (const [key, value] of Object.entries(input)) if (entities.byPlural(key)) explicit[key] = value;
    for (const key of singular) explicit[entities.byKey(key)!.plural] = { [key]: input[key] };
  }
  const entityForm = Object.keys(explicit).some((key) => entities.byPlural(key) !== undefined);
  return entityForm ? buildEntities(model, entities, explicit, period) : buildFlat(model, entities, explicit, period);
}
