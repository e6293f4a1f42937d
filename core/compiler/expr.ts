import type { MathNode } from './parser';
import type { VariableSpec, EntityDef } from '../types';
import type { ValueAt } from '../../parameters/types';
import { lastYear } from '../periods';
import { resolveRead } from '../variables';
import { CompileError, KernelBuilder, NeedMaterialize } from './builder';
import { Bounds, ConstIR, EnumInfo, IR, ParamIR, RowIR, ScalarType, TableRead, arrayType, bounds, either, isConst, literal, neg, scaled, sum, typeOfConst } from './ir';
import { indexParam, paramToValue, paramScales, scaleBracketValue, tableRow } from './params';
import { compileAggregate, memberLevel } from './aggregate';
import { foldOperator, selectToConditional, unrolledScale } from './fold';
import { expressionAt } from './formula';
import { bodyBounds, compileVariableBody } from './body';
import { asBit, Node, numericLiteral } from './syntax';
import { compileCall } from './calls';
import { strings } from '../strings';

export interface CompileEnv {
  variables: Map<string, VariableSpec>;
  entities: Map<string, EntityDef>;
  /** True when every instance of `inner` lies inside one instance of `outer` (a person is inside every group). */
  isWithin(inner: string, outer: string): boolean;
  param(path: string): ValueAt;
  /** A parameter's value at another instant ("YYYY-MM-DD"). */
  paramAt(path: string, instant: string): ValueAt;
  hasParamRoot(name: string): boolean;
  /** Whether `branch(..., rules = name)` names baseline or a rule set of the country. */
  hasRuleSet(name: string): boolean;
  period: string;
  aliases: Record<string, string>;
  /** The environment of the same model at another period (aliases are not carried over). */
  forPeriod(period: string): CompileEnv;
}

type Local =
  /** Defined but not compiled yet: a local nothing reads adds no column and no loop. */
  | { kind: 'lazy'; node: MathNode; scope: Scope }
  | { kind: 'ir'; ir: ConstIR | ParamIR }
  | { kind: 'array' | 'inline'; name: string; entity: string; t: ScalarType; enumInfo?: EnumInfo; lo?: number; hi?: number };

export interface Scope {
  entity: string;
  idx: string;
  main: boolean;
  locals: Map<string, Local>;
}

const AGGREGATIONS = new Set(['sum', 'count', 'any', 'all', 'max', 'min', 'first', 'rank']);
const MATH1: Record<string, string> = { abs: 'Math.abs', floor: 'Math.floor', ceil: 'Math.ceil', sqrt: 'Math.sqrt', exp: 'Math.exp', log: 'Math.log' };
const CMP: Record<string, string> = { equal: '===', unequal: '!==', smaller: '<', larger: '>', smallerEq: '<=', largerEq: '>=' };


/**
 * What an execution plan knows about the columns a kernel reads (see core/plan.ts), keyed
 * `name@period`: references with one value on every row (inputs nobody gave, formulas of such
 * values) become literals; single-reader variables of the reader's entity are computed inline,
 * in the reader's loop, instead of in a column of their own.
 */
export interface Fusion {
  // Point lookups only: core/compiler/fused-cache.ts reuses a kernel when they answer the same.
  constants: { get(key: string): number | undefined };
  inline: { has(key: string): boolean };
  /** Bounds of other kernels' values (from their probes): a read of their column keeps them. */
  bounds?: { get(key: string): Bounds | undefined };
  /**
   * Flows read over a year (`name@year`) that several kernels add up from their months: read as
   * the year's column (the plan adds the months once), not summed in each reader's loop.
   */
  sums?: { has(key: string): boolean };
}

/** Compiles mathjs expression trees into row code inside a KernelBuilder. */
export class ExprCompiler {
  constructor(
    private readonly b: KernelBuilder,
    private readonly env: CompileEnv,
    /** Locals read by a pre-loop: they live in arrays; the others are main-loop values. */
    private readonly arrays: ReadonlySet<string>,
    private readonly fusion: Fusion | null = null,
    /** Variables already computed inline in this kernel (shared with nested compilers). */
    private readonly inlined = new Map<string, RowIR>(),
  ) {}


  /** Whether `name` at this compiler's period is computed in this kernel's main loop (not read from a column). */
  inlines(name: string): boolean {
    return this.fusion?.inline.has(`${name}@${this.env.period}`) ?? false;
  }

  /** A statement list (`a = ...; b = ...; result`) or a single expression; `result` replaces the last one. */
  compileBody(root: MathNode, scope: Scope, hint?: EnumInfo, result?: MathNode): IR {
    const node = root as unknown as Node;
    if (node.type !== 'BlockNode') return this.compile(result ?? root, scope, hint);
    const blocks = node.blocks as { node: MathNode }[];
    let last: IR | null = null;
    blocks.forEach((blk, i) => {
      const n = blk.node as unknown as Node;
      if (n.type === 'AssignmentNode') {
        const name = (n.object as Node).name as string;
        if (n.index) throw new CompileError(`cannot assign to an index of "${name}"`);
        if (this.env.variables.has(name)) throw new CompileError(`local name "${name}" hides the variable of that name`);
        // Compiled where it is defined, reading the locals defined before it (a name may be bound
        // again: `award = min(award, cap)` reads the earlier award).
        scope.locals.set(name, { kind: 'lazy', node: n.value as MathNode, scope: { ...scope, locals: new Map(scope.locals) } });
        if (i === blocks.length - 1) throw new CompileError('the last statement must be the result, not an assignment');
      } else {
        if (i !== blocks.length - 1) throw new CompileError('only the last statement may be a bare expression');
        last = this.compile(result ?? blk.node, scope, hint);
      }
    });
    return last!;
  }

