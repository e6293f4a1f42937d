/**
 * Weighted statistics over households: orderings, quantiles, deciles, the Gini coefficient and
 * top income shares. Every function takes a value and a weight per unit; units with zero weight
 * count for nothing.
 */

/**
 * Indices of `values` in ascending order, ties in index order (NaN last). A stable LSD radix sort
 * on the doubles' bit patterns (made order-preserving: negative numbers have every bit flipped,
 * others only the sign bit), four passes of 16 bits: a comparison sort with a callback takes
 * about ten times as long on a million households.
 */
export function ascending(values: ArrayLike<number>): Uint32Array {
  const n = values.length;
  const f = new Float64Array(n);
  for (let i = 0; i < n; i++) f[i] = Number.isNaN(values[i]) ? Infinity : values[i] === 0 ? 0 : values[i];
  const words = new Uint32Array(f.buffer);
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  for (let i = 0; i < n; i++) {
    const h = words[2 * i + 1];
    const l = words[2 * i];
    if (h & 0x80000000) {
      hi[i] = ~h >>> 0;
      lo[i] = ~l >>> 0;
    } else {
      hi[i] = (h | 0x80000000) >>> 0;
      lo[i] = l;
    }
  }
  let idx = new Uint32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  let tmp = new Uint32Array(n);
  const count = new Uint32Array(65536);
  for (const [key, shift] of [[lo, 0], [lo, 16], [hi, 0], [hi, 16]] as const) {
    count.fill(0);
    for (let i = 0; i < n; i++) count[(key[i] >>> shift) & 0xffff]++;
    if (count[(key[idx[0]] >>> shift) & 0xffff] === n) continue; // every key has this digit
    let sum = 0;
    for (let d = 0; d < 65536; d++) {
      const c = count[d];
      count[d] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const j = idx[i];
      tmp[count[(key[j] >>> shift) & 0xffff]++] = j;
    }
    const t = idx;
    idx = tmp;
    tmp = t;
  }
  return idx;
}

/** The weighted median: the smallest value with at least half the weight at or below it. */
export function weightedMedian(values: ArrayLike<number>, weights: ArrayLike<number>, order?: Uint32Array): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i];
  if (total <= 0) return NaN;
  if (!order) return weightedSelect(values, weights, total / 2);
  let acc = 0;
  for (const i of order) {
    acc += weights[i];
    if (acc >= total / 2) return values[i];
  }
  return values[order[order.length - 1]];
}

/**
 * The smallest value with at least `half` of the weight at or below it, without sorting: a
 * quickselect that keeps the weight below the part it narrows to (linear time on average; a
 * million households in a few milliseconds instead of a sort's tens).
 */
function weightedSelect(values: ArrayLike<number>, weights: ArrayLike<number>, half: number): number {
  const n = values.length;
  const v = new Float64Array(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    v[i] = Number.isNaN(values[i]) ? Infinity : values[i];
    w[i] = weights[i];
  }
  let lo = 0;
  let hi = n - 1;
  let below = 0;
  while (lo < hi) {
    const a = v[lo], b = v[(lo + hi) >>> 1], c = v[hi];
    const p = a < b ? (b < c ? b : a < c ? c : a) : a < c ? a : b < c ? c : b;
    // Three ways: [lo, lt) below the pivot, [lt, i) equal, (gt, hi] above.
    let lt = lo, i = lo, gt = hi;
    let wl = 0, we = 0;
    while (i <= gt) {
      const x = v[i];
      if (x < p) {
        wl += w[i];
        const tv = v[lt], tw = w[lt];
        v[lt] = x; w[lt] = w[i]; v[i] = tv; w[i] = tw;
        lt++; i++;
      } else if (x > p) {
        const tv = v[gt], tw = w[gt];
        v[gt] = x; w[gt] = w[i]; v[i] = tv; w[i] = tw;
        gt--;
      } else {
        we += w[i];
        i++;
      }
    }
    if (below + wl >= half) hi = lt - 1;
    else if (below + wl + we >= half) return p;
    else {
      below += wl + we;
      lo = gt + 1;
    }
  }
  return v[lo];
}

/**
 * Decile (1-10) of each unit: units in ascending order of value, each placed by the midpoint of
 * its weight in the cumulative distribution, so every decile holds a tenth of the total weight
 * (up to the unit straddling a boundary).
 */
export function weightedDeciles(values: ArrayLike<number>, weights: ArrayLike<number>, order: Uint32Array = ascending(values)): Uint8Array {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i];
  const out = new Uint8Array(values.length);
  let acc = 0;
  for (const i of order) {
    const mid = total > 0 ? (acc + weights[i] / 2) / total : 0;
    out[i] = Math.min(10, Math.floor(mid * 10) + 1);
    acc += weights[i];
  }
  return out;
}

/** Gini coefficient from the Lorenz curve (trapezoids between consecutive units). */
export function gini(values: ArrayLike<number>, weights: ArrayLike<number>, order: Uint32Array = ascending(values)): number {
  let W = 0;
  let Y = 0;
  for (let i = 0; i < values.length; i++) {
    W += weights[i];
    Y += weights[i] * values[i];
  }
  if (W <= 0 || Y === 0) return 0;
  let cum = 0;
  let area = 0;
  for (const i of order) {
    const wy = weights[i] * values[i];
    area += weights[i] * (2 * cum + wy);
    cum += wy;
  }
  return 1 - area / (W * Y);
}

/** Share of the total held by the top `fraction` of the weight (the unit on the boundary counts in part). */
export function topShare(values: ArrayLike<number>, weights: ArrayLike<number>, fraction: number, order: Uint32Array = ascending(values)): number {
  let W = 0;
  let Y = 0;
  for (let i = 0; i < values.length; i++) {
    W += weights[i];
    Y += weights[i] * values[i];
  }
  if (W <= 0 || Y === 0) return 0;
  let need = fraction * W;
  let top = 0;
  for (let k = order.length - 1; k >= 0 && need > 0; k--) {
    const i = order[k];
    const take = Math.min(weights[i], need);
    top += take * values[i];
    need -= take;
  }
  return top / Y;
}
