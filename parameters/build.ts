import { isDate } from './dates';
import { normalizeMetadata, normalizeUprating } from './metadata';
import { validate } from './schema';
import { readDerivation } from './derived';
import { kindOf, SeriesKind, valueAt } from './series';
import {
  DatedValue,
  Parameter,
  ParameterError,
  ParameterLeaf,
  ParameterMetadata,
  ParameterNode,
  ParameterScale,
  ParameterValue,
  ScaleBracket,
  ScaleKind,
} from './types';

/**
 * Turns parsed YAML into parameters, as PolicyEngine reads it: a mapping with `values` is a leaf,
 * with `brackets` a scale, with only date keys a leaf in the dated shorthand; anything else is a
 * node whose non-reserved keys are children.
 */

const DATE_LIKE = /^\d{4}-\d{2}-\d{2}$/;
/** A node's own keys; `reference` is reserved by PolicyEngine too (never a child). */
const NODE_KEYS = new Set(['description', 'metadata', 'documentation', 'reference']);
const COMPONENTS = ['threshold', 'rate', 'amount', 'average_rate', 'base'] as const;
const VALUE_COMPONENTS = ['rate', 'amount', 'average_rate'] as const;

type Raw = Record<string, unknown>;

function isMapping(x: unknown): x is Raw {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function fail(file: string, where: string, message: string): never {
  throw new ParameterError(`${file}: ${where}: ${message}`, file, where);
}

export function classify(raw: unknown, file: string, path: string): 'leaf' | 'scale' | 'node' | 'derived' {
  if (!isMapping(raw)) fail(file, path || '(root)', raw === null ? 'is empty' : 'must be a mapping');
  if ('derived' in raw) return 'derived';
  if ('values' in raw) return 'leaf';
  if ('brackets' in raw) return 'scale';
  const keys = Object.keys(raw);
  const dated = keys.filter((k) => DATE_LIKE.test(k));
  if (dated.length === 0) return 'node';
  const other = keys.find((k) => !DATE_LIKE.test(k)) as string | undefined;
  if (other === undefined) return 'leaf';
  if (NODE_KEYS.has(other)) fail(file, `${path}.${other}`, `dated values must go under "values:" when the file has "${other}"`);
  return fail(file, `${path}.${other}`, `bad date key "${other}" (expected YYYY-MM-DD)`);
}

/** Dated entries -> ascending series; checks real calendar dates and one value kind per series. */
function buildSeries(values: Raw, file: string, path: string): DatedValue[] {
  const series: DatedValue[] = [];
  let kind: SeriesKind = 'none';
  for (const start of Object.keys(values).sort()) {
    if (!isDate(start)) fail(file, `${path}.values.${start}`, `bad date key "${start}" (not a calendar date)`);
    const entry = values[start];
    if (entry === 'expected') continue;
    let value: ParameterValue;
    if (isMapping(entry)) {
      if (entry.expected !== undefined && entry.expected !== false) continue;
      if (!('value' in entry)) fail(file, `${path}.values.${start}`, 'missing key "value"');
      value = entry.value as ParameterValue;
    } else {
      value = entry as ParameterValue;
    }
    const k = kindOf(value);
    if (k !== 'none') {
      if (kind !== 'none' && k !== kind) {
        fail(file, `${path}.values.${start}`, `mixes ${kind} and ${k} values in one series`);
      }
      kind = k;
    }
    if (Array.isArray(value)) value = Object.freeze(value.slice()) as string[];
    series.push({ start, value });
  }
  return series;
}

/** A leaf already checked by a schema (its own, or its scale's). */
function leafFrom(raw: Raw, file: string, path: string): ParameterLeaf {
  const long = 'values' in raw;
  const values = (long ? raw.values : raw) as Raw;
  const metadata = long ? normalizeMetadata(raw.metadata, raw.description, file, path) : {};
  return { kind: 'leaf', path, values: buildSeries(values ?? {}, file, path), metadata, file };
}

export function buildLeaf(raw: Raw, file: string, path: string): ParameterLeaf {
  validate('leaf', raw, file, path);
  return leafFrom(raw, file, path);
}

function scaleKind(brackets: ScaleBracket[], declared: unknown, file: string, path: string): ScaleKind {
  const present = VALUE_COMPONENTS.filter((c) => brackets.some((b) => b[c] !== undefined));
  if (present.length !== 1) {
    const what = present.length === 0 ? 'no rate, amount or average_rate' : `both ${present.join(' and ')}`;
    fail(file, path, `inconsistent brackets: the scale has ${what}`);
  }
  const component = present[0];
  brackets.forEach((b, i) => {
    if (b[component] === undefined) fail(file, `${path}[${i}]`, `inconsistent brackets: missing "${component}"`);
  });
  const fits: Record<ScaleKind, readonly string[]> = {
    marginal_rate: ['rate'],
    average_rate: ['average_rate', 'rate'],
    single_amount: ['amount'],
    marginal_amount: ['amount'],
  };
  if (declared !== undefined) {
    const kind = declared as ScaleKind;
    if (!fits[kind].includes(component)) fail(file, `${path}.metadata.type`, `type ${kind} needs "${fits[kind][0]}" in every bracket, not "${component}"`);
    return kind;
  }
  // PolicyEngine's default: amounts without a declared type make a marginal-amount scale.
  return component === 'rate' ? 'marginal_rate' : component === 'amount' ? 'marginal_amount' : 'average_rate';
}

/** Thresholds must not decrease across brackets at any date where the scale changes. */
function checkThresholds(brackets: ScaleBracket[], file: string, path: string): void {
  const dates = new Set<string>();
  for (const b of brackets) for (const c of COMPONENTS) for (const e of b[c]?.values ?? []) dates.add(e.start);
  for (const date of [...dates].sort()) {
    let prev: { i: number; t: number } | undefined;
    brackets.forEach((b, i) => {
      const t = valueAt(b.threshold.values, date);
      if (typeof t !== 'number') return;
      if (prev && t < prev.t) {
        fail(file, `${path}[${i}].threshold`, `thresholds are not ascending at ${date}: ${t} after ${prev.t} in bracket [${prev.i}]`);
      }
      prev = { i, t };
    });
  }
}

/**
 * Scale-level and bracket-level uprating reach the component leaves as PolicyEngine routes them:
 * a leaf's own uprating wins, then a bracket's per-component override (`metadata.threshold.uprating`),
 * then the bracket's, then the scale's; thresholds only take the value-side uprating when
 * `uprate_thresholds` is set, or a dedicated `threshold_uprating`.
 */
function routeUprating(bracket: ScaleBracket, bracketMeta: ParameterMetadata, scaleMeta: ParameterMetadata, file: string, path: string): void {
  const norm = (raw: unknown): unknown => (raw === undefined ? undefined : normalizeUprating(raw, file, path));
  const valueSide = bracketMeta.uprating ?? scaleMeta.uprating;
  const thresholdSide = norm(bracketMeta.threshold_uprating ?? scaleMeta.threshold_uprating);
  const uprateThresholds = bracketMeta.uprate_thresholds ?? scaleMeta.uprate_thresholds;
  for (const c of COMPONENTS) {
    const leaf = bracket[c];
    if (!leaf || leaf.metadata.uprating !== undefined) continue;
    const override = norm((bracketMeta[c] as { uprating?: unknown } | undefined)?.uprating);
    const fallback = c === 'threshold' ? thresholdSide ?? (uprateThresholds ? valueSide : undefined) : valueSide;
    const resolved = override ?? fallback;
    if (resolved !== undefined) leaf.metadata.uprating = resolved as ParameterMetadata['uprating'];
  }
}

export function buildScale(raw: Raw, file: string, path: string): ParameterScale {
  validate('scale', raw, file, path);
  const metadata = normalizeMetadata(raw.metadata, raw.description, file, path);
  const rawBrackets = raw.brackets as Raw[];
  if (rawBrackets.length === 0) fail(file, `${path}.brackets`, 'a scale needs at least one bracket');
  const brackets = rawBrackets.map((rb, i): ScaleBracket => {
    const bpath = `${path}[${i}]`;
    const bracket = { threshold: leafFrom(rb.threshold as Raw, file, `${bpath}.threshold`) } as ScaleBracket;
    for (const c of COMPONENTS) {
      if (c !== 'threshold' && rb[c] !== undefined) bracket[c] = leafFrom(rb[c] as Raw, file, `${bpath}.${c}`);
    }
    routeUprating(bracket, normalizeMetadata(rb.metadata, undefined, file, bpath), metadata, file, bpath);
    return bracket;
  });
  const kind = scaleKind(brackets, metadata.type, file, path);
  if (kind !== 'single_amount') {
    brackets.forEach((b, i) => {
      if (b.amount?.values.some((e) => typeof e.value === 'boolean')) {
        fail(file, `${path}[${i}].amount`, `true/false amounts need type single_amount (this scale is ${kind})`);
      }
    });
  }
  checkThresholds(brackets, file, path);
  return { kind: 'scale', path, scaleKind: kind, brackets, metadata, file };
}

const SEGMENT = /^[^.[\]\s]+$/;

export function checkChildName(name: string, file: string, path: string): void {
  if (!SEGMENT.test(name)) fail(file, path ? `${path}.${name}` : name, `"${name}" cannot be a parameter name (no dots, brackets or spaces)`);
}

export function buildNode(raw: Raw, file: string, path: string): ParameterNode {
  validate('node', raw, file, path);
  const node: ParameterNode = {
    kind: 'node',
    path,
    children: {},
    metadata: normalizeMetadata(raw.metadata, raw.description, file, path),
    file,
  };
  for (const [name, child] of Object.entries(raw)) {
    if (NODE_KEYS.has(name)) continue;
    checkChildName(name, file, path);
    node.children[name] = buildParameter(child, file, path ? `${path}.${name}` : name);
  }
  return node;
}

/** A `derived:` file: a leaf computed by a yearly formula, or a node of table quantiles (expanded later). */
function buildDerived(raw: Raw, file: string, path: string): Parameter {
  validate('derived', raw, file, path);
  const metadata = normalizeMetadata(raw.metadata, raw.description, file, path);
  const derivation = readDerivation(raw.derived as Raw, file, path);
  if (derivation.kind === 'formula') return { kind: 'leaf', path, values: [], metadata, file, derived: derivation };
  return { kind: 'node', path, children: {}, metadata, file, derivedTable: derivation };
}

export function buildParameter(raw: unknown, file: string, path: string): Parameter {
  const kind = classify(raw, file, path);
  const obj = raw as Raw;
  if (kind === 'derived') return buildDerived(obj, file, path);
  return kind === 'leaf' ? buildLeaf(obj, file, path) : kind === 'scale' ? buildScale(obj, file, path) : buildNode(obj, file, path);
}