  /** A compiled local: a constant or parameter, a main-loop value, or an array filled by a pre-loop. */
  private compiledLocal(ir: IR, scope: Scope): Exclude<Local, { kind: 'lazy' }> {
    if (ir.k !== 'row') return { kind: 'ir', ir };
    // A literal (an enum value known at compile time) stays a literal, so comparisons with it fold.
    if (numericLiteral(ir.code) !== null) return { kind: 'inline', name: ir.code, entity: ir.entity, t: ir.t, enumInfo: ir.enumInfo };
    const v = this.b.temp('L_');
    if (scope.main) {
      this.b.mainLines.push(`const ${v} = ${ir.code};`);
      return { kind: 'inline', name: v, entity: ir.entity, t: ir.t, enumInfo: ir.enumInfo, lo: ir.lo, hi: ir.hi };
    }
    this.materialize(ir, scope, v);
    return { kind: 'array', name: v, entity: ir.entity, t: ir.t, enumInfo: ir.enumInfo, lo: ir.lo, hi: ir.hi };
  }

  /** Emit a pre-loop writing a row expression into an array named `v`. */
  private materialize(ir: RowIR, scope: Scope, v: string): void {
    const n = this.b.count(ir.entity);
    const conv = ir.t === 'bool' ? asBit(ir.code) : ir.code;
    this.b.loop([v], `const ${v} = ${this.b.scratch(arrayType(ir.t, ir.enumInfo), n, v)};`, n, scope.idx, `${v}[${scope.idx}] = ${conv};`);
  }

  /** Access an array of `entity` rows from `scope`: directly, or projected from a containing group. */
  project(arr: string, entity: string, scope: Scope, what: string): string {
    if (entity === scope.entity) return `${arr}[${scope.idx}]`;
    if (this.env.isWithin(scope.entity, entity)) return `${arr}[${this.b.map(scope.entity, entity)}[${scope.idx}]]`;
    throw new CompileError(
      `${what} is a ${entity} value, read in a ${scope.entity} context: aggregate it (e.g. sum(${what}) or ${scope.entity}.sum(...)) `,
    );
  }

  compile(root: MathNode, scope: Scope, hint?: EnumInfo): IR {
    const node = root as unknown as Node;
    switch (node.type) {
      case 'ConstantNode':
        return this.constant(node.value as number | string | boolean, hint);
      case 'ParenthesisNode':
        return this.compile(node.content as MathNode, scope, hint);
      case 'SymbolNode':
        return this.symbol(node.name as string, scope);
      case 'AccessorNode':
        return this.accessor(node, scope);
      case 'OperatorNode':
        return this.operator(node, scope, hint);
      case 'ConditionalNode':
        return this.conditional(node.condition as MathNode, node.trueExpr as MathNode, node.falseExpr as MathNode, scope, hint);
      case 'FunctionNode':
        return this.call(node, scope, hint);
      case 'BlockNode':
        throw new CompileError('statements (;) are only allowed at the top of a formula');
      case 'AssignmentNode':
        throw new CompileError('an assignment must be followed by ; and a result');
      default:
        throw new CompileError(`unsupported syntax (${node.type}) in "${root.toString()}"`);
    }
  }

  private constant(v: number | string | boolean, hint?: EnumInfo): IR {
    if (typeof v === 'string' && hint) return this.enumConst(v, hint);
    if (typeof v !== 'number' && typeof v !== 'string' && typeof v !== 'boolean') throw new CompileError(`unsupported constant ${String(v)}`);
    return { k: 'const', v };
  }

  private enumConst(name: string, info: EnumInfo): RowIR {
    const code = info.values.indexOf(name);
    if (code < 0) throw new CompileError(`"${name}" is not a value of ${info.variable} (${info.values.join(', ')})`);
    return { k: 'row', code: String(code), entity: '', t: 'enum', enumInfo: info };
  }

  /** Compile every lazy local an expression reads (before inspecting the entities it reads). */
  forceLocals(n: MathNode, scope: Scope): void {
    const visit = (node: Node) => {
      if (node.type === 'SymbolNode') {
        if (scope.locals.get(node.name as string)?.kind === 'lazy') this.symbol(node.name as string, scope);
        return;
      }
      for (const key of ['args', 'content', 'condition', 'trueExpr', 'falseExpr', 'object', 'index', 'dimensions', 'value']) {
        const v = node[key];
        if (Array.isArray(v)) v.forEach((c) => visit(c as Node));
        else if (v && typeof v === 'object' && typeof (v as Node).type === 'string') visit(v as Node);
      }
    };
    visit(n as unknown as Node);
  }

