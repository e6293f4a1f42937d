import type { MathNode } from './parser';
import { CompileError } from './builder';
import { literal } from './ir';

/**
 * A scale with constant brackets as a small function with the numbers inlined: several times
 * faster than looping over threshold arrays for every row.
 */
export function unrolledScale(fn: string, leaf: unknown, right = false): ((name: string) => string) | null {
  const s = leaf as { kind?: string; thresholds?: number[]; values?: number[] };
  if (s?.kind !== 'scale' || !s.thresholds || s.thresholds.length > 12) return null;
  const t = s.thresholds.map(literal);
  const v = s.values!.map(literal);
  const n = t.length;
  if (n === 0) return (name) => `const ${name} = (x) => 0;`;
  if (fn === 'marginal') {
    let body = '';
    for (let k = n - 1; k >= 0; k--) {
      const hi = k + 1 < n ? `(x < ${t[k + 1]} ? x : ${t[k + 1]})` : 'x';
      body = `if (x > ${t[k]}) { r += ${v[k]} * (${hi} - ${t[k]});${body ? ' ' + body : ''} }`;
    }
    return (name) => `const ${name} = (x) => { let r = 0; ${body} return r; };`;
  }
  if (fn === 'lookup') {
    // The outermost test is the highest threshold: the highest bracket x reaches wins.
    let expr = '0';
    for (let k = 0; k < n; k++) expr = `(x ${right ? '>' : '>='} ${t[k]} ? ${v[k]} : ${expr})`;
    return (name) => `const ${name} = (x) => (${expr});`;
  }
  return null;
}

export function selectToConditional(args: MathNode[]): MathNode {
  // Built lazily from the argument nodes so errors still quote the user's text.
  let node: unknown = args[args.length - 1];
  for (let i = args.length - 3; i >= 0; i -= 2) {
    node = { type: 'ConditionalNode', condition: args[i], trueExpr: args[i + 1], falseExpr: node, toString: () => `select(...)` };
  }
  return node as MathNode;
}

export function foldOperator(fn: string, v: (number | boolean | string)[]): number | boolean | string {
  const [a, b] = v as [number, number];
  switch (fn) {
    case 'add': return a + b;
    case 'subtract': return a - b;
    case 'multiply': return a * b;
    case 'divide': return a / b;
    case 'pow': return a ** b;
    case 'mod': { const r = a % b; return r !== 0 && (r < 0) !== (b < 0) ? r + b : r; }
    case 'unaryMinus': return -a;
    case 'and': return !!a && !!b;
    case 'or': return !!a || !!b;
    case 'xor': return !!a !== !!b;
    case 'not': return !a;
    case 'equal': return v[0] === v[1];
    case 'unequal': return v[0] !== v[1];
    case 'smaller': return a < b;
    case 'larger': return a > b;
    case 'smallerEq': return a <= b;
    case 'largerEq': return a >= b;
    default: throw new CompileError(`unsupported operator ${fn}`);
  }
}
