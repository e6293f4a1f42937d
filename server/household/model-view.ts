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
export { defaultValue } from '../../core/variables';
