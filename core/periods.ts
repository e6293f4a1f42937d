import { EngineError, PeriodUnit } from './types';

/**
 * Periods travel as strings: "2025" (year), "2025-01" (month), "eternity".
 * Parsing them into a small struct once keeps conversions cheap and explicit.
 */
export interface Period {
  unit: PeriodUnit;
  year: number;
  /** 1..12 for months; 0 otherwise. */
  month: number;
}

const YEAR_RE = /^\d{4}$/;
const MONTH_RE = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function parsePeriod(text: string | number): Period {
  const s = String(text);
  if (s === 'eternity' || s === 'ETERNITY') return { unit: 'eternity', year: 0, month: 0 };
  if (YEAR_RE.test(s)) return { unit: 'year', year: Number(s), month: 0 };
  const m = MONTH_RE.exec(s);
  if (m) return { unit: 'month', year: Number(m[1]), month: Number(m[2]) };
  throw new EngineError(`invalid period "${s}": expected YYYY, YYYY-MM or eternity`);
}

export function formatPeriod(p: Period): string {
  if (p.unit === 'eternity') return 'eternity';
  if (p.unit === 'year') return String(p.year);
  return `${p.year}-${String(p.month).padStart(2, '0')}`;
}

export function monthsOf(year: number): string[] {
  const out: string[] = [];
  for (let m = 1; m <= 12; m++) out.push(`${year}-${String(m).padStart(2, '0')}`);
  return out;
}

/** The same period one year earlier (a month keeps its month). */
export function lastYear(period: string): string {
  const p = parsePeriod(period);
  if (p.unit === 'eternity') return period;
  return formatPeriod({ ...p, year: p.year - 1 });
}

/**
 * The instant at which parameters are read for a period: a year reads at the country's
 * month-day (UK 30 April, inside the fiscal year), a month at its first day.
 */
export function instantOf(period: string, yearInstant: string): string {
  const p = parsePeriod(period);
  if (p.unit === 'month') return `${p.year}-${String(p.month).padStart(2, '0')}-01`;
  if (p.unit === 'year') return `${p.year}-${yearInstant}`;
  throw new EngineError('parameters cannot be read for the eternity period');
}

