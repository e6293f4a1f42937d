import { strings } from '../strings';
/**
 * Helpers called from generated kernels. They are monomorphic and small so V8 inlines them.
 * Scale semantics follow OpenFisca's tax scales.
 */

/** Tax on x under marginal rates: sum of rate_k * (min(x, t_{k+1}) - t_k)+. */
export function marginal(t: Float64Array, r: Float64Array, x: number): number {
  let tax = 0;
  const n = t.length;
  for (let k = 0; k < n; k++) {
    const lo = t[k];
    if (x <= lo) break;
    const hi = k + 1 < n ? t[k + 1] : Infinity;
    tax += r[k] * ((x < hi ? x : hi) - lo);
  }
  return tax;
}

/** Index of the bracket x falls in (largest k with t_k <= x), or -1 below the first threshold. */
export function bracket(t: Float64Array, x: number): number {
  let k = -1;
  for (let j = 0; j < t.length; j++) {
    if (t[j] <= x) k = j;
    else break;
  }
  return k;
}

/** The value (amount or rate) of the bracket x falls in; 0 below the first threshold. */
export function lookup(t: Float64Array, v: Float64Array, x: number): number {
  const k = bracket(t, x);
  return k < 0 ? 0 : v[k];
}

/** lookup() with right-closed brackets: a value equal to a threshold stays in the bracket below. */
export function lookupRight(t: Float64Array, v: Float64Array, x: number): number {
  let k = -1;
  for (let j = 0; j < t.length; j++) {
    if (t[j] < x) k = j;
    else break;
  }
  return k < 0 ? 0 : v[k];
}

/** The position of a string code among a parameter's keys (a table built when the kernel was compiled). */
export function strIndex(table: Int32Array, code: number, path: string): number {
  const k = code < table.length ? table[code] : -1;
  if (k < 0) throw new Error(`parameter ${path} has no key for this value (a text that is not one of its keys)`);
  return k;
}

/** The code of part of a text (`length` characters from `start`), memoised per call site. */
export function substr(memo: Map<number, number>, code: number, start: number, length: number): number {
  let out = memo.get(code);
  if (out === undefined) {
    out = strings.code(strings.text(code).substr(start, length));
    memo.set(code, out);
  }
  return out;
}

/** The code of texts joined end to end, memoised per call site by the codes joined. */
export function concat(memo: Map<string, number>, codes: number[]): number {
  const key = codes.join(',');
  let out = memo.get(key);
  if (out === undefined) {
    out = strings.code(codes.map((c) => strings.text(c)).join(''));
    memo.set(key, out);
  }
  return out;
}

/** The enum code of a text (a string code), or the default when the text is not one of the values. */
export function enumOfText(table: Int32Array, code: number, fallback: number): number {
  const k = code < table.length ? table[code] : -1;
  return k < 0 ? fallback : k;
}

/** Row order of x ascending, ties in row order. */
function ascending(x: Float64Array): Int32Array {
  const order = new Int32Array(x.length);
  for (let i = 0; i < order.length; i++) order[i] = i;
  return order.sort((a, b) => x[a] - x[b] || a - b);
}

/**
 * Weighted quantile as microdf computes it (PolicyEngine's MicroSeries): each sorted value sits at
 * the middle of its weight on the cumulative scale, and q is interpolated linearly between them.
 */
export function weightedQuantile(x: Float64Array, w: Float64Array, q: number): number {
  const n = x.length;
  if (n === 0) return 0;
  const order = ascending(x);
  let total = 0;
  for (let i = 0; i < n; i++) total += w[i];
  if (!(total > 0)) return x[order[0]];
  let cum = 0;
  let prevPos = -Infinity;
  let prevVal = x[order[0]];
  for (let k = 0; k < n; k++) {
    const i = order[k];
    const pos = (cum + 0.5 * w[i]) / total;
    cum += w[i];
    if (q <= pos) return k === 0 || pos === prevPos ? x[i] : prevVal + ((q - prevPos) / (pos - prevPos)) * (x[i] - prevVal);
    prevPos = pos;
    prevVal = x[i];
  }
  return prevVal;
}

/** Each row's weighted rank as a share: the weight of the rows up to it in ascending order over the total. */
export function weightedRank(x: Float64Array, w: Float64Array, out: Float64Array): Float64Array {
  const order = ascending(x);
  let total = 0;
  for (let i = 0; i < x.length; i++) total += w[i];
  let cum = 0;
  for (let k = 0; k < order.length; k++) {
    cum += w[order[k]];
    out[order[k]] = total > 0 ? cum / total : 0;
  }
  return out;
}

