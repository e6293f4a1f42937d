/**
 * Turns a (schema-valid) household payload into a calculation plan, checking it against the
 * model: known groups, members, variables, periods and value types. Every problem is collected
 * with its path so one answer lists them all.
 */
import type { VariableSpec } from '../../core/types';
import type { ProblemDetail } from '../http/errors';
import type { CoverageWarning } from './compute';
import { defaultValue, type InputScalar, type ModelView } from './model-view';

export interface GroupInstance {
  id: string;
  members: string[];
}

/** Values supplied for one (variable, period): instance index -> value, the rest get the default. */
export interface InputSeries {
  variable: string;
  /** Period as the engine takes it ("2025", "2025-01" or "eternity"). */
  period: string;
  entityKey: string;
  values: Map<number, InputScalar>;
  fallback: InputScalar;
}

/** A null slot of the payload that the answer must fill. */
export interface OutputSlot {
  plural: string;
  id: string;
  variable: string;
  /** The key as the client wrote it (the answer echoes it). */
  periodKey: string;
  period: string;
  entityKey: string;
  /** Index of the instance among the declared instances of its entity. */
  instance: number;
}

export interface HouseholdPlan {
  personIds: string[];
  /** Declared group instances by entity key, in payload order. */
  groups: Record<string, GroupInstance[]>;
  /** Declared instance count per entity key (auto-created singleton groups are not counted). */
  declared: Record<string, number>;
  inputs: InputSeries[];
  outputs: OutputSlot[];
  /** The first period key seen (the default period of axes). */
  firstPeriod?: string;
  /** Variables of the reference model (PolicyEngine's) this model does not have: not used, not computed. */
  notModelled: CoverageWarning[];
}

export interface PlanLimits {
  maxPeople: number;
}

type Payload = Record<string, Record<string, Record<string, unknown>>>;

export function planHousehold(model: ModelView, household: Payload, limits: PlanLimits): { plan: HouseholdPlan; problems: ProblemDetail[] } {
  const problems: ProblemDetail[] = [];
  const person = model.personEntity();
  const people = household[person.plural] ?? {};
  const personIds = Object.keys(people);
  if (personIds.length === 0) problems.push({ path: person.plural, message: 'must contain at least one person' });
  if (personIds.length > limits.maxPeople) {
    problems.push({ path: person.plural, message: `has ${personIds.length} people; the limit is ${limits.maxPeople}` });
  }
  const plan: HouseholdPlan = { personIds, groups: {}, declared: { [person.key]: personIds.length }, inputs: [], outputs: [], notModelled: [] };
  const series = new Map<string, InputSeries>();
  const personSet = new Set(personIds);

  for (const [plural, instances] of Object.entries(household)) {
    if (plural === 'axes') continue;
    const entity = model.entityByPlural(plural);
    if (!entity) {
      const known = model.country.entities.map((e) => e.plural).join(', ');
      problems.push({ path: plural, message: `is not a group of ${model.country.id} (groups: ${known})` });
      continue;
    }
    const ids = Object.keys(instances);
    plan.declared[entity.key] = ids.length;
    if (!entity.isPerson) plan.groups[entity.key] = [];
    const placed = new Map<string, string>();
    ids.forEach((id, instance) => {
      const body = instances[id];
      if (!entity.isPerson) {
        const members = checkMembers(plural, id, body.members, personSet, placed, entity.key, problems);
        plan.groups[entity.key].push({ id, members });
      } else if ('members' in body) {
        problems.push({ path: `${plural}/${id}/members`, message: 'people have no members' });
      }
      for (const [variable, periods] of Object.entries(body)) {
        if (variable === 'members') continue;
        const spec = model.variables.get(variable);
        const where = `${plural}/${id}/${variable}`;
        if (!spec) {
          notModelled(model, entity.key, variable, periods, where, plan, problems);
          continue;
        }
        if (spec.entity !== entity.key) {
          problems.push(wrongGroup(model, where, variable, spec.entity, entity.key));
          continue;
        }
        for (const [periodKey, value] of Object.entries(periods as Record<string, unknown>)) {
          const period = enginePeriod(spec, periodKey, value === null, `${where}/${periodKey}`, problems);
          if (period === undefined) continue;
          plan.firstPeriod ??= periodKey;
          if (value === null) {
            plan.outputs.push({ plural, id, variable, periodKey, period, entityKey: entity.key, instance });
            continue;
          }
          const checked = checkValue(spec, value, `${where}/${periodKey}`, problems);
          if (checked === undefined) continue;
          const key = `${variable}\u0000${period}`;
          let s = series.get(key);
          if (!s) {
            s = { variable, period, entityKey: entity.key, values: new Map(), fallback: defaultValue(spec) };
            series.set(key, s);
          }
          s.values.set(instance, checked);
        }
      }
    });
  }
  plan.inputs = [...series.values()];
  return { plan, problems };
}

