/**
 * ajv validators that report problems as `{path, message}` with slash paths relative to a root
 * (so `/household/people/you/age/2025` is reported as `people/you/age/2025`).
 */
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import type { ProblemDetail } from './errors';

const ajv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true });

export interface Validator {
  (value: unknown): ProblemDetail[];
}

/** `stripPrefix`: a leading instance path dropped from reported paths (e.g. `/household`). */
/** Human descriptions of the key patterns our schemas use, for messages. */
const PATTERN_NAMES: Record<string, string> = {
  '^[0-9]{4}(-(0[1-9]|1[0-2]))?$': 'a period: a year like 2025 or a month like 2025-01',
  '^[0-9]{4}-[0-9]{2}-[0-9]{2}(\\.[0-9]{4}-[0-9]{2}-[0-9]{2})?$': 'a date range "YYYY-MM-DD.YYYY-MM-DD" or a start date "YYYY-MM-DD"',
};

export function makeValidator(schema: object, stripPrefix = ''): Validator {
  return wrap(ajv.compile(schema), stripPrefix);
}

// Query strings are text: numbers and booleans are converted, defaults filled in, and problems
// reported under `query/<name>`.
const queryAjv = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true, coerceTypes: true, useDefaults: true });

/** Validates (and converts in place) a parsed query string object. */
export function makeQueryValidator(schema: object): Validator {
  const check = wrap(queryAjv.compile(schema), '');
  return (value: unknown) => check(value).map((p) => ({ path: p.path === '(body)' ? 'query' : `query/${p.path}`, message: p.message }));
}

function wrap(validate: ValidateFunction, stripPrefix: string): Validator {
  return (value: unknown): ProblemDetail[] => {
    if (validate(value)) return [];
    // propertyNames failures are reported twice by ajv (the key's own pattern error and a summary): keep the first.
    const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'propertyNames');
    return dedupe(errors.map((e) => describe(e, stripPrefix)));
  };
}

function describe(error: ErrorObject, stripPrefix: string): ProblemDetail {
  let pointer = error.instancePath;
  if (stripPrefix && pointer.startsWith(stripPrefix)) pointer = pointer.slice(stripPrefix.length);
  const parts = pointer.split('/').filter((p) => p !== '').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  let message = error.message ?? 'is invalid';
  if (error.keyword === 'required') {
    parts.push(String(params.missingProperty));
    message = 'is required';
  } else if (error.keyword === 'additionalProperties') {
    parts.push(String(params.additionalProperty));
    message = 'is not allowed here';
  } else if (error.keyword === 'pattern' && error.propertyName !== undefined) {
    const pattern = String(params.pattern);
    return { path: joinPath([...parts, error.propertyName]), message: `is not ${PATTERN_NAMES[pattern] ?? `a key matching ${pattern}`}` };
  } else if (error.keyword === 'type') {
    message = `must be ${String(params.type).replace(/,/g, ' or ')}`;
  }
  return { path: joinPath(parts), message };
}

function joinPath(parts: string[]): string {
  return parts.length === 0 ? '(body)' : parts.join('/');
}

function dedupe(problems: ProblemDetail[]): ProblemDetail[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
