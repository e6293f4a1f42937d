import { isDate } from './dates';
import { Parameter, ParameterError, ParameterMetadata, UpratingSpec } from './types';

/** Normalizes `uprating: path` and `uprating: {parameter, rounding, start_instant}` to an UpratingSpec. */
export function normalizeUprating(raw: unknown, file: string, path: string): UpratingSpec {
  const fail = (what: string): never => {
    throw new ParameterError(`${file}: ${path}.metadata.uprating: ${what}`, file, path);
  };
  if (typeof raw === 'string') {
    if (raw === 'self') fail('"self" uprating is not supported');
    return { parameter: raw };
  }
  const obj = raw as Record<string, unknown>;
  if (obj.at_defined_interval !== undefined) fail('at_defined_interval is not supported');
  if (obj.parameter === 'self') fail('"self" uprating is not supported');
  const spec: UpratingSpec = { parameter: obj.parameter as string };
  if (typeof obj.rounding === 'number') {
    if (!(obj.rounding > 0)) fail('rounding must be a positive interval');
    spec.rounding = { type: 'nearest', interval: obj.rounding };
  } else if (obj.rounding !== undefined) {
    spec.rounding = obj.rounding as UpratingSpec['rounding'];
  }
  if (obj.start_instant !== undefined) {
    if (!isDate(obj.start_instant)) fail(`start_instant "${String(obj.start_instant)}" is not a date`);
    spec.startInstant = obj.start_instant as string;
  }
  return spec;
}

/**
 * A file's metadata as the engine reads it: `breakdown` always a list, `uprating` an UpratingSpec,
 * the top-level `description` kept as metadata.description. Input is already schema-checked.
 */
export function normalizeMetadata(raw: unknown, description: unknown, file: string, path: string): ParameterMetadata {
  const meta: ParameterMetadata = { ...((raw as ParameterMetadata | undefined) ?? {}) };
  if (typeof description === 'string' && meta.description === undefined) meta.description = description;
  if (typeof meta.breakdown === 'string') meta.breakdown = [meta.breakdown];
  if (meta.uprating !== undefined) meta.uprating = normalizeUprating(meta.uprating, file, path);
  return meta;
}

/** Keys a parent never passes down (PolicyEngine's list): they describe the parent itself. */
const UNPROPAGATED = new Set(['breakdown', 'label', 'name', 'description']);

function inheritable(meta: ParameterMetadata): ParameterMetadata {
  const out: ParameterMetadata = {};
  for (const [k, v] of Object.entries(meta)) if (!UNPROPAGATED.has(k)) out[k] = v;
  return out;
}

/**
 * `propagate_metadata_to_children: true` copies a node's metadata onto every descendant, scale
 * brackets included. As in PolicyEngine, an ancestor's keys override a descendant's own, and the
 * outermost ancestor wins. Mutates freshly built parameters (before the tree is shared).
 */
export function propagateMetadata(param: Parameter, inherited?: ParameterMetadata): void {
  if (inherited) Object.assign(param.metadata, inherited);
  const passDown = param.metadata.propagate_metadata_to_children === true ? inheritable(param.metadata) : inherited;
  if (param.kind === 'node') {
    for (const child of Object.values(param.children)) propagateMetadata(child, passDown);
  } else if (param.kind === 'scale' && passDown) {
    for (const bracket of param.brackets) {
      for (const leaf of [bracket.threshold, bracket.rate, bracket.amount, bracket.average_rate, bracket.base]) {
        if (leaf) Object.assign(leaf.metadata, passDown);
      }
    }
  }
}
