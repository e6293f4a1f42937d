import { nextDay } from './dates';
import { DatedValue, ParameterError, ParameterValue, UpratingSpec } from './types';

/**
 * Operations on one dated series (ascending by start): lookup, PolicyEngine's period update
 * (used by reforms) and uprating by an index series.
 */

/** Index of the entry with the latest start on or before `instant`, or -1. */
function indexAt(series: readonly DatedValue[], instant: string): number {
  let lo = 0;
  let hi = series.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (series[mid].start <= instant) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found;
}

/** The value in force at `instant`: undefined before the first start; null after a series end. */
export function valueAt(series: readonly DatedValue[], instant: string): ParameterValue | undefined {
  const i = indexAt(series, instant);
  return i < 0 ? undefined : series[i].value;
}

/**
 * Sets `value` from `start` to `stop` (inclusive; open-ended if undefined). After `stop` the series
 * continues as before: the value in force at `stop` is restored on the next day, unless an entry
 * already starts then. This is PolicyEngine's `Parameter.update`, which reforms go through.
 */
export function updateSeries(
  series: readonly DatedValue[],
  start: string,
  stop: string | undefined,
  value: ParameterValue,
): DatedValue[] {
  const out: DatedValue[] = series.filter((e) => e.start < start);
  out.push({ start, value });
  if (stop === undefined) return out;
  const resume = nextDay(stop);
  if (!series.some((e) => e.start === resume)) {
    const before = valueAt(series, stop);
    out.push({ start: resume, value: before === undefined ? null : before });
  }
  for (const e of series) if (e.start >= resume) out.push(e);
  return out;
}

/** numpy's round (which PolicyEngine's "nearest" uses) rounds halves to even. */
function roundHalfEven(x: number): number {
  const r = Math.round(x);
  return Math.abs(x - Math.trunc(x)) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

function roundTo(value: number, rounding: NonNullable<UpratingSpec['rounding']>): number {
  const fn = rounding.type === 'upwards' ? Math.ceil : rounding.type === 'downwards' ? Math.floor : roundHalfEven;
  return fn(value / rounding.interval) * rounding.interval;
}

/**
 * Extends `series` past its last entry (or `spec.startInstant`) with one value per later entry of
 * the index: last value * index(entry) / index(last), rounded as specified. Values land on the
 * index's own dates, as in PolicyEngine, and each is computed from the last written value (not
 * chained through rounded values).
 */
export function uprateSeries(
  series: readonly DatedValue[],
  index: readonly DatedValue[],
  spec: UpratingSpec,
  path: string,
): readonly DatedValue[] {
  if (series.length === 0) return series;
  const last = spec.startInstant ?? series[series.length - 1].start;
  const later = index.filter((e) => e.start > last && typeof e.value === 'number');
  if (later.length === 0) return series;
  const base = valueAt(series, last);
  // A series that has ended (null) stays ended, and zero (e.g. a filled breakdown key) stays zero.
  if (base === null || base === undefined || base === 0) return series;
  if (typeof base !== 'number') {
    throw new ParameterError(`${path}: cannot uprate a series of ${typeof base} values`, undefined, path);
  }
  const indexAtLast = valueAt(index, last);
  if (typeof indexAtLast !== 'number' || indexAtLast === 0) {
    throw new ParameterError(
      `${path}: cannot uprate with ${spec.parameter}: the index has no usable value at ${last}`,
      undefined,
      path,
    );
  }
  // Written entries win over uprated ones on the same date (PolicyEngine keeps both, the written first).
  const written = new Set(series.map((e) => e.start));
  const out = series.slice();
  for (const e of later) {
    if (written.has(e.start)) continue;
    const change = (e.value as number) / indexAtLast;
    let v = base * change;
    if (spec.rounding) v = roundTo(v, spec.rounding);
    out.push({ start: e.start, value: v });
  }
  out.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  return out;
}

export type SeriesKind = 'number' | 'bool' | 'string' | 'list' | 'none';

export function kindOf(value: ParameterValue): SeriesKind {
  if (value === null) return 'none';
  if (Array.isArray(value)) return 'list';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  return 'string';
}

/** The kind shared by the series' non-null values ('none' if all are null). */
export function seriesKind(series: readonly DatedValue[]): SeriesKind {
  for (const e of series) {
    const k = kindOf(e.value);
    if (k !== 'none') return k;
  }
  return 'none';
}
