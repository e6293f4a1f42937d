import type { VariableSpec } from '../types';
import { CompileError, KernelBuilder } from './builder';
import type { CompileEnv, ExprCompiler, Scope } from './expr';
import { defaultCode, parseExpression } from './formula';
import { Bounds, EnumInfo, RowIR, either } from './ir';
import { MathNode, parse } from './parser';
import { asBit, literalValue, Node, numericLiteral, readsAny } from './syntax';
import { strings } from '../strings';

/** A variable's formula compiled in a scope: its defined_for mask and its value. */
export interface VariableBody {
  /** Row code of the defined_for condition, or null when every row is computed. */
  mask: string | null;
  /** Main-loop lines emitted for the mask (they run before the mask test). */
  maskEnd: number;
  /** The value (as stored) of rows outside the mask. */
  maskDefault: number;
  /** The value as stored in a column (bool: 1/0); null when constant. */
  row: RowIR | null;
  /** The value on every row when it does not depend on the row (and no mask applies). */
  constant: number | null;
}

/** Compile a variable's formula text: its mask, its value, and whether the value is constant. */
export function compileVariableBody(c: ExprCompiler, b: KernelBuilder, env: CompileEnv, spec: VariableSpec, text: string, scope: Scope): VariableBody {
  let mask: string | null = null;
  let maskDefault = defaultCode(spec);
  if (spec.defined_for) {
    const m = env.variables.get(spec.defined_for);
    if (!m) throw new CompileError(`defined_for names unknown variable "${spec.defined_for}"`);
    if (m.type !== 'bool') throw new CompileError(`defined_for variable ${spec.defined_for} must be bool`);
    const ir = c.scalar(parse(spec.defined_for), scope);
    if (ir.k === 'const') {
      if (!ir.v) return { mask: null, maskEnd: b.mainLines.length, maskDefault, row: null, constant: maskDefault };
    } else mask = ir.code;
  }
  const root = parseExpression(text);
  const hint: EnumInfo | undefined = spec.type === 'enum' ? { variable: spec.name, values: spec.possible_values! } : undefined;
  const guarded = mask === null ? guard(c, spec, root, scope) : null;
  if (guarded) {
    mask = guarded.mask;
    maskDefault = guarded.value;
  } else if (mask === null) mask = inheritedMask(c, env, spec, root, scope);
  const maskEnd = b.mainLines.length;
  let result = c.compileBody(root, scope, hint, guarded?.then);
  if (result.k === 'param') result = c.toRow(result, scope);
  if (spec.type === 'string') {
    if (result.k === 'const' && typeof result.v === 'string') result = { k: 'const', v: strings.code(result.v) };
    else if (result.k !== 'row' || result.t !== 'str') throw new CompileError(`a string formula must give a text: a literal, name(enum) or a string variable`);
  } else if (result.k === 'row' && result.t === 'str' && spec.type !== 'enum') {
    throw new CompileError(`the formula gives a text but ${spec.name} is ${spec.type}`);
  }
  if (spec.type === 'enum' && result.k === 'row' && result.t === 'str') {
    // A text naming one of the values (a county built from a state and a name): looked up by its code.
    const values = spec.possible_values!;
    const known = values.map((v) => strings.code(v));
    const table = new Int32Array(Math.max(...known) + 1).fill(-1);
    known.forEach((c, i) => (table[c] = i));
    result = { k: 'row', code: `H.enumOfText(${b.constant(table)}, ${result.code}, ${defaultCode(spec)})`, entity: result.entity, t: 'enum', enumInfo: { variable: spec.name, values } };
  }
  const row = c.toRow(result, scope);
  if (spec.type === 'enum') {
    if (row.t !== 'enum') throw new CompileError(`an enum formula must give a value name such as "${spec.possible_values![0]}"`);
    if (row.enumInfo!.values.join() !== spec.possible_values!.join()) {
      throw new CompileError(`the formula gives values of ${row.enumInfo!.variable}, whose possible values differ from ${spec.name}'s`);
    }
  } else if (row.t === 'enum') {
    throw new CompileError(`the formula gives an enum value but ${spec.name} is ${spec.type}`);
  }
  // A value whose code folded to a literal (`0 * x` of a local) is constant whatever its locals
  // compute, and so is a masked one whose value is the default outside the mask.
  const v = result.k === 'const' ? result.v : numericLiteral(row.code);
  if (v !== null) {
    const constant = spec.type === 'bool' ? (v ? 1 : 0) : spec.type === 'int' ? Number(v) | 0 : Number(v);
    if (mask === null || constant === maskDefault) return { mask: null, maskEnd, maskDefault, row: null, constant };
  }
  const code = spec.type === 'bool' ? asBit(row.code) : row.code;
  return { mask, maskEnd, maskDefault, row: { ...row, code }, constant: null };
}

