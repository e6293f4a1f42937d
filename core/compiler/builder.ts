import type { Column } from '../types';
import { literal } from './ir';
import { hoistGathers, type MainLoop, PURE_MASK, rowsCall, type RowsSpec, simpleMask, sinkSingleUse } from './main-loop';

export interface KernelDep {
  name: string;
  period: string;
  /** Key of the branch the value comes from (core/branches.ts), absent for the simulation itself. */
  branch?: string;
}

/** What a kernel needs from the population at run time. */
export interface PopulationView {
  count(entity: string): number;
  /** Row of `to` containing each row of `from` (from a person: its group; from a group: the group of its first member). */
  map(from: string, to: string): Int32Array;
  /** An output buffer (possibly recycled: kernels write every row). */
  alloc(type: string, n: number): Float64Array | Int32Array | Uint8Array;
  /** Whether each group's members are consecutive rows, groups in order. */
  ordered(): boolean;
  /** Return a buffer nothing references any more. */
  recycle(col: Float64Array | Int32Array | Uint8Array): void;
  /**
   * The rows `j < n` where `mask[maps[k-1][...maps[0][j]]]` is true, in order; the same list for
   * the same mask column and maps until the column is recycled.
   */
  rowsWhere(mask: Float64Array | Int32Array | Uint8Array, maps: Int32Array[], n: number): Int32Array;
}

/** Generated code is a factory: called once with the constants and helpers, it returns the kernel. */
export type KernelFactory = (K: unknown[], H: unknown) => (C: Column[], P: PopulationView) => Column;

export class CompileError extends Error {}

/**
 * A pre-loop: either free code, or one loop over `n` rows (index `idx`) with set-up code before
 * it and clean-up after. Consecutive loops over the same rows that do not read each other's
 * results run as one loop.
 */
type Stage =
  | { names: string[]; code: string }
  | { names: string[]; loop: { pre: string; n: string; idx: string; body: string; post: string; group?: GroupRows } };

/**
 * A pre-loop over the members of a group whose results are per group: member `idx` contributes
 * only to the row `${map}[idx]` of `entity`. Its rows can be skipped when that group's row is
 * outside the kernel's mask and nothing before the mask reads the results.
 */
export interface GroupRows {
  entity: string;
  map: string;
}

/** Raised when an inline local is needed by a loop other than the main one; the variable is recompiled with locals in arrays. */
export class NeedMaterialize extends Error {}

type LoopStage = Extract<Stage, { loop: unknown }>;
/** Which rows of a pre-loop to visit: a condition on the row, and the same as a list of rows when the runtime can share one. */
interface Guard {
  cond: (idx: string) => string;
  rows: RowsSpec | null;
}

/**
 * Collects the pieces of one kernel: dependency columns, constant tables, population maps,
 * pre-loops ("stages") and the main loop body, then emits JavaScript source.
 */
export class KernelBuilder {
  readonly deps: KernelDep[] = [];
  private readonly depIndex = new Map<string, number>();
  readonly consts: unknown[] = [];
  private readonly maps = new Map<string, string>();
  private readonly counts = new Set<string>();
  readonly stages: Stage[] = [];
  /** Accumulator arrays of the aggregates emitted so far, by what they compute. */
  readonly aggregates = new Map<string, string>();
  readonly mainLines: string[] = [];
  /** Local helper functions specialised at compile time (e.g. unrolled scales). */
  readonly helpers: string[] = [];
  /** Flows this kernel adds up from their months (`name@year`), see Fusion.sums. */
  readonly sums = new Set<string>();
  /** True when a row's value depends on other rows of the population (population statistics). */
  global = false;
  private temps = 0;

  dep(name: string, period: string, branch?: string): string {
    const key = branch ? `${name}@${period}#${branch}` : `${name}@${period}`;
    let i = this.depIndex.get(key);
    if (i === undefined) {
      i = this.deps.length;
      this.deps.push(branch ? { name, period, branch } : { name, period });
      this.depIndex.set(key, i);
    }
    return `c${i}`;
  }

  constant(value: unknown): string {
    this.consts.push(value);
    return `k${this.consts.length - 1}`;
  }

  map(from: string, to: string): string {
    const v = `m_${from}_${to}`;
    this.maps.set(v, `P.map(${literal(from)}, ${literal(to)})`);
    this.mapEnds.set(v, [from, to]);
    return v;
  }

  /** The entities each map goes from and to. */
  private readonly mapEnds = new Map<string, [string, string]>();

  constructor(
    /** Whether every instance of `inner` lies in one instance of `outer` (declared nesting). */
    private readonly within: (inner: string, outer: string) => boolean = () => false,
  ) {}

  count(entity: string): string {
    this.counts.add(entity);
    return `n_${entity}`;
  }

  private readonly scratchNames: string[] = [];

  /**
   * A temporary array from the population's buffer pool, given back when the kernel ends (large
   * temporaries left to the garbage collector would dominate peak memory). `fill` initialises it.
   */
  scratch(type: string, n: string, name: string, fill?: string): string {
    this.scratchNames.push(name);
    return `P.alloc(${literal(type)}, ${n})${fill === undefined ? '' : `.fill(${fill})`}`;
  }

