import { expect } from 'chai';
import * as path from 'path';
import { ParameterError } from '../../parameters/types';

/** Fixture folders live in the source tree; tests run from dist/test/parameters. */
export const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/parameters');

export function fixture(...parts: string[]): string {
  return path.join(FIXTURES, ...parts);
}

export const UC_CLAIMANT_TYPES = ['SINGLE_YOUNG', 'SINGLE_OLD', 'COUPLE_YOUNG', 'COUPLE_OLD'];

export function breakdownValues(variable: string): string[] | undefined {
  if (variable === 'uc_claimant_type') return UC_CLAIMANT_TYPES;
  if (variable === 'filing_status') return ['SINGLE', 'JOINT'];
  return undefined;
}

/** Runs `fn`, expects a ParameterError whose message contains every fragment, and returns it. */
export function expectParameterError(fn: () => unknown, ...fragments: string[]): ParameterError {
  let caught: unknown;
  try {
    fn();
  } catch (err) {
    caught = err;
  }
  expect(caught, 'expected a ParameterError').to.be.instanceOf(ParameterError);
  const message = (caught as Error).message;
  for (const f of fragments) expect(message).to.contain(f);
  return caught as ParameterError;
}