/**
 * A name this model does not have. A variable of the reference model (PolicyEngine's) is answered,
 * not refused, so that a client's ordinary payload still gets everything this model computes: a
 * value given for it is not used and a value asked for stays null, each with a warning. A name
 * the reference model does not have either (a typo) is an error.
 */
function notModelled(model: ModelView, entityKey: string, variable: string, periods: unknown, where: string, plan: HouseholdPlan, problems: ProblemDetail[]): void {
  const { model: reference, variables } = model.country.reference;
  const ref = variables.get(variable);
  if (!ref) {
    problems.push({ path: where, message: `unknown variable "${variable}" in ${model.country.id}` });
    return;
  }
  if (ref.entity !== entityKey) {
    problems.push(wrongGroup(model, where, variable, ref.entity, entityKey));
    return;
  }
  for (const [period, value] of Object.entries(periods as Record<string, unknown>)) {
    plan.notModelled.push({
      path: where,
      period,
      message: value === null
        ? `${variable} is a ${reference} variable this model does not compute: its value is left null`
        : `${variable} is a ${reference} variable this model does not have: the value given is not used`,
    });
  }
}

function checkMembers(
  plural: string, id: string, members: unknown, people: Set<string>, placed: Map<string, string>,
  entityKey: string, problems: ProblemDetail[],
): string[] {
  if (members === undefined) {
    problems.push({ path: `${plural}/${id}/members`, message: 'is required: list the ids of the people in this group' });
    return [];
  }
  const list = members as string[];
  const kept: string[] = [];
  list.forEach((member, i) => {
    const at = `${plural}/${id}/members/${i}`;
    if (!people.has(member)) {
      problems.push({ path: at, message: `"${member}" is not a person of this household` });
    } else if (placed.has(member)) {
      problems.push({ path: at, message: `"${member}" is already a member of ${entityKey} "${placed.get(member)}"` });
    } else {
      placed.set(member, id);
      kept.push(member);
    }
  });
  return kept;
}

const YEAR = /^\d{4}$/;

/**
 * The period the engine is asked for, or undefined (with a problem) when it does not fit the
 * variable. A yearly output may be asked for a month (the engine divides flows by 12, as
 * PolicyEngine does), but a yearly input cannot be given for one month.
 */
function enginePeriod(spec: VariableSpec, key: string, isOutput: boolean, where: string, problems: ProblemDetail[]): string | undefined {
  if (spec.period === 'eternity') return 'eternity';
  if (spec.period === 'year' && !isOutput && !YEAR.test(key)) {
    problems.push({ path: where, message: `${spec.name} is defined per year: give it for a year like ${key.slice(0, 4)}, not a month` });
    return undefined;
  }
  return key;
}

function checkValue(spec: VariableSpec, value: unknown, where: string, problems: ProblemDetail[]): InputScalar | undefined {
  switch (spec.type) {
    case 'float':
    case 'int':
      if (typeof value === 'number' && Number.isFinite(value)) return value;
      problems.push({ path: where, message: `${spec.name} takes a number, got ${JSON.stringify(value)}` });
      return undefined;
    case 'bool':
      if (typeof value === 'boolean') return value;
      problems.push({ path: where, message: `${spec.name} takes true or false, got ${JSON.stringify(value)}` });
      return undefined;
    case 'enum': {
      const names = spec.possible_values ?? [];
      if (typeof value === 'string' && names.includes(value)) return value;
      const shown = names.length > 12 ? `${names.slice(0, 12).join(', ')}, ...` : names.join(', ');
      problems.push({ path: where, message: `${JSON.stringify(value)} is not a value of ${spec.name} (one of: ${shown})` });
      return undefined;
    }
    case 'string':
      if (typeof value === 'string') return value;
      problems.push({ path: where, message: `${spec.name} takes a string, got ${JSON.stringify(value)}` });
      return undefined;
  }
}

/** A variable placed in a group of another entity than its own. */
function wrongGroup(model: ModelView, where: string, variable: string, own: string, placed: string): ProblemDetail {
  return { path: where, message: `${variable} belongs to ${own}, not ${placed}: put it under the ${pluralOf(model, own)} group` };
}

function pluralOf(model: ModelView, entityKey: string): string {
  return model.country.entities.find((e) => e.key === entityKey)?.plural ?? entityKey;
}