  private symbol(name: string, scope: Scope): IR {
    const local = scope.locals.get(name);
    if (local?.kind === 'lazy') {
      // Every scope holding this local sees it compiled: the entry is rewritten in place. (Its
      // expression sees only earlier locals, so it cannot read itself.)
      // A local a pre-loop reads is compiled as pre-loop code (it cannot see main-loop values).
      const at = this.arrays.has(name) ? { ...local.scope, main: false } : local.scope;
      const compiled = this.compiledLocal(this.compile(local.node, at), at);
      for (const key of Object.keys(local)) delete (local as Record<string, unknown>)[key];
      Object.assign(local, compiled);
    }
    if (local && local.kind !== 'lazy') {
      if (local.kind === 'ir') return local.ir;
      if (local.kind === 'inline') {
        if (!scope.main && numericLiteral(local.name) === null) throw new NeedMaterialize(name);
        return { k: 'row', code: local.name, entity: scope.entity, t: local.t, enumInfo: local.enumInfo, lo: local.lo, hi: local.hi };
      }
      return { k: 'row', code: this.project(local.name, local.entity, scope, name), entity: scope.entity, t: local.t, enumInfo: local.enumInfo, lo: local.lo, hi: local.hi };
    }
    const alias = this.env.aliases[name];
    if (alias !== undefined) return this.paramRoot(alias);
    if (this.env.variables.has(name)) return this.variable(name, this.env.period, scope);
    if (this.env.hasParamRoot(name)) return this.paramRoot(name);
    if (name === 'year') {
      if (this.env.period === 'eternity') throw new CompileError('"year" has no value in an eternity formula');
      return { k: 'const', v: Number(this.env.period.slice(0, 4)) };
    }
    if (name === 'month') {
      if (this.env.period.length !== 7) throw new CompileError('"month" only has a value in a monthly formula');
      return { k: 'const', v: Number(this.env.period.slice(5, 7)) };
    }
    if (this.env.entities.has(name)) throw new CompileError(`entity "${name}" can only be used as ${name}.sum(...), ${name}.count(...) and the like`);
    throw new CompileError(`unknown name "${name}"`);
  }

  /** The same compiler reading variables and parameters at another period (locals stay visible). */
  atPeriod(period: string): ExprCompiler {
    const env = { ...this.env.forPeriod(period), aliases: this.env.aliases };
    return new ExprCompiler(this.b, env, this.arrays, this.fusion, this.inlined);
  }

  get period(): string {
    return this.env.period;
  }

  /**
   * A variable read at `period` from `scope` (projected from a containing group when needed),
   * from a branch of the simulation when `branch` is its key.
   */
  variable(name: string, period: string, scope: Scope, branch?: string): ConstIR | RowIR {
    const spec = this.env.variables.get(name)!;
    const p = spec.period === 'eternity' ? 'eternity' : period;
    const t: ScalarType = spec.type === 'bool' ? 'bool' : spec.type === 'enum' ? 'enum' : spec.type === 'string' ? 'str' : 'num';
    const enumInfo = spec.type === 'enum' ? { variable: name, values: spec.possible_values! } : undefined;
    if (branch) {
      const col = this.b.dep(name, p, branch);
      return { k: 'row', code: this.project(col, spec.entity, scope, name), entity: scope.entity, t, enumInfo };
    }
    // A flow read over another period is converted in this kernel's loop, from the columns of its
    // own period (the months of a year summed, a year's twelfth), as Simulation.calculate and plans
    // convert: in the same order of additions, so to the same bits. A plan then runs no separate
    // pass writing the converted column.
    const read = p === 'eternity' ? null : resolveRead(spec, p);
    if (read?.how === 'twelfth') {
      const year = this.variable(name, read.periods[0], scope);
      return year.k === 'const' ? { k: 'const', v: Number(year.v) / 12 } : { ...year, code: `(${year.code} / 12)`, ...scaled(bounds(year), 1 / 12) };
    }
    if (read?.how === 'sum') {
      const key = `${name}@${p}`;
      if (this.fusion?.sums?.has(key)) return { k: 'row', code: this.project(this.b.dep(name, p), spec.entity, scope, name), entity: scope.entity, t };
      const months = read.periods.map((m) => this.variable(name, m, scope));
      if (months.every((m) => m.k === 'const')) return { k: 'const', v: months.reduce((a, m) => a + Number(m.v), 0) };
      // Only a sum left to compute counts as one (a plan never reads a folded sum as a column).
      this.b.sums.add(key);
      return { k: 'row', code: `(0 + ${months.map((m) => (m.k === 'const' ? literal(Number(m.v)) : m.code)).join(' + ')})`, entity: scope.entity, t };
    }
    if (this.fusion) {
      const key = `${name}@${p}`;
      const c = this.fusion.constants.get(key);
      if (c !== undefined) return t === 'enum' || t === 'str' ? { k: 'row', code: literal(c), entity: '', t, enumInfo } : { k: 'const', v: c };
      if (scope.main && scope.entity === spec.entity && p === this.env.period && this.fusion.inline.has(key)) {
        return { ...this.inlineVariable(spec, key, scope), t, enumInfo };
      }
    }
    const col = this.b.dep(name, p);
    const known = t === 'num' ? this.fusion?.bounds?.get(`${name}@${p}`) : undefined;
    return { k: 'row', code: this.project(col, spec.entity, scope, name), entity: scope.entity, t, enumInfo, ...known };
  }

