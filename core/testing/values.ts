/**
 * Test values read according to the variable's type: arithmetic strings for numbers, enum names,
 * booleans, plain strings. Mirrors what PolicyEngine's builder accepts (numexpr for numeric strings,
 * enum names checked against possible values, integers truncated like a numpy int cast).
 */
import type { VariableSpec } from '../types';
import { evaluateArithmetic } from './arithmetic';
import type { ScalarValue } from './types';

function numberFrom(spec: VariableSpec, value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (typeof value === 'string') {
    try {
      return evaluateArithmetic(value);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      throw new Error(`cannot read '${value}' as a number for ${spec.name} (${spec.type}): ${why}`);
    }
  }
  throw new Error(`${spec.name} (${spec.type}) expects a number, got ${describe(value)}`);
}

function enumName(spec: VariableSpec, value: unknown): string {
  const names = spec.possible_values ?? [];
  if (typeof value === 'string') {
    if (names.includes(value)) return value;
    throw new Error(`'${value}' is not a possible value of ${spec.name} (possible values: ${names.join(', ')})`);
  }
  // numpy stores enums as their index, so an integer input picks the value at that position.
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length) return names[value];
  throw new Error(`${spec.name} expects one of ${names.join(', ')}, got ${describe(value)}`);
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return JSON.stringify(value);
}

/** An input value for one instance, converted to the variable's type. Throws an Error naming the variable. */
export function toInputValue(spec: VariableSpec, value: unknown): ScalarValue {
  switch (spec.type) {
    case 'float':
      return numberFrom(spec, value);
    case 'int':
      return Math.trunc(numberFrom(spec, value));
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (typeof value === 'number') return value !== 0;
      throw new Error(`${spec.name} (bool) expects true or false, got ${describe(value)}`);
    case 'enum':
      return enumName(spec, value);
    case 'string':
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      throw new Error(`${spec.name} (string) expects text, got ${describe(value)}`);
  }
}

/**
 * An expected output value. Numeric and bool variables compare as numbers (booleans as 1/0, as
 * PolicyEngine casts both sides to float); enums compare names; strings compare text.
 */
export function toExpectedValue(spec: VariableSpec, value: unknown): ScalarValue {
  switch (spec.type) {
    case 'float':
    case 'int':
    case 'bool':
      return numberFrom(spec, value);
    case 'enum':
      if (typeof value !== 'string') throw new Error(`${spec.name} is an enum: expected a name (${(spec.possible_values ?? []).join(', ')}), got ${describe(value)}`);
      return enumName(spec, value);
    case 'string':
      if (typeof value === 'string' || typeof value === 'number') return String(value);
      throw new Error(`${spec.name} (string) expects text, got ${describe(value)}`);
  }
}

export { defaultValue } from '../variables';
