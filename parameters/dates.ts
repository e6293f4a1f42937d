/** Instants are "YYYY-MM-DD" strings: string order is date order, so no Date objects are needed. */

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** True for a real calendar date written "YYYY-MM-DD" (year 0000 is allowed: PolicyEngine uses it for "always"). */
export function isDate(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  const m = DATE_RE.exec(text);
  if (!m) return false;
  const month = Number(m[2]);
  const day = Number(m[3]);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(m[1]), month);
}

function pad(n: number, width: number): string {
  return String(n).padStart(width, '0');
}

/** The day after a date (a reform period "a.b" restores the base value from b + 1 day). */
export function nextDay(date: string): string {
  let year = Number(date.slice(0, 4));
  let month = Number(date.slice(5, 7));
  let day = Number(date.slice(8, 10)) + 1;
  if (day > daysInMonth(year, month)) {
    day = 1;
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/** The first instant of all time, used for reforms given as a bare value. */
export const BEGINNING = '0000-01-01';