  /** A variable computed in this kernel's main loop (its single reader) instead of read from its column. */
  private inlineVariable(spec: VariableSpec, key: string, scope: Scope): RowIR {
    const done = this.inlined.get(key);
    if (done) return done;
    const env = { ...this.env, aliases: spec.params ?? {} };
    const sub = new ExprCompiler(this.b, env, this.arrays, this.fusion, this.inlined);
    const inner: Scope = { entity: spec.entity, idx: scope.idx, main: true, locals: new Map() };
    const body = compileVariableBody(sub, this.b, env, spec, expressionAt(spec, this.env.period, env)!, inner);
    let value = body.row === null ? literal(body.constant!) : spec.type === 'int' ? `((${body.row.code}) | 0)` : body.row.code;
    if (body.mask !== null) value = `((${body.mask}) ? ${value} : ${literal(body.maskDefault)})`;
    const v = this.b.temp('V_');
    this.b.mainLines.push(`const ${v} = ${value};`);
    const ir: RowIR = { k: 'row', code: v, entity: spec.entity, t: 'num', ...bodyBounds(body, spec) };
    this.inlined.set(key, ir);
    return ir;
  }

  private paramRoot(path: string): ParamIR {
    // Bracket paths in aliases (rates.uk[0]) are resolved step by step by the tree itself.
    return { k: 'param', path, leaves: [this.env.param(path)], dims: [] };
  }

  private accessor(node: Node, scope: Scope): IR {
    const obj = this.compile(node.object as MathNode, scope);
    if (obj.k !== 'param') throw new CompileError(`only parameters can be indexed ("${(node.object as MathNode).toString()}")`);
    const index = node.index as Node;
    const dims = index.dimensions as MathNode[];
    if (dims.length !== 1) throw new CompileError('index parameters one key at a time: p[a][b]');
    const d = dims[0] as unknown as Node;
    if (index.dotNotation || d.type === 'ConstantNode') return indexParam(obj, { key: d.value as string | number });
    const dyn = this.toRow(this.compile(dims[0], scope), scope);
    return indexParam(obj, { row: dyn }, this.b);
  }

  /** Any scalar IR as row code (constants become literals). */
  toRow(ir: IR, scope: Scope): RowIR {
    if (ir.k === 'row') return ir;
    if (ir.k === 'const') {
      if (typeof ir.v === 'string') throw new CompileError(`"${ir.v}" is a string: strings are only valid compared with an enum or as an enum formula's result`);
      return { k: 'row', code: literal(ir.v), entity: scope.entity, t: typeOfConst(ir.v) };
    }
    return this.toRow(paramToValue(ir, this.b, scope.entity), scope);
  }

  /** Scalar IR (const or row) of a node: parameters become their values. */
  scalar(n: MathNode, scope: Scope, hint?: EnumInfo): ConstIR | RowIR {
    const ir = this.compile(n, scope, hint);
    return ir.k === 'param' ? paramToValue(ir, this.b, scope.entity) : ir;
  }

  private num(n: MathNode, scope: Scope): string {
    const ir = this.toRow(this.scalar(n, scope), scope);
    if (ir.t === 'enum') throw new CompileError(`"${n.toString()}" is an enum: compare it with a name, e.g. == "VALUE"`);
    if (ir.t === 'str') throw new CompileError(`"${n.toString()}" is a string: compare it with a text, e.g. == "VALUE"`);
    return ir.code;
  }

  /** A string constant as a row of string codes (to compare with a string column). */
  private strConst(v: string, scope: Scope): RowIR {
    return { k: 'row', code: String(strings.code(v)), entity: scope.entity, t: 'str' };
  }

  /** A value in the type of `like` when that is a string column and the value a text constant. */
  private asStrLike(ir: ConstIR | RowIR, like: ConstIR | RowIR, scope: Scope): ConstIR | RowIR {
    return ir.k === 'const' && typeof ir.v === 'string' && like.k === 'row' && like.t === 'str' ? this.strConst(ir.v, scope) : ir;
  }