/** Sum of the amounts of every bracket whose threshold x exceeds (marginal-amount scales). */
export function stepsum(t: Float64Array, a: Float64Array, x: number): number {
  let s = 0;
  for (let k = 0; k < t.length; k++) {
    if (x > t[k]) s += a[k];
    else break;
  }
  return s;
}

/** Average-rate scales: the rate is interpolated linearly between bracket thresholds, times x. */
export function average(t: Float64Array, r: Float64Array, x: number): number {
  const n = t.length;
  if (n === 0) return 0;
  if (x <= t[0]) return r[0] * x;
  for (let k = 0; k + 1 < n; k++) {
    if (x < t[k + 1]) {
      const f = (x - t[k]) / (t[k + 1] - t[k]);
      return (r[k] + f * (r[k + 1] - r[k])) * x;
    }
  }
  return r[n - 1] * x;
}

/** Round half to even, as numpy does. */
export function round(x: number, digits: number): number {
  const m = 10 ** digits;
  const y = x * m;
  const f = Math.floor(y);
  const d = y - f;
  let r: number;
  if (d > 0.5 + 1e-9) r = f + 1;
  else if (d < 0.5 - 1e-9) r = f;
  else r = f % 2 === 0 ? f : f + 1;
  return r / m;
}

/** Floor modulo, as numpy's `%`. */
export function mod(a: number, b: number): number {
  const r = a % b;
  return r !== 0 && (r < 0) !== (b < 0) ? r + b : r;
}

/** Position of an integer in a contiguous breakdown starting at `lo` with `size` keys (nearest end outside). */
export function clampIndex(x: number, lo: number, size: number): number {
  const k = Math.round(x) - lo;
  return k < 0 ? 0 : k >= size ? size - 1 : k;
}

/**
 * Rank of each row within its group ordered by key ascending (ties by row order); rows where
 * `cond` is 0 get -1 and are not counted. When the population is `ordered` (each group's rows
 * consecutive, see PopulationIndex.ordered) groups are ranked run by run; otherwise rows are
 * bucketed by group in one counting pass, then each (small) group is ranked by counting and large
 * groups fall back to a sort.
 */
export function rank(key: Float64Array, cond: Uint8Array | null, group: Int32Array, ordered: boolean, out: Int32Array = new Int32Array(key.length)): Int32Array {
  const n = key.length;
  if (ordered) return rankRuns(key, cond, group, out);
  let groups = 0;
  for (let i = 0; i < n; i++) if (group[i] >= groups) groups = group[i] + 1;
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < n; i++) start[group[i] + 1]++;
  for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  const next = start.slice(0, groups);
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[next[group[i]]++] = i;
  out.fill(-1);
  for (let g = 0; g < groups; g++) {
    const lo = start[g], hi = start[g + 1];
    if (hi - lo > 64) {
      const members = Array.from(rows.subarray(lo, hi)).filter((i) => !cond || cond[i]);
      members.sort((a, b) => key[a] - key[b] || a - b).forEach((i, r) => (out[i] = r));
      continue;
    }
    for (let x = lo; x < hi; x++) {
      const a = rows[x];
      if (cond && !cond[a]) continue;
      let r = 0;
      for (let y = lo; y < hi; y++) {
        const b = rows[y];
        if ((!cond || cond[b]) && (key[b] < key[a] || (key[b] === key[a] && b < a))) r++;
      }
      out[a] = r;
    }
  }
  return out;
}

/** rank() when each group's rows are one run (microdata and chunks sorted by household). */
function rankRuns(key: Float64Array, cond: Uint8Array | null, group: Int32Array, out: Int32Array): Int32Array {
  const n = key.length;
  let lo = 0;
  while (lo < n) {
    const g = group[lo];
    let hi = lo + 1;
    while (hi < n && group[hi] === g) hi++;
    if (hi - lo === 1) {
      // Most groups of a real population have one or two members: no comparisons needed for one.
      out[lo] = cond === null || cond[lo] ? 0 : -1;
    } else {
      for (let a = lo; a < hi; a++) {
        if (cond !== null && !cond[a]) {
          out[a] = -1;
          continue;
        }
        const ka = key[a];
        let r = 0;
        for (let b = lo; b < a; b++) if ((cond === null || cond[b]) && key[b] <= ka) r++;
        for (let b = a + 1; b < hi; b++) if ((cond === null || cond[b]) && key[b] < ka) r++;
        out[a] = r;
      }
    }
    lo = hi;
  }
  return out;
}

export const runtime = { marginal, bracket, lookup, lookupRight, strIndex, substr, concat, enumOfText, weightedQuantile, weightedRank, stepsum, average, round, mod, clampIndex, rank };
export type Runtime = typeof runtime;
