import type { Kernel } from './compiler/variable';
import type { PlanStep } from './plan';

/**
 * An earlier kernel of the same variable with the same code in the same plan (a monthly variable's
 * previous distinct month). Where, in a run, the columns it read hold the same values as this
 * kernel's (and its tables agree) this kernel's column is a copy of its column; where this
 * kernel's column comes out equal to it anyway, the kernels reading the two see the same values
 * (see runSteps).
 */
export interface Twin {
  slot: number;
  deps: number[];
  /** Same code and the same constant tables: only the columns read can make the two differ. */
  sameRules: boolean;
  /**
   * Same code, with tables that differ only in parameters broken down by one column each (a
   * state's or a county's value): the two differ only where the columns read do, or where such a
   * column's key selects an entry the tables disagree on.
   */
  tables?: TableChange[];
  /** Entity of each column the kernel reads (where they differ from the twin's, by row). */
  entities: string[];
}

/** A table of a kernel that differs from its twin's, read only at the keys held by one column. */
export interface TableChange {
  /** Position of the key column among the kernel's columns. */
  k: number;
  /** 1 at each key whose entry differs between the two tables (keys past its end agree). */
  differs: Uint8Array;
}

/** A twin is comparable row by row when only its columns and key-column tables can differ. */
export function comparable(t: Twin | undefined): t is Twin {
  return t !== undefined && (t.sameRules || t.tables !== undefined);
}

/**
 * Give each kernel its twin (see Twin): the last earlier kernel of the same variable with the same
 * code. Months whose rules differ only for some states compute, chunk by chunk, what the month
 * before computed wherever no row of the chunk is in those states.
 */
export function linkTwins(steps: PlanStep[], entityOf: (name: string) => string): void {
  const last = new Map<string, PlanStep & { kind: 'kernel' }>();
  for (const st of steps) {
    if (st.kind !== 'kernel') continue;
    delete st.twin;
    const prev = last.get(st.kernel.variable);
    if (prev && prev.kernel.source === st.kernel.source && !st.kernel.global) {
      const sameRules = kernelSignature(prev.kernel) === kernelSignature(st.kernel);
      const twin: Twin = { slot: prev.slot, deps: prev.deps, sameRules, entities: st.kernel.deps.map((d) => entityOf(d.name)) };
      const tables = sameRules ? null : tableChanges(prev.kernel, st.kernel);
      if (tables) twin.tables = tables;
      st.twin = twin;
    }
    last.set(st.kernel.variable, st);
  }
}

/** The tables two kernels of one code and entity differ in, when every one is read by a key column only (else null). */
function tableChanges(a: Kernel, b: Kernel): TableChange[] | null {
  if (a.entity !== b.entity) return null;
  const sa = constSignatures(a);
  const sb = constSignatures(b);
  const keys = tableKeys(b);
  const out: TableChange[] = [];
  for (let j = 0; j < sb.length; j++) {
    if (sa[j] === sb[j]) continue;
    const x = a.consts[j];
    const y = b.consts[j];
    if (keys[j] < 0 || !ArrayBuffer.isView(x) || !ArrayBuffer.isView(y)) return null;
    const from = x as unknown as ArrayLike<number>;
    const to = y as unknown as ArrayLike<number>;
    const differs = new Uint8Array(Math.max(from.length, to.length));
    for (let v = 0; v < differs.length; v++) differs[v] = Object.is(from[v], to[v]) ? 0 : 1;
    out.push({ k: keys[j], differs });
  }
  return out.length > 0 ? out : null;
}

const keysOf = new WeakMap<Kernel, number[]>();

/**
 * For each constant of a kernel, the column that alone indexes it (its position among the
 * kernel's columns) where the code reads the constant only as `k<j>[c<d>[…]]` (the key in
 * parentheses or not), else -1: the value
 * a row reads from such a table depends on that column's value at one row of its block, and
 * nothing else.
 */
export function tableKeys(k: Kernel): number[] {
  let keys = keysOf.get(k);
  if (keys) return keys;
  const src = k.source;
  keys = k.consts.map((_, j) => {
    const uses = new RegExp(`\\bk${j}\\b`, 'g');
    let dep = -1;
    for (let m = uses.exec(src); m; m = uses.exec(src)) {
      const at = m.index + m[0].length;
      if (src.startsWith(` = K[${j}];`, at)) continue;
      const read = /^\[(\(*)c(\d+)\[/.exec(src.slice(at, at + 24));
      if (!read || (dep >= 0 && dep !== Number(read[2]))) return -1;
      // The key is the whole index: the column read (in parentheses or not) closes the table's.
      const end = closing(src, at + read[0].length - 1) + 1;
      if (src.slice(end, end + read[1].length + 1) !== `${')'.repeat(read[1].length)}]`) return -1;
      dep = Number(read[2]);
    }
    return dep;
  });
  keysOf.set(k, keys);
  return keys;
}

/** Position of the bracket closing the one at `open`. */
function closing(src: string, open: number): number {
  let depth = 0;
  for (let p = open; p < src.length; p++) {
    if (src[p] === '[') depth++;
    else if (src[p] === ']' && --depth === 0) return p;
  }
  return -1;
}

const signatures = new WeakMap<Kernel, string>();
const constSigs = new WeakMap<Kernel, string[]>();

/** JSON with the numbers JSON cannot write (±Infinity, NaN) kept apart. */
const exactJson = (v: unknown): string => JSON.stringify(v, (_k, x) => (typeof x === 'number' && !Number.isFinite(x) ? `#${x}` : x));

function constSignatures(k: Kernel): string[] {
  let sigs = constSigs.get(k);
  if (!sigs) {
    sigs = k.consts.map((c) => (ArrayBuffer.isView(c) ? `${c.constructor.name}[${Array.from(c as unknown as ArrayLike<number>).join(',')}]` : c instanceof Map || c instanceof Set ? `${c.constructor.name}(${exactJson([...c])})` : exactJson(c)));
    constSigs.set(k, sigs);
  }
  return sigs;
}

/**
 * What a kernel computes from its inputs: its code and the contents of its constant tables (the
 * parameter values it reads are literals of the code or entries of those tables). Two kernels with
 * one signature compute the same column from the same inputs, whichever rules compiled them.
 */
export function kernelSignature(k: Kernel): string {
  let sig = signatures.get(k);
  if (sig === undefined) {
    sig = `${k.entity}|${k.source}|${constSignatures(k).join(';')}`;
    signatures.set(k, sig);
  }
  return sig;
}
