/**
 * A model's variables as data: what `fiscus variables` prints and the microsimulation API's
 * `/variables` serves. One description per variable, in name order.
 */
import type { CountryModel } from './model';
import type { VariableSpec } from './types';
import { defaultValue } from './variables';

export interface VariableDescription {
  name: string;
  entity: string;
  period: string;
  type: string;
  unit: string | null;
  label: string | null;
  documentation: string | null;
  /** Names an enum takes, in code order (null for other types). */
  possible_values: string[] | null;
  default_value: number | boolean | string;
  /** True when nothing computes the variable: a value nobody gives is the default. */
  is_input: boolean;
  defined_for: string | null;
  /** Variables summed (or the parameter path listing them). */
  adds: string[] | string | null;
  subtracts: string[] | string | null;
  /** Relative path of the YAML file that defines it. */
  file: string;
}

export function describeVariable(spec: VariableSpec, folder = ''): VariableDescription {
  const file = folder && spec.file.startsWith(folder) ? spec.file.slice(folder.length).replace(/^[\\/]+/, '') : spec.file;
  return {
    name: spec.name,
    entity: spec.entity,
    period: spec.period,
    type: spec.type,
    unit: spec.unit ?? null,
    label: spec.label ?? null,
    documentation: spec.documentation ?? null,
    possible_values: spec.possible_values ?? null,
    default_value: defaultValue(spec),
    is_input: spec.formula === undefined && spec.adds === undefined && spec.subtracts === undefined,
    defined_for: spec.defined_for ?? null,
    adds: spec.adds ?? null,
    subtracts: spec.subtracts ?? null,
    file,
  };
}

export function describeVariables(model: CountryModel): VariableDescription[] {
  return [...model.variables.values()]
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .map((spec) => describeVariable(spec, model.country.folder));
}

/** Case-insensitive search over name, label and documentation. */
export function matchesSearch(v: VariableDescription, text: string): boolean {
  const q = text.toLowerCase();
  return [v.name, v.label ?? '', v.documentation ?? ''].some((s) => s.toLowerCase().includes(q));
}
