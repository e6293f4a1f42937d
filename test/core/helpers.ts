import * as path from 'path';
import { CountryModel } from '../../core/model';
import { buildPopulation, GroupInstance } from '../../core/population';
import { Simulation } from '../../core/simulation';
import { CountryDef, VariableSpec } from '../../core/types';
import { validateSpec } from '../../core/variables';
import { ParameterTree } from '../../parameters/tree';

export const FIXTURE = path.resolve(__dirname, '../../../test/fixtures/country');

let fixture: CountryModel | null = null;
export function fixtureModel(): CountryModel {
  fixture ??= CountryModel.load(FIXTURE);
  return fixture;
}

const COUNTRY: CountryDef = {
  id: 'mini',
  label: 'Mini',
  version: '0.0.1',
  currency: 'X',
  yearInstant: '01-01',
  reference: { model: '', variables: new Map() },
  modules: [],
  coverage: [],
  folder: '/nowhere',
  entities: [
    { key: 'person', plural: 'people', isPerson: true, within: [] },
    { key: 'family', plural: 'families', isPerson: false, within: ['household'] },
    { key: 'household', plural: 'households', isPerson: false, within: [] },
  ],
};

/** An in-memory model: variables as YAML-like objects, parameters as a nested object. */
export function miniModel(vars: Record<string, object>, params: object = {}): CountryModel {
  const specs = new Map<string, VariableSpec>();
  for (const [name, raw] of Object.entries(vars)) specs.set(name, validateSpec(name, raw, 'mini.yaml'));
  const enums = (n: string) => specs.get(n)?.possible_values;
  return new CountryModel(COUNTRY, specs, ParameterTree.fromObject(params, '', 'params', { breakdownValues: enums }));
}

/** A simulation of one family of `n` people in one household. */
export function sim(model: CountryModel, people: string[], groups: Record<string, GroupInstance[]> = {}): Simulation {
  return new Simulation(model, buildPopulation(model, people, groups));
}
