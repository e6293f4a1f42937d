/**
 * The engine's contract: country definitions, variable specs, populations and columns.
 * Countries are data (country.yaml + parameters/ + variables/); nothing here knows a country.
 */

export const PERIOD_UNITS = ['year', 'month', 'eternity'] as const;
export type PeriodUnit = (typeof PERIOD_UNITS)[number];
export type ValueType = 'float' | 'int' | 'bool' | 'enum' | 'string';

/** A column of one variable for every instance of its entity at one period. */
export type Column = Float64Array | Int32Array | Uint8Array;

export interface EntityDef {
  /** Singular key used by variables: `person`, `benunit`, `household`, `tax_unit`. */
  key: string;
  /** Plural key used by households/tests: `people`, `benunits`, `tax_units`. */
  plural: string;
  label?: string;
  /** Exactly one entity is the person entity. */
  isPerson: boolean;
  /** Group entities every instance of this one nests inside (a benefit unit is within a household). */
  within: string[];
}

export interface CountryDef {
  /** `uk`, `us`: also the folder name and the API path segment. */
  id: string;
  label: string;
  version: string;
  currency: string;
  /** Month-day ("MM-DD") of the instant at which a year's parameters are read (UK "04-30", US "01-01"). */
  yearInstant: string;
  entities: EntityDef[];
  /** Folder the country was loaded from. */
  folder: string;
  /**
   * Module folders (`country.yaml` `modules:`, e.g. one per US state): each may hold its own
   * `parameters/`, `variables/` and `tests/`, loaded as part of the country.
   */
  modules: string[];
  /**
   * What the rules do not cover for some households (`country.yaml` `coverage:`): where the bool
   * variable is false, results carry the message as a warning (e.g. a state whose income tax is not
   * modelled). `{name}` in the message is replaced by that variable's value for the same instance.
   */
  coverage: CoverageRule[];
  /**
   * The variables of the reference model the country follows (`country.yaml` `reference_variables`:
   * PolicyEngine's, with their entity and period), so that a payload naming one this model does not
   * have is answered with a warning rather than refused. Empty when not given.
   */
  reference: { model: string; variables: Map<string, { entity: string; period: PeriodUnit }> };
}

export interface CoverageRule {
  variable: string;
  message: string;
}

export interface VariableSpec {
  name: string;
  entity: string;
  period: PeriodUnit;
  type: ValueType;
  unit?: string;
  label?: string;
  documentation?: string;
  reference?: unknown;
  /** Default value for inputs and masked rows (enum: a name from possible_values). */
  default?: number | boolean | string;
  possible_values?: string[];
  /** Name of a bool variable (same or containing entity): rows where it is false get the default. */
  defined_for?: string;
  /** One expression, or date-keyed variants ("YYYY-MM-DD" -> expression), the latest start on or before the period applies. */
  formula?: string | Record<string, string>;
  /** Variables to sum (or a parameter path holding such a list). */
  adds?: string[] | string;
  subtracts?: string[] | string;
  /** Local aliases for parameter paths: `{pa: gov.hmrc.income_tax.allowances.personal_allowance}`. */
  params?: Record<string, string>;
  /** flow (default for float) or stock: drives period conversion. */
  quantity_type?: 'flow' | 'stock';
  /** File the spec was read from (for error messages). */
  file: string;
}

/**
 * Who belongs to which group. Persons are rows 0..count-1 of the person entity; every group entity
 * has a membership array mapping each person to the index of its group instance.
 */
export interface Population {
  /** Number of instances per entity key (including the person entity). */
  count: Record<string, number>;
  /** For each group entity key: Int32Array of length count[person], person -> group index. */
  membership: Record<string, Int32Array>;
  /** Optional instance ids per entity key (tests and the household API use names). */
  ids?: Record<string, string[]>;
  /** True when every group's members are consecutive rows and groups come in order (checked when absent). */
  ordered?: boolean;
}

/** A value that can be set as input: numbers, booleans, or enum names (strings). */
export type InputValues = ArrayLike<number> | ArrayLike<boolean> | ArrayLike<string>;

export class EngineError extends Error {
  constructor(message: string, public readonly file?: string, public readonly variable?: string) {
    super(message);
    this.name = 'EngineError';
  }
}
