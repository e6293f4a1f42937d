/**
 * Comparing a computed value with an expected one, with PolicyEngine's margins: absolute 0.001
 * unless a margin is given; when both are given both must hold. PolicyEngine keeps floats as
 * float32, so a float result also passes if its float32 rounding is within the margins.
 */
import type { ValueType } from '../types';
import type { Margins, ScalarValue } from './types';

function withinMargins(actual: number, expected: number, margins: Margins): boolean {
  const diff = Math.abs(expected - actual);
  if (Number.isNaN(diff)) return false;
  if (margins.absolute !== undefined && !(diff <= margins.absolute)) return false;
  if (margins.relative !== undefined && !(diff <= Math.abs(margins.relative * expected))) return false;
  return true;
}

function describeMargins(margins: Margins): string {
  const parts: string[] = [];
  if (margins.absolute !== undefined) parts.push(`absolute margin ${margins.absolute}`);
  if (margins.relative !== undefined) parts.push(`relative margin ${margins.relative}`);
  return parts.join(' and ');
}

/** Returns null when the value passes, else the reason it does not. */
export function compareValue(type: ValueType, actual: ScalarValue, expected: ScalarValue, margins: Margins): string | null {
  if (type === 'enum' || type === 'string') {
    return String(actual) === String(expected) ? null : `got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`;
  }
  const a = typeof actual === 'boolean' ? (actual ? 1 : 0) : Number(actual);
  const e = typeof expected === 'boolean' ? (expected ? 1 : 0) : Number(expected);
  if (withinMargins(a, e, margins)) return null;
  if (type === 'float' && withinMargins(Math.fround(a), e, margins)) return null;
  if (Number.isNaN(a)) return 'the result is not a number';
  return `differs by ${formatNumber(Math.abs(e - a))} (${describeMargins(margins)})`;
}

/** Shortest readable form: integers as they are, other numbers with up to 6 decimals. */
export function formatNumber(value: number): string {
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  return String(Number(value.toFixed(6)));
}