  private operator(node: Node, scope: Scope, hint?: EnumInfo): IR {
    const args = node.args as MathNode[];
    const fn = node.fn as string;
    if (node.implicit) {
      throw new CompileError(`implicit multiplication in "${(node as unknown as MathNode).toString()}": write * explicitly (and numbers without _ separators)`);
    }
    if (fn in CMP) return this.compare(fn, args[0], args[1], scope);
    if (fn === 'unaryPlus') return this.scalar(args[0], scope);
    if ((fn === 'and' || fn === 'or') && args.length === 2) {
      // A constant side decides or drops out; the other side is not compiled when it cannot matter.
      const a = this.scalar(args[0], scope);
      if (a.k === 'const') {
        if (fn === 'and' ? !a.v : !!a.v) return { k: 'const', v: fn === 'or' };
        return this.truth(this.scalar(args[1], scope), scope);
      }
      const b = this.scalar(args[1], scope);
      if (b.k === 'const') return fn === 'and' ? (b.v ? this.truth(a, scope) : { k: 'const', v: false }) : b.v ? { k: 'const', v: true } : this.truth(a, scope);
      return { k: 'row', code: `(!!${this.rowCode(a, node, scope)} ${fn === 'and' ? '&&' : '||'} !!${this.rowCode(b, node, scope)})`, entity: scope.entity, t: 'bool' };
    }
    const irs = args.map((a) => this.scalar(a, scope, fn === 'not' ? undefined : hint));
    if (irs.every(isConst)) return { k: 'const', v: foldOperator(fn, irs.map((c) => (c as ConstIR).v)) };
    const folded = fn === 'mod' ? null : this.foldTables(irs, (v) => foldOperator(fn, v), scope);
    if (folded) return folded;
    const code = irs.map((ir) => this.rowCode(ir, node, scope));
    // Adding or subtracting 0 and multiplying or dividing by 1 change nothing.
    const [c0, c1] = irs.map((ir) => (ir.k === 'const' ? Number(ir.v) : null));
    if (((fn === 'add' || fn === 'subtract') && c1 === 0) || ((fn === 'multiply' || fn === 'divide') && c1 === 1)) return this.toRow(irs[0], scope);
    if ((fn === 'add' && c0 === 0) || (fn === 'multiply' && c0 === 1)) return this.toRow(irs[1], scope);
    // A factor that is a constant 0 (an eligibility that cannot hold, an amount nobody gave) makes the
    // product 0, so what only the other factor needed is never computed.
    if (fn === 'multiply' && (c0 === 0 || c1 === 0)) return { k: 'const', v: 0 };
    // So is a share of nothing (0 / members): formulas guard their divisions by zero.
    if (fn === 'divide' && c0 === 0) return { k: 'const', v: 0 };
    const row = (c: string, t: ScalarType = 'num'): RowIR => ({ k: 'row', code: c, entity: scope.entity, t });
    const [b0, b1] = irs.map((ir) => bounds(ir as ConstIR | RowIR));
    switch (fn) {
      case 'add': return { ...row(`(${code[0]} + ${code[1]})`), ...sum(b0, b1) };
      case 'subtract': return { ...row(`(${code[0]} - ${code[1]})`), ...sum(b0, { lo: neg(b1.hi), hi: neg(b1.lo) }) };
      case 'multiply': return { ...row(`(${code[0]} * ${code[1]})`), ...(c0 !== null ? scaled(b1, c0) : c1 !== null ? scaled(b0, c1) : {}) };
      case 'divide': return row(`(${code[0]} / ${code[1]})`);
      case 'pow': return row(`(${code[0]} ** ${code[1]})`);
      case 'mod': return row(`H.mod(${code[0]}, ${code[1]})`);
      case 'unaryMinus': return { ...row(`(-${code[0]})`), lo: neg(b0.hi), hi: neg(b0.lo) };
      case 'and': return row(`(!!${code[0]} && !!${code[1]})`, 'bool');
      case 'or': return row(`(!!${code[0]} || !!${code[1]})`, 'bool');
      case 'xor': return row(`(!!${code[0]} !== !!${code[1]})`, 'bool');
      case 'not': return row(`(!${code[0]})`, 'bool');
      default:
        throw new CompileError(`unsupported operator "${node.op as string}"`);
    }
  }

  /**
   * Constants and reads of constant tables at one position (at least one read), combined by `f`:
   * a table of the results, read at that position. A formula comparing the month with a state's
   * table then compiles to the same code every month, with a table that changes only when a
   * state's answer does (see TableRead). Null when the operands are not all of that kind.
   */
  private foldTables(irs: (ConstIR | RowIR)[], f: (v: (number | boolean)[]) => number | boolean | string, scope: Scope): RowIR | null {
    let first: TableRead | undefined;
    for (const ir of irs) {
      if (ir.k === 'const') {
        if (typeof ir.v === 'string') return null;
        continue;
      }
      const t = ir.table;
      if (!t || ir.code !== t.code || (ir.t !== 'num' && ir.t !== 'bool')) return null;
      if (first && (t.index !== first.index || t.values.length !== first.values.length)) return null;
      first ??= t;
    }
    if (!first) return null;
    const out: (number | boolean | string)[] = [];
    for (let j = 0; j < first.values.length; j++) out.push(f(irs.map((ir) => (ir.k === 'const' ? (ir.v as number | boolean) : ir.table!.values[j]))));
    // Booleans stay booleans (a plain array): the table gives each row exactly the value the code would.
    if (out.every((v) => typeof v === 'number')) return tableRow(this.b, Float64Array.from(out as number[]), first.index, scope.entity, 'num');
    if (out.every((v) => typeof v === 'boolean')) return tableRow(this.b, out as boolean[], first.index, scope.entity, 'bool');
    return null;
  }

