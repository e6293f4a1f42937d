import { BEGINNING } from './dates';
import { seriesKind } from './series';
import { Parameter, ParameterError, ParameterLeaf, ParameterNode } from './types';

/**
 * Breakdown nodes (`metadata.breakdown`) must have exactly one child per possible key at each level:
 * missing keys are filled with 0 (false for true/false series), as PolicyEngine does; keys that are
 * not possible values are errors (PolicyEngine only warns, and then never reads them).
 */

export type BreakdownValues = (variableName: string) => string[] | undefined;

const RANGE = /^range\(\s*(-?\d+)\s*(?:,\s*(-?\d+)\s*)?\)$/;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The keys one breakdown level allows, or undefined when they cannot be known (unknown variable). */
export function levelKeys(
  level: string | (string | number)[],
  lookup: BreakdownValues | undefined,
  file: string,
  path: string,
): string[] | undefined {
  if (Array.isArray(level)) return level.map((k) => String(k));
  const m = RANGE.exec(level);
  if (m) {
    const [a, b] = m[2] === undefined ? [0, Number(m[1])] : [Number(m[1]), Number(m[2])];
    const keys: string[] = [];
    for (let i = a; i < b; i++) keys.push(String(i));
    return keys;
  }
  if (!IDENTIFIER.test(level)) {
    throw new ParameterError(
      `${file}: ${path}.metadata.breakdown: "${level}" is neither a variable name, range(a, b) nor a list`,
      file,
      path,
    );
  }
  return lookup ? lookup(level) : undefined;
}

function leavesOf(param: Parameter): ParameterLeaf[] {
  if (param.kind === 'leaf') return [param];
  if (param.kind === 'node') return Object.values(param.children).flatMap(leavesOf);
  return [];
}

function filler(path: string, levels: string[][], value: number | boolean, file: string): Parameter {
  if (levels.length === 0) {
    return { kind: 'leaf', path, values: [{ start: BEGINNING, value }], metadata: {}, file };
  }
  const children: Record<string, Parameter> = {};
  for (const key of levels[0]) children[key] = filler(`${path}.${key}`, levels.slice(1), value, file);
  return { kind: 'node', path, children, metadata: {}, file };
}

function homogenizeLevel(
  node: ParameterNode,
  levels: (string[] | undefined)[],
  zero: number | boolean,
  breakdown: unknown[],
): void {
  const keys = levels[0];
  const deeper = levels.slice(1);
  if (keys) {
    const allowed = new Set(keys);
    for (const key of Object.keys(node.children)) {
      if (!allowed.has(key)) {
        const shown = keys.length > 12 ? `${keys.slice(0, 12).join(', ')}, ...` : keys.join(', ');
        throw new ParameterError(
          `${node.file}: ${node.path}.${key}: "${key}" is not a value of breakdown ${JSON.stringify(breakdown[0])} (expected one of ${shown})`,
          node.file,
          `${node.path}.${key}`,
        );
      }
    }
    // Missing subtrees can only be filled when every deeper level's keys are known.
    const fillable = deeper.every((l) => l !== undefined);
    // Children follow the breakdown's order, so a NodeAt lists keys as the enum does.
    const ordered: Record<string, Parameter> = {};
    for (const key of keys) {
      const child = node.children[key] ?? (fillable ? filler(`${node.path}.${key}`, deeper as string[][], zero, node.file) : undefined);
      if (child) ordered[key] = child;
    }
    node.children = ordered;
  }
  if (deeper.length === 0) return;
  for (const [key, child] of Object.entries(node.children)) {
    if (child.kind !== 'node') {
      throw new ParameterError(
        `${node.file}: ${node.path}.${key}: expected a node broken down by ${JSON.stringify(breakdown[1])}, found a ${child.kind}`,
        node.file,
        `${node.path}.${key}`,
      );
    }
    homogenizeLevel(child, deeper, zero, breakdown.slice(1));
  }
}

/** Checks and fills every breakdown node under `param` (mutates a freshly built tree). */
export function homogenizeBreakdowns(param: Parameter, lookup: BreakdownValues | undefined): void {
  if (param.kind !== 'node') return;
  const breakdown = param.metadata.breakdown;
  if (breakdown && breakdown.length > 0) {
    const levels = breakdown.map((level) => levelKeys(level, lookup, param.file, param.path));
    const kinds = new Set(leavesOf(param).map((l) => seriesKind(l.values)).filter((k) => k !== 'none'));
    const zero = kinds.size === 1 && kinds.has('bool') ? false : 0;
    homogenizeLevel(param, levels, zero, breakdown);
  }
  for (const child of Object.values(param.children)) homogenizeBreakdowns(child, lookup);
}
