import Ajv from 'ajv';
import { BEGINNING, isDate } from './dates';
import { parsePath, replaceLeaf, resolve } from './paths';
import { kindOf, seriesKind, updateSeries } from './series';
import { ParameterError, ParameterNode, ParameterValue, Reform } from './types';

/**
 * Reforms as PolicyEngine's API sends them: `{path: {"YYYY-MM-DD.YYYY-MM-DD": value}}`, a single
 * "YYYY-MM-DD" key (open-ended), or a bare value (from the beginning of time, forever).
 */

const value = { anyOf: [{ type: ['number', 'boolean', 'string', 'null'] }, { type: 'array', items: { type: ['string', 'number'] } }] };
export const reformSchema = {
  type: 'object',
  additionalProperties: { anyOf: [value, { type: 'object', additionalProperties: value }] },
};
const checkShape = new Ajv({ strict: false }).compile(reformSchema);

interface Change {
  start: string;
  stop?: string;
  value: ParameterValue;
}

function fail(path: string, message: string): never {
  throw new ParameterError(`reform: ${path}: ${message}`, undefined, path);
}

function changesOf(path: string, spec: unknown): Change[] {
  if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) {
    return [{ start: BEGINNING, value: spec as ParameterValue }];
  }
  return Object.entries(spec as Record<string, ParameterValue>).map(([period, v]) => {
    const parts = period.split('.');
    if (parts.length > 2 || !parts.every(isDate)) {
      fail(path, `bad period "${period}" (expected YYYY-MM-DD.YYYY-MM-DD or YYYY-MM-DD)`);
    }
    if (parts.length === 2 && parts[1] < parts[0]) fail(path, `period "${period}" ends before it starts`);
    return { start: parts[0], stop: parts[1], value: v };
  });
}

const KIND_NAMES: Record<string, string> = {
  number: 'a number',
  bool: 'true/false',
  string: 'text',
  list: 'a list of text',
};

/** The reformed root: only the changed series are new objects, everything else is shared. */
export function applyReform(root: ParameterNode, reform: Reform): ParameterNode {
  if (!checkShape(reform)) {
    const err = checkShape.errors?.[0];
    const where = err?.instancePath.split('/').filter(Boolean)[0] ?? '(root)';
    const isRoot = where === '(root)';
    throw new ParameterError(
      isRoot ? 'reform: must be an object of parameter paths' : `reform: ${where.replace(/~1/g, '/').replace(/~0/g, '~')}: has a value of the wrong type or shape`,
      undefined,
      isRoot ? undefined : where,
    );
  }
  let out = root;
  for (const [path, spec] of Object.entries(reform)) {
    let found;
    try {
      found = resolve(out, path);
    } catch (err) {
      throw new ParameterError(`reform: ${(err as Error).message}`, undefined, path);
    }
    if (found.kind !== 'leaf') fail(path, `is a ${found.kind}, not a single series: reform its leaves`);
    if (found.derived) fail(path, 'is derived from other parameters when the tree is read: reform the parameters it is derived from');
    const kind = seriesKind(found.values);
    let values = found.values;
    for (const change of changesOf(path, spec)) {
      const k = kindOf(change.value);
      if (k !== 'none' && kind !== 'none' && k !== kind) {
        fail(path, `expected ${KIND_NAMES[kind]}, got ${JSON.stringify(change.value)}`);
      }
      values = updateSeries(values, change.start, change.stop, change.value);
    }
    out = replaceLeaf(out, parsePath(path), { ...found, values });
  }
  return out;
}
