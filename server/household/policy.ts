/**
 * Checks a `policy` payload against the model's parameter tree before any simulation is built:
 * every path must name a parameter leaf (bracket paths like `rates.uk[0].rate` included), every
 * date key must be a real date range, and every value must have the type of the values it replaces.
 */
import type { Parameter, ParameterLeaf, ParameterValue, Reform } from '../../parameters/types';
import { isDate } from '../../parameters/dates';
import type { ProblemDetail } from '../http/errors';

/** The part of ParameterTree the check needs (`get` throws for unknown paths). */
export interface ParameterLookup {
  get(path: string): Parameter;
}

export function checkPolicy(tree: ParameterLookup, policy: Record<string, Record<string, unknown>>): { reform: Reform; problems: ProblemDetail[] } {
  const problems: ProblemDetail[] = [];
  const reform: Reform = {};
  for (const [path, series] of Object.entries(policy)) {
    const where = `policy/${path}`;
    const found = findLeaf(tree, path);
    if (typeof found === 'string') {
      problems.push({ path: where, message: found });
      continue;
    }
    const kind = valueKind(found);
    const checked: Record<string, ParameterValue> = {};
    for (const [range, value] of Object.entries(series)) {
      const rangeProblem = checkRange(range);
      if (rangeProblem) {
        problems.push({ path: `${where}/${range}`, message: rangeProblem });
        continue;
      }
      const valueProblem = checkValue(kind, value);
      if (valueProblem) {
        problems.push({ path: `${where}/${range}`, message: `${path} ${valueProblem}` });
        continue;
      }
      checked[range] = value as ParameterValue;
    }
    reform[path] = checked;
  }
  return { reform, problems };
}

const BRACKET = /^(.*)\[(\d+)\]\.(threshold|rate|amount)$/;

/** The leaf at a path, or a message saying why there is none. */
function findLeaf(tree: ParameterLookup, path: string): ParameterLeaf | string {
  const bracket = BRACKET.exec(path);
  const base = bracket ? bracket[1] : path;
  let parameter: Parameter;
  try {
    parameter = tree.get(base);
  } catch (error) {
    return `is not a parameter: ${(error as Error).message}`;
  }
  if (bracket) {
    if (parameter.kind !== 'scale') return `${base} is not a scale, so it has no brackets`;
    const index = Number(bracket[2]);
    const b = parameter.brackets[index];
    if (!b) return `${base} has ${parameter.brackets.length} brackets; [${index}] does not exist`;
    const leaf = b[bracket[3] as 'threshold' | 'rate' | 'amount'];
    if (!leaf) return `bracket [${index}] of ${base} has no ${bracket[3]}`;
    return leaf;
  }
  if (parameter.kind === 'scale') return `is a scale: change one bracket, e.g. ${path}[0].rate or ${path}[0].threshold`;
  if (parameter.kind === 'node') {
    const children = Object.keys(parameter.children).slice(0, 5).join(', ');
    return `is a group of parameters, not a value: name one of its children (${children}${Object.keys(parameter.children).length > 5 ? ', ...' : ''})`;
  }
  return parameter;
}

type Kind = 'number' | 'boolean' | 'string' | 'list';

function valueKind(leaf: ParameterLeaf): Kind {
  for (const { value } of leaf.values) {
    if (value === null) continue;
    if (Array.isArray(value)) return 'list';
    return typeof value as Kind;
  }
  return 'number';
}

function checkValue(kind: Kind, value: unknown): string | undefined {
  switch (kind) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : `takes a number, got ${JSON.stringify(value)}`;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `takes true or false, got ${JSON.stringify(value)}`;
    case 'string':
      return typeof value === 'string' ? undefined : `takes a string, got ${JSON.stringify(value)}`;
    case 'list':
      return Array.isArray(value) && value.every((v) => typeof v === 'string') ? undefined : `takes a list of names, got ${JSON.stringify(value)}`;
  }
}

function checkRange(range: string): string | undefined {
  const [start, stop, extra] = range.split('.');
  if (extra !== undefined || !isDate(start) || (stop !== undefined && !isDate(stop))) {
    return 'is not a date range "YYYY-MM-DD.YYYY-MM-DD" or a start date "YYYY-MM-DD" of real dates';
  }
  if (stop !== undefined && stop < start) return `ends (${stop}) before it starts (${start})`;
  return undefined;
}
