/** Text and JSON reports of test results for `fiscus test`. */
import { formatNumber } from '../../core/testing/compare';
import type { CaseResult, OutputFailure, ScalarValue } from '../../core/testing/types';

function show(value: ScalarValue | null): string {
  if (value === null) return 'nothing';
  if (typeof value === 'number') return formatNumber(value);
  return typeof value === 'string' ? value : String(value);
}

function describeFailure(f: OutputFailure): string {
  const where = f.instance === '*' ? f.entity : `${f.entity} ${f.instance}`;
  const values = f.actual === null ? `expected ${show(f.expected)}` : `expected ${show(f.expected)}, got ${show(f.actual)}`;
  return `${f.variable} (${where}, ${f.period}): ${values}: ${f.reason}`;
}

/** Lines describing one failed case: file and case name, then each problem indented. */
export function describeCase(result: CaseResult): string[] {
  const lines = [`FAIL ${result.file} :: ${result.name}`];
  for (const error of result.errors) lines.push(`  ${error}`);
  for (const failure of result.failures) lines.push(`  ${describeFailure(failure)}`);
  return lines;
}

export function summaryLine(results: CaseResult[]): string {
  const passed = results.filter((r) => r.passed).length;
  return `${passed} passed, ${results.length - passed} failed`;
}

/** The `--json` document: counts, then every case with its problems. */
export function jsonReport(results: CaseResult[]): unknown {
  const passed = results.filter((r) => r.passed).length;
  return { passed, failed: results.length - passed, results };
}
