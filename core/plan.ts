import type { PopulationView } from './compiler/builder';
import type { Fusion } from './compiler/expr';
import { defaultCode, outputArrayType } from './compiler/formula';
import type { Kernel } from './compiler/variable';
import type { Bounds } from './compiler/ir';
import { resolveRead } from './variables';
import { Column, EngineError, VariableSpec } from './types';
import { BranchSpec, changedNames, mergeOverrides } from './branches';
import { copyColumn } from './buffer-pool';
import { ChangedBlocks } from './changed-rows';
import { PopulationIndex } from './population-index';
import { comparable, kernelSignature, linkTwins, Twin } from './twins';

/** Branch plans nested deeper than this come from a formula that branches forever. */
const MAX_BRANCH_DEPTH = 8;

/**
 * An execution plan: the kernels that compute some target variables from a given set of inputs,
 * in dependency order, with the point after which each intermediate column can be recycled.
 *
 * Knowing the inputs lets a plan do what lazy evaluation cannot: variables nobody gave and no
 * formula computes are constants, folded into the kernels that read them (and so are formulas of
 * constants only); a variable read by one formula of its own entity is computed inline in that
 * formula's loop instead of in a column of its own. A plan is built once per (targets, period,
 * input set) and run on any population with those inputs, whole or in chunks.
 */
export interface Plan {
  /** Exact-period inputs the steps read, in the order `runPlan` takes their columns. */
  inputs: { name: string; period: string; slot: number }[];
  steps: PlanStep[];
  /** Where each target's column is after the run. */
  outputs: { name: string; slot: number }[];
  slotCount: number;
  stats: PlanStats;
  /** Some step reads statistics of the whole population: the plan cannot run in chunks. */
  global: boolean;
}

export interface PlanStats {
  /** Kernels run (each one pass over its entity's rows). */
  kernels: number;
  /** Variables computed inside their reader's loop. */
  inlined: number;
  /** Variables known to be constant (never computed row by row). */
  constants: number;
}

export type PlanStep =
  | { kind: 'kernel'; kernel: Kernel; deps: number[]; slot: number; release: number[]; twin?: Twin }
  /** A year of a monthly flow: the sum of its months. */
  | { kind: 'sum'; deps: number[]; slot: number; release: number[] }
  /** A column added to itself `factor` times (a year of identical months, in one pass). */
  | { kind: 'times'; factor: number; deps: number[]; slot: number; release: number[] }
  /** A month of a yearly flow: a twelfth of the year. */
  | { kind: 'twelfth'; deps: number[]; slot: number; release: number[] }
  /** A constant target as a column. */
  | { kind: 'fill'; entity: string; type: string; value: number; deps: number[]; slot: number; release: number[] }
  /** A variable computed in a branch: a plan of its own over the same inputs (`deps` are its inputs). */
  | { kind: 'branch'; plan: Plan; name: string; deps: number[]; slot: number; release: number[] };

/** What a plan needs from a compiled model. */
export interface PlanSource {
  variable(name: string): VariableSpec;
  /** The plain kernel (null: no formula at that period). */
  kernel(name: string, period: string): Kernel | null;
  /** A kernel compiled with plan facts (not cached by the model). */
  fusedKernel(name: string, period: string, fusion: Fusion): Kernel;
  /** The rules and fixed variables of a branch (core/branches.ts). */
  branch(key: string): { source: PlanSource; spec: BranchSpec };
}


/** A read in another period from its definition-period columns, written into `out`. */
export function convertRead(how: 'sum' | 'twelfth', cols: Column[], out: Float64Array): Float64Array {
  if (how === 'twelfth') {
    const c = cols[0];
    for (let i = 0; i < out.length; i++) out[i] = c[i] / 12;
    return out;
  }
  out.fill(0);
  for (const c of cols) for (let i = 0; i < out.length; i++) out[i] += c[i];
  return out;
}

type State = { kind: 'input' } | { kind: 'const'; value: number } | { kind: 'kernel'; probe: Kernel };

