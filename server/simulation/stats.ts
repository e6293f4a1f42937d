/**
 * Weighted statistics over households: orderings, quantiles, deciles, the Gini coefficient and
 * top income shares. Every function takes a value and a weight per unit; units with zero weight
 * count for nothing.
 */

/** Indices of `values` in ascending order (ties in index order). */
export function ascending(values: ArrayLike<number>): Uint32Array {
  const idx = new Uint32Array(values.length);
  for (let i = 0; i < idx.length; i++) idx[i] = i;
  return idx.sort((a, b) => values[a] - values[b] || a - b);
}

/** The weighted median: the smallest value with at least half the weight at or below it. */
export function weightedMedian(values: ArrayLike<number>, weights: ArrayLike<number>, order: Uint32Array = ascending(values)): number {
  let total = 0;
  for (let i = 0; i < weights.length; i++) total += weights[i];
  if (total <= 0) return NaN;
  let acc = 0;
  for (const i of order) {
    acc += weights[i];
    if (acc >= total / 2) return values[i];
  }
  return values[order[order.length - 1]];
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