  private rowCode(ir: ConstIR | RowIR, node: Node, scope: Scope): string {
    const r = this.toRow(ir, scope);
    if (r.t === 'enum') throw new CompileError(`an enum cannot be used in arithmetic ("${(node as unknown as MathNode).toString()}")`);
    if (r.t === 'str') throw new CompileError(`a string cannot be used in arithmetic ("${(node as unknown as MathNode).toString()}")`);
    return r.code;
  }

  /** A value as a condition: constants fold, rows keep their code. */
  private truth(ir: ConstIR | RowIR, scope: Scope): IR {
    if (ir.k === 'const') return { k: 'const', v: !!ir.v };
    const r = this.toRow(ir, scope);
    return { k: 'row', code: `(!!${r.code})`, entity: scope.entity, t: 'bool' };
  }

  private compare(fn: string, a: MathNode, b: MathNode, scope: Scope): IR {
    let l = this.scalar(a, scope);
    let r = this.scalar(b, scope, l.k === 'row' && l.t === 'enum' ? l.enumInfo : undefined);
    if (l.k === 'const' && typeof l.v === 'string' && r.k === 'row' && r.t === 'enum') l = this.enumConst(l.v, r.enumInfo!);
    if (l.k === 'const' && r.k === 'const') return { k: 'const', v: foldOperator(fn, [l.v, r.v]) };
    const folded = this.foldTables([l, r], (v) => foldOperator(fn, v), scope);
    if (folded) return folded;
    l = this.asStrLike(l, r, scope);
    r = this.asStrLike(r, l, scope);
    const lr = this.toRow(l, scope);
    const rr = this.toRow(r, scope);
    if ((lr.t === 'str') !== (rr.t === 'str')) throw new CompileError(`cannot compare a string with a number in "${a.toString()} ${CMP[fn]} ${b.toString()}"`);
    if (lr.t === 'str' && fn !== 'equal' && fn !== 'unequal') throw new CompileError('strings can only be compared with == and !=');
    if ((lr.t === 'enum') !== (rr.t === 'enum')) throw new CompileError(`cannot compare an enum with a number in "${a.toString()} ${CMP[fn]} ${b.toString()}"`);
    if (lr.t === 'enum') {
      if (fn !== 'equal' && fn !== 'unequal') throw new CompileError('enums can only be compared with == and !=');
      const lv = lr.enumInfo!.values, rv = rr.enumInfo!.values;
      if (lv !== rv && lv.join() !== rv.join()) throw new CompileError(`${lr.enumInfo!.variable} and ${rr.enumInfo!.variable} have different possible values`);
    }
    // Enum values are row literals (codes): two of them compare at compile time.
    const ln = numericLiteral(lr.code), rn = numericLiteral(rr.code);
    if (ln !== null && rn !== null) return { k: 'const', v: foldOperator(fn, [ln, rn]) };
    return { k: 'row', code: `(${lr.code} ${CMP[fn]} ${rr.code})`, entity: scope.entity, t: 'bool' };
  }

  private conditional(c: MathNode, a: MathNode, b: MathNode, scope: Scope, hint?: EnumInfo): IR {
    const cond = this.scalar(c, scope);
    if (cond.k === 'const') return this.compile(cond.v ? a : b, scope, hint);
    let x = this.scalar(a, scope, hint);
    const y = this.scalar(b, scope, hint ?? (x.k === 'row' && x.t === 'enum' ? x.enumInfo : undefined));
    if (!hint && x.k === 'const' && typeof x.v === 'string' && y.k === 'row' && y.t === 'enum') x = this.enumConst(x.v, y.enumInfo!);
    if (x.k === 'const' && y.k === 'const' && x.v === y.v) return x;
    const folded = this.foldTables([cond, x, y], (v) => (v[0] ? v[1] : v[2]), scope);
    if (folded) return folded;
    if (x.k === 'const' && y.k === 'const' && typeof x.v === 'string' && typeof y.v === 'string') {
      x = this.strConst(x.v, scope);
    }
    x = this.asStrLike(x, y, scope);
    const xr = this.toRow(x, scope), yr = this.toRow(this.asStrLike(y, x, scope), scope);
    if ((xr.t === 'str') !== (yr.t === 'str')) throw new CompileError(`both branches of a condition must be strings or both numbers ("${a.toString()}", "${b.toString()}")`);
    if ((xr.t === 'enum') !== (yr.t === 'enum')) throw new CompileError(`both branches of a condition must be enums or both numbers ("${a.toString()}", "${b.toString()}")`);
    const t: ScalarType = xr.t === yr.t ? xr.t : 'num';
    return { k: 'row', code: `(${this.toRow(cond, scope).code} ? ${xr.code} : ${yr.code})`, entity: scope.entity, t, enumInfo: xr.enumInfo ?? yr.enumInfo, ...either(bounds(x), bounds(y)) };
  }

