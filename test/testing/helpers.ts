/** An in-memory country for the pure runner tests: UK-like entities and a few variables of each type. */
import type { VariableSpec } from '../../core/types';
import type { TestModel } from '../../core/testing/types';
import type { LoadedCase, RawCase } from '../../core/testing/types';
import { casesFromDocument } from '../../core/testing/load';

function spec(name: string, entity: string, type: VariableSpec['type'], extra: Partial<VariableSpec> = {}): [string, VariableSpec] {
  return [name, { name, entity, type, period: 'year', file: 'memory.yaml', ...extra }];
}

export const model: TestModel = {
  country: {
    entities: [
      { key: 'person', plural: 'people', isPerson: true, within: [] },
      { key: 'benunit', plural: 'benunits', isPerson: false, within: ['household'] },
      { key: 'household', plural: 'households', isPerson: false, within: [] },
    ],
  },
  variables: new Map<string, VariableSpec>([
    spec('age', 'person', 'int'),
    spec('employment_income', 'person', 'float'),
    spec('income_tax', 'person', 'float'),
    spec('is_adult', 'person', 'bool'),
    spec('postcode', 'person', 'string'),
    spec('monthly_pay', 'person', 'float', { period: 'month' }),
    spec('benunit_income', 'benunit', 'float'),
    spec('region', 'household', 'enum', { possible_values: ['LONDON', 'SCOTLAND', 'WALES'], default: 'LONDON' }),
    spec('tax_band', 'person', 'enum', { possible_values: ['NONE', 'BASIC', 'HIGHER'] }),
    spec('household_net_income', 'household', 'float'),
  ]),
};

/** Validates one case given as a JS object and returns it as loaded (throws if the schema rejects it). */
export function loaded(raw: Record<string, unknown>, file = 'memory.yaml'): LoadedCase & { raw: RawCase } {
  const [one] = casesFromDocument(file, [raw]);
  if (!one.raw) throw new Error(`schema rejected the case: ${one.errors.join('; ')}`);
  return one as LoadedCase & { raw: RawCase };
}
