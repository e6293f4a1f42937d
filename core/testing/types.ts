/**
 * Types shared by the YAML test runner: raw cases as loaded, engine-neutral normalized cases,
 * and results. Nothing here depends on the engine.
 */
import type { EntityDef, VariableSpec } from '../types';
import type { Reform } from '../../parameters/types';

/** What the runner needs from a country model (a `CountryModel` satisfies it structurally). */
export interface TestModel {
  readonly country: { readonly entities: readonly EntityDef[] };
  readonly variables: ReadonlyMap<string, VariableSpec>;
}

/** One case as written in the YAML file, after schema validation. */
export interface RawCase {
  name?: string | number;
  period?: number | string;
  input?: Record<string, unknown> | null;
  output: Record<string, unknown>;
  absolute_error_margin?: number | null;
  relative_error_margin?: number | null;
  reforms?: unknown;
  keywords?: unknown;
  description?: string;
  extensions?: unknown;
  ignore_variables?: string[];
  only_variables?: string[];
}

/** A case read from a file: either valid (`raw`) or rejected with reasons (`errors`). */
export interface LoadedCase {
  file: string;
  /** 0-based position in the file. */
  index: number;
  /** The case's name, or `#<index+1>` when it has none. */
  name: string;
  keywords: string[];
  raw?: RawCase;
  errors: string[];
}

export type ScalarValue = number | boolean | string;

/** One input cell: variable value for one instance of its entity at one period. */
export interface NormalizedInput {
  entityKey: string;
  instanceIndex: number;
  variable: string;
  /** "2024", "2024-01" or "eternity". */
  period: string;
  /** Converted to the variable's type: numbers for float/int, booleans, enum names, strings. */
  value: ScalarValue;
}

/** One expected value: one instance, or every instance (`instanceIndex` null). */
export interface ExpectedOutput {
  variable: string;
  entityKey: string;
  instanceIndex: number | null;
  period: string;
  /** Converted like inputs (numbers for numeric and bool variables, names for enums). */
  expected: ScalarValue;
  /** Where the expectation was written, for messages: `output/income_tax`, `output/people/you/age/2024`. */
  path: string;
}

export interface Margins {
  /** Absolute margin; default 0.001 when neither margin is given. */
  absolute?: number;
  relative?: number;
}

export interface NormalizedCase {
  file: string;
  index: number;
  name: string;
  period: string;
  /** Person ids in declaration order. */
  persons: string[];
  /** Every group entity of the country, every person in exactly one instance. */
  groups: Record<string, { id: string; members: string[] }[]>;
  inputs: NormalizedInput[];
  /** Inline parameter overrides (input keys with a dot), or undefined. */
  reform?: Reform;
  /** Stable text of the reform (empty when none): cases share a simulation only with equal keys. */
  reformKey: string;
  outputs: ExpectedOutput[];
  margins: Margins;
  /** Problems that make the case fail; when `runnable` is false it is not run at all. */
  errors: string[];
  runnable: boolean;
}

export interface OutputFailure {
  variable: string;
  entity: string;
  /** Instance id, or `*` for a check of every instance that failed as a whole. */
  instance: string;
  period: string;
  expected: ScalarValue | null;
  actual: ScalarValue | null;
  reason: string;
}

export interface CaseResult {
  file: string;
  index: number;
  name: string;
  passed: boolean;
  /** Case-level problems (invalid case, unknown variable, engine error). */
  errors: string[];
  failures: OutputFailure[];
}