/**
 * A formula ending in `condition ? value : constant` whose condition reads no local: the
 * condition is compiled first and becomes the kernel's mask, so rows where it fails skip every
 * line the value needs (a variable's own `if eligible then amount else 0`).
 */
function guard(c: ExprCompiler, spec: VariableSpec, root: MathNode, scope: Scope): { mask: string; value: number; then: MathNode } | null {
  const node = root as unknown as Node;
  const statements = node.type === 'BlockNode' ? (node.blocks as { node: Node }[]).map((st) => st.node) : [node];
  let last = statements[statements.length - 1];
  while (last.type === 'ParenthesisNode') last = last.content as Node;
  let parts: Node[] | null = null;
  if (last.type === 'ConditionalNode') parts = [last.condition as Node, last.trueExpr as Node, last.falseExpr as Node];
  else if (last.type === 'FunctionNode' && ['if', 'where'].includes((last.fn as Node).name as string) && (last.args as Node[]).length === 3) parts = last.args as Node[];
  if (!parts) return null;
  const [condNode, thenNode, elseNode] = parts;
  const value = literalValue(elseNode, spec);
  if (value === null) return null;
  const locals = new Set(statements.filter((n) => n.type === 'AssignmentNode').map((n) => (n.object as Node).name as string));
  if (readsAny(condNode, locals)) return null;
  const cond = c.scalar(condNode as unknown as MathNode, scope);
  if (cond.k === 'const') return null;
  return { mask: cond.code, value, then: thenNode as unknown as MathNode };
}

/**
 * A formula that is one variable computed in the same loop (`adds: [x]`, which reads `0 + x`),
 * of the same entity, period and default, and masked by its own defined_for: that mask is this
 * kernel's too, so the kernel visits the rows where it holds only (a variable that only passes
 * an eligible amount on, such as WIC's value when taken up).
 */
function inheritedMask(c: ExprCompiler, env: CompileEnv, spec: VariableSpec, root: MathNode, scope: Scope): string | null {
  let node = root as unknown as Node;
  while (node.type === 'ParenthesisNode') node = node.content as Node;
  if (node.type === 'OperatorNode' && node.op === '+') {
    const args = node.args as Node[];
    if (args.length === 2 && literalValue(args[0], spec) === 0) node = args[1];
  }
  if (node.type !== 'SymbolNode') return null;
  const name = node.name as string;
  const inner = env.variables.get(name);
  // Inlined means read at this kernel's entity and period; read from a column instead (an input,
  // or computed in a kernel of its own), its values outside the mask need not be the default.
  if (!inner?.defined_for || defaultCode(inner) !== defaultCode(spec) || !c.inlines(name)) return null;
  const ir = c.scalar(parse(inner.defined_for), scope);
  return ir.k === 'const' ? null : ir.code;
}

/** The bounds of a float variable's values, masked rows included (an int truncates, so none). */
export function bodyBounds(body: VariableBody, spec: VariableSpec): Bounds {
  if (spec.type !== 'float') return {};
  const value = body.row === null ? { lo: body.constant!, hi: body.constant! } : { lo: body.row.lo, hi: body.row.hi };
  return body.mask === null ? value : either(value, { lo: body.maskDefault, hi: body.maskDefault });
}