  /**
   * A pre-loop declaring `names`. Each runs in its own small function: V8 then optimises every
   * loop on its own instead of recompiling one large kernel at each loop it reaches.
   */
  stage(names: string[], code: string): void {
    this.stages.push({ names, code });
  }

  /** A pre-loop over `n` rows declaring `names` (in `pre`), which may share its loop with its neighbours. */
  loop(names: string[], pre: string, n: string, idx: string, body: string, post = '', group?: GroupRows): void {
    this.stages.push({ names, loop: { pre, n, idx, body, post, group } });
  }

  /**
   * Stages as code. A loop joins an earlier loop over the same rows when it reads nothing declared
   * from that loop on (it then runs at that loop's place, which its inputs already precede).
   */
  private stageCode(guard: (l: LoopStage['loop'], names: string[]) => Guard | null): { names: string[]; code: string }[] {
    const units: { names: string[]; code?: string; group?: LoopStage[]; conds?: (Guard | null)[] }[] = [];
    for (const st of this.stages) {
      if (!('loop' in st)) {
        units.push({ names: st.names, code: st.code });
        continue;
      }
      const l = st.loop;
      const cond = guard(l, st.names);
      const text = `${l.pre}\n${l.body}\n${l.post}`;
      const reads = (u: { names: string[] }) => u.names.some((name) => new RegExp(`\\b${name}\\b`).test(text));
      let at = -1;
      for (let k = units.length - 1; k >= 0; k--) {
        if (reads(units[k])) break;
        if (units[k].group?.[0].loop.n === l.n) at = k;
      }
      if (at >= 0) {
        units[at].group!.push(st);
        units[at].conds!.push(cond);
        units[at].names.push(...st.names);
      } else units.push({ names: [...st.names], group: [st], conds: [cond] });
    }
    return units.map((u) => {
      if (!u.group) return { names: u.names, code: u.code! };
      const conds = u.conds!;
      const post = u.group.map((g) => g.loop.post).filter((x) => x).join('\n');
      const pre = u.group.map((g) => g.loop.pre).join('\n');
      const n = u.group[0].loop.n;
      const q = u.group.length === 1 ? u.group[0].loop.idx : this.temp('q');
      // Loops that all skip the same rows (one mask, one map) test them once per row, or visit
      // only the rows of a list the runtime builds once per mask.
      const shared = conds.every((c) => c !== null && c.cond(q) === conds[0]!.cond(q)) ? conds[0] : null;
      const bodies = u.group.map((g, k) => {
        const body = shared === null && conds[k] ? `if (${conds[k]!.cond(g.loop.idx)}) { ${g.loop.body} }` : g.loop.body;
        return u.group!.length === 1 ? body : `  { const ${g.loop.idx} = ${q}; ${body} }`;
      });
      let loop: string;
      if (shared?.rows) {
        const r = this.temp('r');
        loop = `const ${r}s = ${rowsCall(shared.rows, n)};\nfor (let ${r} = 0; ${r} < ${r}s.length; ${r}++) {\nconst ${q} = ${r}s[${r}];\n${bodies.join('\n')}\n}`;
      } else {
        const skip = shared === null ? [] : [`  if (!(${shared.cond(q)})) continue;`];
        loop = `for (let ${q} = 0; ${q} < ${n}; ${q}++) {\n${[...skip, ...bodies].join('\n')}\n}`;
      }
      return { names: u.names, code: `${pre}\n${loop}${post ? `\n${post}` : ''}` };
    });
  }

  /**
   * For a kernel whose mask reads only columns at its row (a defined_for variable, a state's
   * rule), the condition under which a pre-loop over a group's members must visit a member: the
   * mask of the member's group, when the loop's results are read only on rows the mask keeps.
   * Members of groups outside the mask are skipped (their accumulators are never read).
   */
  private maskGuard(entity: string, main: MainLoop): (l: LoopStage['loop'], names: string[]) => Guard | null {
    const mask = main.mask;
    if (mask === null || main.maskEnd > 0 || !PURE_MASK.test(mask)) return () => null;
    const before = main.lines.slice(0, main.maskEnd).join('\n') + '\n' + mask;
    const others = (names: string[]) => this.stages.filter((st) => !st.names.some((n) => names.includes(n)));
    return (l, names) => {
      if (l.group?.entity !== entity) return null;
      const read = (text: string) => names.some((n) => new RegExp(`\\b${n}\\b`).test(text));
      if (read(before) || others(names).some((st) => read('loop' in st ? `${st.loop.pre}\n${st.loop.body}\n${st.loop.post}` : st.code))) return null;
      const map = l.group.map;
      const rows = simpleMask(mask);
      return { cond: (idx) => mask.replace(/\bi\b/g, `${map}[${idx}]`), rows: rows && { col: rows.col, maps: this.shortcut([map, ...rows.maps]) } };
    };
  }