  private call(node: Node, scope: Scope, hint?: EnumInfo): IR {
    const args = node.args as MathNode[];
    const fnNode = node.fn as Node;
    if (fnNode.type === 'AccessorNode') {
      const obj = fnNode.object as Node;
      const idx = (fnNode.index as Node).dimensions as Node[];
      const method = idx[0]?.value as string;
      if (obj.type === 'SymbolNode' && this.env.entities.has(obj.name as string) && AGGREGATIONS.has(method)) {
        return this.aggregate(method, obj.name as string, args, scope);
      }
      throw new CompileError(`unknown function "${(node.fn as MathNode).toString()}"`);
    }
    const name = fnNode.name as string;
    const arity = (min: number, max = min) => {
      if (args.length < min || args.length > max) {
        throw new CompileError(`${name}() takes ${min === max ? min : `${min} to ${max === Infinity ? 'any number of' : max}`} arguments, got ${args.length}`);
      }
    };
    switch (name) {
      case 'if':
      case 'where':
        arity(3);
        return this.conditional(args[0], args[1], args[2], scope, hint);
      case 'select': {
        if (args.length < 3 || args.length % 2 === 0) throw new CompileError('select(c1, v1, c2, v2, ..., default) takes pairs and a default');
        return this.compile(selectToConditional(args), scope, hint);
      }
      case 'max':
      case 'min': {
        arity(1, Infinity);
        if (this.wantsAggregation(args, scope)) return this.aggregate(name, scope.entity, args, scope);
        if (args.length === 1) return this.scalar(args[0], scope);
        const irs = args.map((a) => this.scalar(a, scope));
        if (irs.every(isConst)) return { k: 'const', v: (name === 'max' ? Math.max : Math.min)(...irs.map((c) => Number((c as ConstIR).v))) };
        // Bounds (max(0, x) is at least 0) decide a min or max against a constant beyond them: an
        // amount capped at a limit nobody's inputs raise above 0 is 0.
        const bs = irs.map(bounds);
        const consts = irs.filter(isConst).map((c) => Number(c.v));
        const los = bs.map((b) => b.lo), his = bs.map((b) => b.hi);
        if (name === 'min' && consts.length > 0 && los.every((l) => l !== undefined && l >= Math.min(...consts))) return { k: 'const', v: Math.min(...consts) };
        if (name === 'max' && consts.length > 0 && his.every((h) => h !== undefined && h <= Math.max(...consts))) return { k: 'const', v: Math.max(...consts) };
        const known = (xs: (number | undefined)[]) => xs.filter((x): x is number => x !== undefined);
        const all = (xs: (number | undefined)[]) => (known(xs).length === xs.length ? known(xs) : null);
        const [lo, hi] =
          name === 'max'
            ? [known(los).length ? Math.max(...known(los)) : undefined, all(his) ? Math.max(...all(his)!) : undefined]
            : [all(los) ? Math.min(...all(los)!) : undefined, known(his).length ? Math.min(...known(his)) : undefined];
        return { k: 'row', code: `Math.${name}(${args.map((a) => this.num(a, scope)).join(', ')})`, entity: scope.entity, t: 'num', lo, hi };
      }
      case 'sum':
      case 'count':
      case 'any':
      case 'all':
      case 'first':
        return this.aggregate(name, scope.entity, args, scope);
      case 'abs':
      case 'floor':
      case 'ceil':
      case 'sqrt':
      case 'exp':
      case 'log': {
        arity(1);
        const ir = this.scalar(args[0], scope);
        if (ir.k === 'const') return { k: 'const', v: (Math as unknown as Record<string, (x: number) => number>)[name](Number(ir.v)) };
        return { k: 'row', code: `${MATH1[name]}(${this.num(args[0], scope)})`, entity: scope.entity, t: 'num' };
      }
      case 'round': {
        arity(1, 2);
        const digits = args.length === 2 ? this.scalar(args[1], scope) : ({ k: 'const', v: 0 } as ConstIR);
        if (digits.k !== 'const') throw new CompileError('round(x, digits): digits must be a constant');
        return { k: 'row', code: `H.round(${this.num(args[0], scope)}, ${Number(digits.v)})`, entity: scope.entity, t: 'num' };
      }
      case 'clip': {
        arity(3);
        const [x, lo, hi] = args.map((a) => this.num(a, scope));
        return { k: 'row', code: `Math.min(Math.max(${x}, ${lo}), ${hi})`, entity: scope.entity, t: 'num' };
      }
      case 'isin': {
        arity(2, Infinity);
        const x = this.toRow(this.scalar(args[0], scope), scope);
        if (args.length === 2) {
          const list = this.compile(args[1], scope);
          if (list.k === 'param') return this.isinList(x, list, args[1], scope);
        }
        const opts = args.slice(1).map((a) => this.toRow(this.asStrLike(this.scalar(a, scope, x.t === 'enum' ? x.enumInfo : undefined), x, scope), scope));
        const xv = numericLiteral(x.code);
        if (xv !== null && opts.every((o) => numericLiteral(o.code) !== null)) return { k: 'const', v: opts.some((o) => numericLiteral(o.code) === xv) };
        return { k: 'row', code: `(${opts.map((o) => `${x.code} === ${o.code}`).join(' || ')})`, entity: scope.entity, t: 'bool' };
      }
      case 'last_year': {
        arity(1);
        const a = args[0] as unknown as Node;
        if (a.type !== 'SymbolNode' || !this.env.variables.has(a.name as string)) throw new CompileError('last_year() takes a variable name');
        return this.variable(a.name as string, lastYear(this.env.period), scope);
      }
      case 'marginal':
      case 'marginal_amount':
      case 'stepsum':
      case 'lookup':
      case 'average':
        return this.scaleCall(name, args, scope);
      case 'threshold':
      case 'rate':
      case 'amount': {
        arity(2);
        const s = this.compile(args[0], scope);
        const k = this.scalar(args[1], scope);
        if (s.k !== 'param' || k.k !== 'const') throw new CompileError(`${name}(scale, k) takes a scale parameter and a constant bracket number`);
        return scaleBracketValue(s, Number(k.v), name, this.b, scope.entity);
      }
      default: {
        const ir = compileCall(this, this.b, this.env, name, args, scope);
        if (ir) return ir;
        throw new CompileError(`unknown function "${name}"`);
      }
    }
  }

