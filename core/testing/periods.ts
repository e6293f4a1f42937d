/**
 * Periods as written in test files: `2024` (YAML integer), "2024", "2024-01", "year:2024",
 * "month:2024-01", "ETERNITY". Normalized to what `Simulation` takes: "2024", "2024-01", "eternity".
 */

/** Returns the canonical period, or throws an Error saying what is wrong. */
export function parseTestPeriod(value: unknown): string {
  if (typeof value === 'number') {
    if (Number.isInteger(value) && value >= 1000 && value <= 9999) return String(value);
    throw new Error(`period ${value} is not a year`);
  }
  if (typeof value !== 'string') throw new Error(`a period must be a year or a month, got ${JSON.stringify(value)}`);
  const text = value.trim();
  if (/^eternity$/i.test(text)) return 'eternity';
  const unprefixed = text.replace(/^(year|month):/, '');
  const year = /^(\d{4})$/.exec(unprefixed);
  if (year && !text.startsWith('month:')) return year[1];
  const month = /^(\d{4})-(\d{2})$/.exec(unprefixed);
  if (month && !text.startsWith('year:')) {
    const m = Number(month[2]);
    if (m >= 1 && m <= 12) return `${month[1]}-${month[2]}`;
    throw new Error(`period '${text}' has no month ${month[2]}`);
  }
  if (/^\d{4}-\d{2}-\d{2}$/.test(text)) {
    throw new Error(`period '${text}' is a day: tests use a year ("2024") or a month ("2024-01")`);
  }
  throw new Error(`cannot read '${text}' as a period: use a year ("2024") or a month ("2024-01")`);
}

/** Sorting key: months before years before eternity, as PolicyEngine sets inputs (small periods first). */
export function periodSizeRank(period: string): number {
  if (period === 'eternity') return 2;
  return period.length === 4 ? 1 : 0;
}