  /**
   * Two maps in turn (a person to its tax unit, the tax unit to its household) as the one direct
   * map when the middle entity lies within the last: the list of a household mask's persons is
   * then the same whichever group a kernel reaches it through, and is built once.
   */
  private shortcut(maps: string[]): string[] {
    if (maps.length !== 2) return maps;
    const [a, b] = maps.map((m) => this.mapEnds.get(m));
    if (!a || !b || a[1] !== b[0] || !this.within(b[0], b[1])) return maps;
    return [this.map(a[0], b[1])];
  }

  helper(code: (name: string) => string): string {
    const name = this.temp('f');
    this.helpers.push(code(name));
    return name;
  }

  temp(prefix = 't'): string {
    return `${prefix}${this.temps++}`;
  }

  /**
   * The kernel factory's source. Constants, specialised helpers and one function per stage are
   * created once per kernel; functions created on every call would be embedded in optimised code
   * and deoptimise it each time they are collected.
   */
  /** `maskEnd` main lines compute the mask; the others run only on rows where it holds. */
  source(entity: string, outType: string, maskCode: string | null, maskEnd: number, defaultCode: string, valueCode: string): string {
    this.counts.add(entity);
    const perCall: string[] = [];
    this.deps.forEach((_, i) => perCall.push(`c${i}`));
    perCall.push(...this.maps.keys(), ...[...this.counts].map((e) => `n_${e}`));
    const lines: string[] = [];
    lines.push(...this.helpers);
    const calls: string[] = [];
    const sunk = sinkSingleUse(this.mainLines, maskEnd, maskCode, valueCode);
    // A mask that is one column (a defined_for variable, a state) is a list of rows, built once per
    // column and population by the runtime and shared by every kernel with that mask: the loop
    // visits those rows only (the others keep the default), and a state's rules cost in proportion
    // to that state's rows.
    const rows = sunk.maskEnd === 0 && sunk.mask !== null ? simpleMask(sunk.mask) : null;
    const main = hoistGathers(rows ? { ...sunk, mask: null } : sunk, () => this.temp('G_'));
    const stages = this.stageCode(this.maskGuard(entity, sunk));
    // Row lists may read a map no formula read (a shortcut): it is passed like the others.
    for (const v of this.maps.keys()) if (!perCall.includes(v)) perCall.push(v);
    stages.forEach((st, i) => {
      const params = ['P', ...perCall.filter((name) => new RegExp(`\\b${name}\\b`).test(st.code))];
      const ret = st.names.length === 1 ? st.names[0] : `[${st.names.join(', ')}]`;
      lines.push(`function stage${i}(${params.join(', ')}) {\n${st.code}\nreturn ${ret};\n}`);
      calls.push(`const ${ret} = stage${i}(${params.join(', ')});`);
      perCall.push(...st.names);
    });
    // The main loop is a function of its own too: in the kernel, code after an optimised loop that
    // never ran before (buffer recycling) would deoptimise it at the end of every first run.
    if (rows) perCall.push('R_');
    const body: string[] = rows ? [`out.fill(${defaultCode});`, 'for (let r = 0; r < R_.length; r++) {', '  const i = R_[r];'] : [`for (let i = 0; i < n_${entity}; i++) {`];
    for (const l of main.lines.slice(0, main.maskEnd)) body.push(`  ${l}`);
    if (main.mask) body.push(`  if (!(${main.mask})) { out[i] = ${defaultCode}; continue; }`);
    for (const l of main.lines.slice(main.maskEnd)) body.push(`  ${l}`);
    body.push(`  out[i] = ${main.value};`, '}');
    const loopCode = body.join('\n');
    const loopParams = ['out', ...perCall.filter((name) => new RegExp(`\\b${name}\\b`).test(loopCode))];
    lines.push(`function loop(${loopParams.join(', ')}) {\n${loopCode}\n}`);
    lines.push('return function kernel(C, P) {');
    this.deps.forEach((_, i) => lines.push(`const c${i} = C[${i}];`));
    for (const [v, expr] of this.maps) lines.push(`const ${v} = ${expr};`);
    for (const e of this.counts) lines.push(`const n_${e} = P.count(${literal(e)});`);
    lines.push(...calls);
    if (rows) lines.push(`const R_ = ${rowsCall(rows, `n_${entity}`)};`);
    lines.push(`const out = P.alloc(${literal(outType)}, n_${entity});`);
    lines.push(`loop(${loopParams.join(', ')});`);
    for (const t of this.scratchNames) lines.push(`P.recycle(${t});`);
    lines.push('return out;');
    lines.push('};');
    // A table that folding replaced by another (see foldTables) is dropped, so kernels differing
    // only in such tables have one signature.
    const rest = lines.join('\n');
    const decls = ['"use strict";'];
    this.consts.forEach((_, i) => {
      if (new RegExp(`\\bk${i}\\b`).test(rest)) decls.push(`const k${i} = K[${i}];`);
      else this.consts[i] = null;
    });
    return `${decls.join('\n')}\n${rest}`;
  }
}
