/** Paths of the runner's fixture country and test files (sources, next to the compiled tests' origin). */
import * as path from 'path';
import { CountryModel } from '../../core/model';

export const FIXTURES = path.resolve(__dirname, '../../../test/testing/fixtures');
export const COUNTRY_DIR = path.join(FIXTURES, 'country');
export const TESTS_DIR = path.join(FIXTURES, 'tests');

let cached: CountryModel | undefined;
export function fixtureModel(): CountryModel {
  if (!cached) cached = CountryModel.load(COUNTRY_DIR);
  return cached;
}