/**
 * Build a plan. `isInput(name, period)` says which exact-period columns will be given; targets are
 * read at `period` with the usual conversions.
 */
export function buildPlan(
  src: PlanSource,
  targets: string[],
  period: string,
  isInput: (name: string, period: string) => boolean,
  /** Variables a branch fixes (value as stored): constants of the plan, whatever the inputs. */
  overrides: ReadonlyMap<string, number> = new Map(),
  depth = 0,
  /**
   * Given columns that are data (the simulation's inputs, a branch's variables taking another's
   * values), as opposed to columns a branch reuses from the plan around it, which were computed
   * there and still depend on what they were computed from.
   */
  isData: (name: string, period: string) => boolean = isInput,
): Plan {
  if (depth > MAX_BRANCH_DEPTH) throw new EngineError(`branches nested ${MAX_BRANCH_DEPTH} deep: a branch whose formula asks for the same branch again never ends (${targets.join(', ')})`);
  const state = new Map<string, State>();
  const constants = new Map<string, number>();
  const bounds = new Map<string, Bounds>();
  const visiting: string[] = [];
  const branchPlans = new Map<string, Plan>();

  // 1. Which exact columns are inputs, constants or formulas, visiting dependencies first so each
  //    kernel is compiled knowing which of its reads are constant.
  // A branch that changes nothing (the baseline law in a baseline plan) is a plain read.
  const identity = new Map<string, boolean>();
  const isIdentity = (branch: string): boolean => {
    let same = identity.get(branch);
    if (same === undefined) {
      const b = src.branch(branch);
      identity.set(branch, (same = b.source === src && b.spec.set.length === 0 && b.spec.from.length === 0));
    }
    return same;
  };
  // Whether a column's value cannot change when the variables in `fixed` change and, for a branch
  // under other rules (`other`), when its kernels are compiled with those rules: every kernel on the
  // way must then compute the same thing under both (the same signature). Memoised per (rules, set).
  const independence = new Map<PlanSource, Map<string, Map<string, boolean>>>();
  const independent = (name: string, p: string, fixed: Set<string>, other: PlanSource): boolean => {
    const setKey = [...fixed].sort().join(',');
    let bySet = independence.get(other);
    if (!bySet) independence.set(other, (bySet = new Map()));
    let memo = bySet.get(setKey);
    if (!memo) bySet.set(setKey, (memo = new Map()));
    const walkIndependent = (n: string, q: string): boolean => {
      const key = `${n}@${q}`;
      const known = memo!.get(key);
      if (known !== undefined) return known;
      // Optimistic while visiting: a cycle back to this column adds no dependency of its own.
      memo!.set(key, true);
      let ok = !fixed.has(n);
      if (ok && !isData(n, q) && !overrides.has(n)) {
        const k = src.kernel(n, q);
        if (other !== src) {
          const o = other.kernel(n, q);
          ok = k === null ? o === null : o !== null && kernelSignature(k) === kernelSignature(o);
        }
        if (ok && k) {
          for (const d of k.deps) {
            if (d.branch) ok = false;
            else for (const ep of resolveRead(src.variable(d.name), d.period).periods) if (!walkIndependent(d.name, ep)) ok = false;
            if (!ok) break;
          }
        }
      }
      memo!.set(key, ok);
      return ok;
    };
    return walkIndependent(name, p);
  };
  const visitRead = (name: string, p: string, branch?: string): void => {
    if (branch && isIdentity(branch)) branch = undefined;
    if (branch) {
      const key = `${name}@${p}#${branch}`;
      if (!branchPlans.has(key)) {
        const b = src.branch(branch);
        // What does not depend on the variables the branch fixes, and (under other rules) is computed
        // alike by both rules, has the same values inside it: the branch takes those columns from
        // this plan instead of recomputing them. A column this plan itself reuses from an enclosing
        // one is checked again against this branch's changes.
        const fixed = changedNames(b.spec);
        const taken = new Set(b.spec.from.map(([n]) => n));
        const data = (n: string, q: string) => taken.has(n) || isData(n, q);
        const same = (n: string, q: string) => data(n, q) || (!fixed.has(n) && independent(n, q, fixed, b.source));
        const inner = new Map(overrides);
        for (const n of taken) inner.delete(n);
        branchPlans.set(key, buildPlan(b.source, [name], p, same, mergeOverrides(inner, b.spec.set), depth + 1, data));
      }
      return;
    }
    const spec = src.variable(name);
    const r = resolveRead(spec, p);
    const values: number[] = [];
    for (const ep of r.periods) {
      const s = visitExact(spec, ep);
      if (s.kind === 'const') values.push(s.value);
    }
    if (values.length === r.periods.length) {
      const v = r.how === 'sum' ? values.reduce((a, b) => a + b, 0) : r.how === 'twelfth' ? values[0] / 12 : values[0];
      constants.set(`${name}@${p}`, v);
    }
  };
  const visitExact = (spec: VariableSpec, p: string): State => {
    const key = `${spec.name}@${p}`;
    const known = state.get(key);
    if (known) return known;
    if (visiting.includes(key)) {
      const chain = [...visiting.slice(visiting.indexOf(key)), key].map((k) => k.split('@')[0]);
      throw new EngineError(`${spec.file}: dependency cycle: ${chain.join(' -> ')}`, spec.file, spec.name);
    }
    let s: State;
    const fixed = overrides.get(spec.name);
    const given = fixed === undefined && isInput(spec.name, p);
    const plain = given || fixed !== undefined ? null : src.kernel(spec.name, p);
    if (fixed !== undefined) s = { kind: 'const', value: fixed };
    else if (given) s = { kind: 'input' };
    else if (!plain) s = { kind: 'const', value: defaultCode(spec) };
    else {
      visiting.push(key);
      for (const d of plain.deps) visitRead(d.name, d.period, d.branch);
      visiting.pop();
      const probe = src.fusedKernel(spec.name, p, { constants, inline: new Set(), bounds });
      bounds.set(key, probe.bounds);
      s = probe.constant !== null ? { kind: 'const', value: probe.constant } : { kind: 'kernel', probe };
    }
    state.set(key, s);
    if (s.kind === 'const') constants.set(key, s.value);
    return s;
  };
  for (const t of targets) visitRead(t, period);

  // 2. Readers of each formula column, over the constant-folded kernels reachable from the targets.
  const targetKeys = new Set<string>();
  for (const t of targets) for (const ep of resolveRead(src.variable(t), period).periods) targetKeys.add(`${t}@${ep}`);
  const readers = new Map<string, Set<string>>();
  const exactReads = new Map<string, Set<string>>();
  const walked = new Set<string>();
  const walk = (key: string) => {
    if (walked.has(key)) return;
    walked.add(key);
    const s = state.get(key)!;
    if (s.kind !== 'kernel') return;
    for (const d of s.probe.deps) {
      if (d.branch && !isIdentity(d.branch)) continue;
      const spec = src.variable(d.name);
      const r = resolveRead(spec, d.period);
      for (const ep of r.periods) {
        const dk = `${d.name}@${ep}`;
        if (!readers.has(dk)) readers.set(dk, new Set());
        readers.get(dk)!.add(key);
        if (r.how === 'exact' && ep === d.period) {
          if (!exactReads.has(dk)) exactReads.set(dk, new Set());
          exactReads.get(dk)!.add(key);
        }
        walk(dk);
      }
    }
  };
  targetKeys.forEach(walk);
  const inline = new Set<string>();
  for (const [key, rs] of readers) {
    const s = state.get(key)!;
    if (s.kind !== 'kernel' || targetKeys.has(key) || rs.size !== 1) continue;
    const reader = [...rs][0];
    const [name, p] = key.split('@');
    const [rname, rp] = reader.split('@');
    // A reader's defined_for stays a column: the reader then visits only the rows where it holds
    // (a list of rows), where inlined it would be a condition tested on every row.
    if (src.variable(rname).defined_for === name) continue;
    if (exactReads.get(key)?.has(reader) && p === rp && src.variable(name).entity === src.variable(rname).entity) inline.add(key);
  }

  // 3. Final kernels (with inlining) from the targets, in dependency order, with slots. A step that
  //    computes exactly what an earlier one computes (same code, constants and inputs) reuses its
  //    slot: a monthly variable whose months read the same year and the same parameters is computed
  //    once, not twelve times.
  const bySignature = new Map<string, number>();
  const shared = (signature: string, make: () => number): number => {
    const done = bySignature.get(signature);
    if (done !== undefined) return done;
    const slot = make();
    bySignature.set(signature, slot);
    return slot;
  };
  // A flow's year that several kernels add up from its months is added up once, in a column of its own.
  const sumReaders = new Map<string, number>();
  for (const key of walked) {
    const s = state.get(key);
    if (s?.kind === 'kernel') for (const k of s.probe.sums) sumReaders.set(k, (sumReaders.get(k) ?? 0) + 1);
  }
  const sums = new Set([...sumReaders].filter(([, n]) => n > 1).map(([k]) => k));
  const fusion: Fusion = { constants, inline, bounds, sums };
  const steps: PlanStep[] = [];
  const slotOf = new Map<string, number>();
  const inputs: Plan['inputs'] = [];
  let slotCount = 0;
  let kernels = 0;
  const exactSlot = (name: string, p: string): number => {
    const key = `${name}@${p}`;
    const done = slotOf.get(key);
    if (done !== undefined) return done;
    const s = state.get(key)!;
    const fill = (value: number): number => {
      const spec = src.variable(name);
      const fresh = slotCount++;
      steps.push({ kind: 'fill', entity: spec.entity, type: outputArrayType(spec), value, deps: [], slot: fresh, release: [] });
      return fresh;
    };
    let slot: number;
    if (s.kind === 'input') {
      slot = slotCount++;
      inputs.push({ name, period: p, slot });
    } else if (s.kind === 'const') {
      slot = fill(s.value);
    } else {
      // Compiled again when it inlines a variable or reads a year the plan adds up: its probe did neither.
      const recompile = s.probe.deps.some((d) => !d.branch && inline.has(`${d.name}@${d.period}`)) || s.probe.sums.some((k) => sums.has(k));
      const kernel = recompile ? src.fusedKernel(name, p, fusion) : s.probe;
      // The formulas of the variables inlined into it can fold what its probe could not.
      if (kernel.constant !== null) slot = fill(kernel.constant);
      else {
        const deps = kernel.deps.map((d) => (d.branch && !isIdentity(d.branch) ? branchSlot(d.name, d.period, d.branch) : readSlot(d.name, d.period)));
        slot = shared(`k|${kernelSignature(kernel)}|${deps.join(',')}`, () => {
          const fresh = slotCount++;
          steps.push({ kind: 'kernel', kernel, deps, slot: fresh, release: [] });
          kernels++;
          return fresh;
        });
      }
    }
    slotOf.set(key, slot);
    return slot;
  };
  const readSlot = (name: string, p: string): number => {
    const r = resolveRead(src.variable(name), p);
    if (r.how === 'exact') return exactSlot(name, r.periods[0]);
    const key = `${name}@${p}`;
    const done = slotOf.get(key);
    if (done !== undefined) return done;
    let deps = r.periods.map((ep) => exactSlot(name, ep));
    // Twelve months computed once (the same column each month) sum to twelve times it: one pass.
    const times = r.how === 'sum' && deps.every((d) => d === deps[0]) ? deps.length : 1;
    if (times > 1) deps = [deps[0]];
    const slot = shared(`${r.how}|${times}|${deps.join(',')}`, () => {
      const fresh = slotCount++;
      steps.push(times > 1 ? { kind: 'times', factor: times, deps, slot: fresh, release: [] } : { kind: r.how as 'sum' | 'twelfth', deps, slot: fresh, release: [] });
      return fresh;
    });
    slotOf.set(key, slot);
    return slot;
  };
  /** A given column the parent plan may not read itself (a branch's input). */
  const inputSlot = (name: string, p: string): number => {
    const key = `${name}@${p}`;
    // A column the branch takes from this plan: computed here if this plan did not need it itself.
    if (!state.has(key) && !isInput(name, p)) visitExact(src.variable(name), p);
    if (state.has(key)) return exactSlot(name, p);
    let slot = slotOf.get(key);
    if (slot === undefined) {
      slot = slotCount++;
      inputs.push({ name, period: p, slot });
      slotOf.set(key, slot);
    }
    return slot;
  };
  const branchSlot = (name: string, p: string, branch: string): number => {
    const key = `${name}@${p}#${branch}`;
    const done = slotOf.get(key);
    if (done !== undefined) return done;
    const plan = branchPlans.get(key)!;
    // A variable taking another's values reads that variable's column here.
    const from = new Map(src.branch(branch).spec.from);
    const deps = plan.inputs.map((i) => inputSlot(from.get(i.name) ?? i.name, i.period));
    const slot = slotCount++;
    steps.push({ kind: 'branch', plan, name, deps, slot, release: [] });
    slotOf.set(key, slot);
    return slot;
  };
  const outputs = targets.map((name) => ({ name, slot: readSlot(name, period) }));

  // 4. Free each intermediate column after the last step reading it.
  linkTwins(steps, (name) => src.variable(name).entity);
  scheduleReleases(steps, new Set([...inputs.map((i) => i.slot), ...outputs.map((o) => o.slot)]));

  let constantCount = 0;
  for (const s of state.values()) if (s.kind === 'const') constantCount++;
  const global = steps.some((st) => (st.kind === 'kernel' && st.kernel.global) || (st.kind === 'branch' && st.plan.global));
  return { inputs, steps, outputs, slotCount, stats: { kernels, inlined: inline.size, constants: constantCount }, global };
}

