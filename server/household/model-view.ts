/**
 * What the household layer needs from a compiled country model. `core/model.ts`'s CountryModel
 * satisfies it structurally; keeping the view narrow keeps the payload checks independent of
 * engine internals.
 */
import type { CountryDef, EntityDef, VariableSpec } from '../../core/types';

export interface ModelView {
  readonly country: CountryDef;
  readonly variables: Map<string, VariableSpec>;
  personEntity(): EntityDef;
  entityByPlural(plural: string): EntityDef | undefined;
}

export type InputScalar = number | boolean | string;

/** The value an instance gets when the payload supplies the variable for other instances only. */
export function defaultValue(spec: VariableSpec): InputScalar {
  if (spec.default !== undefined) return spec.default;
  switch (spec.type) {
    case 'bool':
      return false;
    case 'enum':
      return spec.possible_values?.[0] ?? '';
    case 'string':
      return '';
    default:
      return 0;
  }
}