  /** isin(x, LIST): membership of x in a list held by a parameter, as a table lookup or a chain of tests. */
  private isinList(x: RowIR, list: ParamIR, arg: MathNode, scope: Scope): IR {
    const values = list.dims.length === 0 ? list.leaves[0] : null;
    if (!Array.isArray(values)) throw new CompileError(`isin(x, ${arg.toString()}): the parameter is not a list`);
    if (x.t === 'enum') {
      const known = x.enumInfo!.values;
      // A constant value (an input nobody gave, at its default) is in the list or not.
      const at = numericLiteral(x.code);
      if (at !== null && known[at] !== undefined) return { k: 'const', v: values.includes(known[at]) };
      const table = Uint8Array.from(known, (v) => (values.includes(v) ? 1 : 0));
      return { k: 'row', code: `${this.b.constant(table)}[${x.code}]`, entity: scope.entity, t: 'bool' };
    }
    const codes = values.map((v) => (x.t === 'str' ? String(strings.code(String(v))) : String(Number(v))));
    if (codes.some((c) => c === 'NaN')) throw new CompileError(`isin(x, ${arg.toString()}): a number cannot be in a list of texts`);
    if (codes.length === 0) return { k: 'const', v: false };
    const at = numericLiteral(x.code);
    if (at !== null) return { k: 'const', v: codes.some((c) => Number(c) === at) };
    if (x.t === 'str') {
      // Texts are interned as small integer codes: membership is a byte table (a code beyond it,
      // a text interned later, reads undefined: not a member), much cheaper than a Set per row.
      const table = new Uint8Array(Math.max(...codes.map(Number)) + 1);
      for (const c of codes) table[Number(c)] = 1;
      return { k: 'row', code: `(${this.b.constant(table)}[${x.code}] === 1)`, entity: scope.entity, t: 'bool' };
    }
    const set = this.b.constant(new Set(codes.map(Number)));
    return { k: 'row', code: `${set}.has(${x.code})`, entity: scope.entity, t: 'bool' };
  }

  private scaleCall(name: string, allArgs: MathNode[], scope: Scope): IR {
    // `right = true`: a value equal to a threshold belongs to the bracket below (numpy's digitize right=True).
    let right = false;
    const args = allArgs.filter((a) => {
      const n = a as unknown as Node;
      if (n.type !== 'AssignmentNode') return true;
      const key = (n.object as Node).name;
      const value = (n.value as Node).value;
      if (key !== 'right' || typeof value !== 'boolean') throw new CompileError(`${name}(): the only named argument is right = true or false`);
      right = value;
      return false;
    });
    if (right && name !== 'lookup') throw new CompileError(`${name}(): right = true only changes lookup() (a marginal scale is continuous at its thresholds)`);
    if (args.length < 2 || args.length > 3) throw new CompileError(`${name}(scale, x[, breakdown]) takes 2 or 3 arguments`);
    let s = this.compile(args[0], scope);
    if (s.k !== 'param') throw new CompileError(`${name}(): "${args[0].toString()}" is not a scale parameter`);
    if (args.length === 3) s = indexParam(s, { row: this.toRow(this.compile(args[2], scope), scope) }, this.b);
    const x = this.num(args[1], scope);
    if (s.dims.length === 0) {
      const unrolled = unrolledScale(name, s.leaves[0], right);
      if (unrolled) return { k: 'row', code: `${this.b.helper(unrolled)}(${x})`, entity: scope.entity, t: 'num' };
    }
    const { thresholds, values, index } = paramScales(s, this.b, name);
    const fn = name === 'marginal' ? 'marginal' : name === 'lookup' ? (right ? 'lookupRight' : 'lookup') : name === 'average' ? 'average' : 'stepsum';
    const sel = index === null ? '' : `[${index}]`;
    return { k: 'row', code: `H.${fn}(${thresholds}${sel}, ${values}${sel}, ${x})`, entity: scope.entity, t: 'num' };
  }

  /** max/min with member-level arguments in a group formula aggregate; otherwise they are element-wise. */
  private wantsAggregation(args: MathNode[], scope: Scope): boolean {
    if (args.length > 2) return false;
    for (const a of args) this.forceLocals(a, scope);
    return args.some((a) => memberLevel(this.env, a, scope).length > 0);
  }

  private aggregate(fn: string, target: string, args: MathNode[], scope: Scope): IR {
    return compileAggregate(this, this.b, this.env, fn, target, args, scope);
  }

}