/** Free each column after the last step reading it (a twin's column and those it read count as read), except those in `keep` (inputs, outputs). */
export function scheduleReleases(steps: PlanStep[], keep: Set<number>): void {
  const lastReader = new Map<number, number>();
  steps.forEach((st, i) => {
    st.deps.forEach((d) => lastReader.set(d, i));
    if (st.kind === 'kernel' && st.twin) {
      lastReader.set(st.twin.slot, i);
      // The twin's columns are compared with this kernel's row by row (ChangedBlocks).
      if (comparable(st.twin)) st.twin.deps.forEach((d) => lastReader.set(d, i));
    }
  });
  for (const [slot, i] of lastReader) if (!keep.has(slot)) steps[i].release.push(slot);
}

/**
 * Run a plan on a population (or a chunk of one): `inputs` are the columns of `plan.inputs`, in
 * order. Intermediate columns go back to the population's buffer pool as soon as they are dead.
 */
export function runPlan(plan: Plan, pop: PopulationView & { count(entity: string): number }, inputs: Column[]): Map<string, Column> {
  const slots = runSteps(plan, pop, inputs);
  return new Map(plan.outputs.map((o) => [o.name, slots[o.slot]!]));
}

/** Run a plan's steps; the slots after the run (inputs and the columns nothing released). */
export function runSteps(plan: Plan, pop: PopulationView & { count(entity: string): number }, inputs: Column[]): (Column | undefined)[] {
  const slots: (Column | undefined)[] = new Array(plan.slotCount);
  plan.inputs.forEach((inp, i) => (slots[inp.slot] = inputs[i]));
  // Slots known in this run to hold the same values share a value id (a kernel copied from its
  // twin, or computing what its twin did).
  const ids = new Int32Array(plan.slotCount);
  for (let k = 0; k < ids.length; k++) ids[k] = k;
  // A kernel whose column holds its twin's values takes the twin's buffer instead of a copy: its
  // readers (a year adding up twelve such months) then read one buffer, not twelve. Buffers held by
  // several slots are counted here and go back to the pool with the last of them.
  const holders = new Map<Column, number>();
  const share = (slot: number, from: number, own?: Column) => {
    const col = slots[from]!;
    if (own && own !== col) pop.recycle(own);
    slots[slot] = col;
    holders.set(col, (holders.get(col) ?? 1) + 1);
    ids[slot] = ids[from];
  };
  let partial: ChangedBlocks | null = null;
  for (const st of plan.steps) {
    const cols = st.deps.map((d) => slots[d]!);
    switch (st.kind) {
      case 'kernel': {
        const twin = st.twin;
        if (comparable(twin)) {
          const changed: { k: number; slot: number; twinSlot: number }[] = [];
          st.deps.forEach((d, k) => ids[d] !== ids[twin.deps[k]] && changed.push({ k, slot: d, twinSlot: twin.deps[k] }));
          if (changed.length === 0 && !twin.tables) {
            share(st.slot, twin.slot);
            break;
          }
          // The columns read (or the tables at their keys) differ on some rows: where few blocks
          // (households) hold them, the kernel runs on those blocks only.
          if (pop instanceof PopulationIndex) {
            partial ??= new ChangedBlocks(pop);
            const r = partial.run(st.kernel, cols, twin.deps.map((d) => slots[d]!), slots[twin.slot]!, changed, twin, st.slot);
            if (r) {
              if (r.same) share(st.slot, twin.slot, r.out);
              else slots[st.slot] = r.out;
              break;
            }
          }
        }
        const out = st.kernel.run(cols, pop);
        if (twin && sameBytes(out, slots[twin.slot]!)) share(st.slot, twin.slot, out);
        else slots[st.slot] = out;
        break;
      }
      case 'sum':
      case 'twelfth':
        slots[st.slot] = convertRead(st.kind, cols, pop.alloc('Float64Array', cols[0].length) as Float64Array);
        break;
      case 'times': {
        const c = cols[0];
        const out = pop.alloc('Float64Array', c.length) as Float64Array;
        // Added up rather than multiplied: the same value, to the last bit, as summing the months.
        for (let i = 0; i < out.length; i++) {
          const x = c[i];
          let v = 0;
          for (let k = 0; k < st.factor; k++) v += x;
          out[i] = v;
        }
        slots[st.slot] = out;
        break;
      }
      case 'fill':
        slots[st.slot] = pop.alloc(st.type, pop.count(st.entity)).fill(st.value);
        break;
      case 'branch': {
        let out = runPlan(st.plan, pop, cols).get(st.name)!;
        // A branch whose target it takes whole from this plan hands back this plan's own column:
        // a copy keeps the two slots' lifetimes apart (releasing one must not free the other).
        if (cols.includes(out)) out = copyColumn(pop, out);
        slots[st.slot] = out;
        break;
      }
    }
    for (const r of st.release) {
      const col = slots[r]!;
      slots[r] = undefined;
      const n = holders.get(col);
      if (n === undefined) pop.recycle(col);
      else if (n > 2) holders.set(col, n - 1);
      else holders.delete(col);
    }
  }
  // The slots handed back own their buffers: one still shared is copied.
  if (holders.size > 0) {
    const seen = new Set<Column>();
    for (let k = 0; k < slots.length; k++) {
      const col = slots[k];
      if (col === undefined) continue;
      if (seen.has(col)) slots[k] = copyColumn(pop, col);
      else seen.add(col);
    }
  }
  partial?.release();
  return slots;
}

/** Whether two columns hold the same bits (a NaN equals itself; 0 and -0 differ). */
function sameBytes(a: Column, b: Column): boolean {
  if (a.constructor !== b.constructor || a.length !== b.length) return false;
  return Buffer.compare(Buffer.from(a.buffer, a.byteOffset, a.byteLength), Buffer.from(b.buffer, b.byteOffset, b.byteLength)) === 0;
}
