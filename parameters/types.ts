import type { Derivation, TableDerivation } from './derived';
/**
 * Parameter trees in the PolicyEngine/OpenFisca YAML format, and their values at an instant.
 * Instants are ISO dates "YYYY-MM-DD" (string comparison orders them).
 */

export type ScalarValue = number | boolean | string;
/** A leaf value: a scalar, a list (e.g. a list of variable names for `adds`), or null (the series ends). */
export type ParameterValue = ScalarValue | (string | number)[] | null;

export interface DatedValue {
  /** First day the value applies, "YYYY-MM-DD". */
  start: string;
  value: ParameterValue;
}

export interface UpratingSpec {
  /** Path of the index parameter whose growth extends the series. */
  parameter: string;
  rounding?: { type: 'downwards' | 'upwards' | 'nearest'; interval: number };
  /** Uprate from this instant instead of the series' last entry (PolicyEngine's `start_instant`). */
  startInstant?: string;
}

export interface ParameterMetadata {
  unit?: string;
  label?: string;
  description?: string;
  reference?: unknown;
  period?: string;
  /** Names of enum variables, `range(a, b)` strings or explicit key lists, one per nesting level. */
  breakdown?: (string | (string | number)[])[];
  uprating?: UpratingSpec;
  /** Scales: marginal_rate | single_amount | marginal_amount | average_rate. */
  type?: ScaleKind;
  [key: string]: unknown;
}

export type ScaleKind = 'marginal_rate' | 'single_amount' | 'marginal_amount' | 'average_rate';

export interface ParameterLeaf {
  kind: 'leaf';
  path: string;
  /** Sorted by start ascending, as written (uprating extensions are not stored here). */
  values: DatedValue[];
  metadata: ParameterMetadata;
  file: string;
  /** A series computed from other parameters when the tree is read (parameters/derived.ts). */
  derived?: Derivation;
}

export interface ScaleBracket {
  threshold: ParameterLeaf;
  /** rate for marginal_rate / average_rate, amount for single_amount / marginal_amount. */
  rate?: ParameterLeaf;
  amount?: ParameterLeaf;
  /** average_rate scales (PolicyEngine's `average_rate` bracket key). */
  average_rate?: ParameterLeaf;
  /** Optional multiplier of the bracket's rate (PolicyEngine's `base`). */
  base?: ParameterLeaf;
}

export interface ParameterScale {
  kind: 'scale';
  path: string;
  scaleKind: ScaleKind;
  brackets: ScaleBracket[];
  metadata: ParameterMetadata;
  file: string;
}

export interface ParameterNode {
  kind: 'node';
  path: string;
  children: Record<string, Parameter>;
  metadata: ParameterMetadata;
  file: string;
  /** A node of table-derived leaves, expanded by breakdown when the tree is finished. */
  derivedTable?: TableDerivation;
}

export type Parameter = ParameterLeaf | ParameterScale | ParameterNode;

/** `{ "gov.x.y": { "2025-01-01.2100-12-31": 0.22 } }`; a key may also be a single date "YYYY-MM-DD" (open-ended). */
export type Reform = Record<string, Record<string, ParameterValue>>;

/** A scale's value at an instant: parallel arrays, thresholds ascending. */
export interface ScaleAt {
  kind: 'scale';
  scaleKind: ScaleKind;
  thresholds: number[];
  /** rates (marginal_rate, average_rate) or amounts (single_amount, marginal_amount). */
  values: number[];
  /** True when the amounts are booleans (single_amount eligibility tables), stored as 1/0 in `values`. */
  boolValues?: boolean;
}

/** A node's value at an instant: its children by key (breakdown keys are the enum value names or numbers as strings). */
export interface NodeAt {
  kind: 'node';
  children: Record<string, ValueAt>;
  /** The node's metadata.breakdown, if any (used to index by enum/int columns). */
  breakdown?: ParameterMetadata['breakdown'];
}

export type ValueAt = ParameterValue | ScaleAt | NodeAt;

export class ParameterError extends Error {
  constructor(message: string, public readonly file?: string, public readonly path?: string) {
    super(message);
    this.name = 'ParameterError';
  }
}
