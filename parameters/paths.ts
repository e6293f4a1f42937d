import { Parameter, ParameterError, ParameterLeaf, ParameterNode, ParameterScale, ScaleBracket } from './types';

/**
 * Dotted paths with bracket indexes: `gov.hmrc.income_tax.rates.uk[1].threshold`. A `[i]` step
 * selects a scale's bracket and must be followed by the component (threshold, rate, amount, ...).
 */

export interface Step {
  name: string;
  /** Bracket index when the step is written `name[i]`. */
  index?: number;
}

const STEP = /^([^.[\]\s]+)(?:\[(\d+)\])?$/;
const BRACKET_COMPONENTS = new Set(['threshold', 'rate', 'amount', 'average_rate', 'base']);

export function parsePath(path: string): Step[] {
  if (typeof path !== 'string' || path === '') throw new ParameterError(`empty parameter path`, undefined, String(path));
  return path.split('.').map((part) => {
    const m = STEP.exec(part);
    if (!m) throw new ParameterError(`${path}: bad path step "${part}"`, undefined, path);
    return m[2] === undefined ? { name: m[1] } : { name: m[1], index: Number(m[2]) };
  });
}

type Found = Parameter | { kind: 'bracket'; bracket: ScaleBracket; scale: ParameterScale; index: number };

function unknown(path: string, upTo: string): never {
  throw new ParameterError(`unknown parameter ${path} (no "${upTo}")`, undefined, path);
}

/** Walks the path from the root; throws a ParameterError naming the path and the missing step. */
export function resolve(root: ParameterNode, path: string): Found {
  const steps = parsePath(path);
  let current: Found = root;
  let walked = '';
  for (const step of steps) {
    walked = walked ? `${walked}.${step.name}` : step.name;
    if (current.kind === 'node') {
      const child: Parameter | undefined = Object.prototype.hasOwnProperty.call(current.children, step.name)
        ? current.children[step.name]
        : undefined;
      if (!child) unknown(path, walked);
      current = child;
    } else if (current.kind === 'bracket') {
      const leaf: ParameterLeaf | undefined = BRACKET_COMPONENTS.has(step.name) ? current.bracket[step.name as keyof ScaleBracket] as ParameterLeaf | undefined : undefined;
      if (!leaf) unknown(path, walked);
      current = leaf;
    } else {
      unknown(path, walked);
    }
    if (step.index !== undefined) {
      if (current.kind !== 'scale') throw new ParameterError(`${path}: ${walked} is not a scale, it has no brackets`, undefined, path);
      const bracket: ScaleBracket | undefined = current.brackets[step.index];
      if (!bracket) unknown(path, `${walked}[${step.index}]`);
      current = { kind: 'bracket', bracket, scale: current, index: step.index };
      walked = `${walked}[${step.index}]`;
    }
  }
  return current;
}

export function resolveParameter(root: ParameterNode, path: string): Parameter {
  const found = resolve(root, path);
  if (found.kind === 'bracket') {
    throw new ParameterError(`${path} is a bracket: name its threshold, rate or amount`, found.scale.file, path);
  }
  return found;
}

/** A copy of the tree with the leaf at `path` replaced; every untouched object is shared. */
export function replaceLeaf(node: ParameterNode, steps: Step[], leaf: ParameterLeaf): ParameterNode {
  const [step, ...rest] = steps;
  const child = node.children[step.name];
  let replaced: Parameter;
  if (step.index !== undefined) {
    const scale = child as ParameterScale;
    const brackets = scale.brackets.slice();
    brackets[step.index] = { ...brackets[step.index], [rest[0].name]: leaf };
    replaced = { ...scale, brackets };
  } else if (rest.length === 0) {
    replaced = leaf;
  } else {
    replaced = replaceLeaf(child as ParameterNode, rest, leaf);
  }
  return { ...node, children: { ...node.children, [step.name]: replaced } };
}
