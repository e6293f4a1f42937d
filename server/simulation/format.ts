/** Plain-text tables of a simulation summary and an economic-impact report (the CLI's output). */
import type { EconomicImpactReport, SimulationSummary } from './types';

function table(head: string[], rows: (string | number)[][]): string[] {
  const cells = rows.map((r) => r.map(String));
  const width = head.map((h, i) => Math.max(h.length, ...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  return [line(head), width.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)];
}

const money = (x: number) => Math.round(x).toLocaleString('en');
const billions = (x: number) => `${(x / 1e9).toFixed(2)}bn`;
const millions = (x: number) => `${(x / 1e6).toFixed(2)}m`;
const pct = (x: number, digits = 1) => `${(100 * x).toFixed(digits)}%`;
const signed = (s: string, x: number) => (x > 0 ? `+${s}` : s);

export function formatSummary(s: SimulationSummary): string[] {
  const out = [
    `${s.country.toUpperCase()} ${s.year}${s.region ? ` (${s.region})` : ''}: ${Object.entries(s.counts).map(([k, v]) => `${v.toLocaleString('en')} ${k}`).join(', ')}`,
    `weighted: ${millions(s.weighted_households)} households, ${millions(s.weighted_people)} people`,
    `household net income ${billions(s.household_net_income)}, taxes ${billions(s.household_tax)}, benefits ${billions(s.household_benefits)}`,
    `inequality (${s.income_measure}): Gini ${s.inequality.gini.toFixed(3)}, top 10% share ${pct(s.inequality.top_10_share)}, top 1% share ${pct(s.inequality.top_1_share)}`,
    '',
    ...table(['programme', 'tax?', 'total', 'recipients'], s.programs.filter((p) => p.total !== 0).map((p) => [p.name, p.is_tax ? 'tax' : '', billions(p.total), millions(p.count)])),
  ];
  if (s.poverty.length) out.push('', ...table(['poverty', 'group', 'rate', 'people'], s.poverty.map((p) => [p.measure, p.group, pct(p.rate), millions(p.count)])));
  if (s.labour_supply_response) out.push('', `labour-supply response: employment income ${billions(s.labour_supply_response.employment_income_change)}, ${millions(s.labour_supply_response.people_responding)} people responding`);
  for (const u of s.unavailable) out.push(`not available: ${u.field} (${u.reason})`);
  out.push('', `time: ${Object.entries(s.timings).map(([k, v]) => `${k} ${v.toFixed(2)} s`).join(', ')}`);
  return out;
}

export function formatReport(r: EconomicImpactReport): string[] {
  const b = r.budget_summary;
  const out = [
    `Economic impact, ${r.country.toUpperCase()} ${r.year}${r.region ? ` (${r.region})` : ''}`,
    '',
    `budget: taxes ${signed(billions(b.tax_change), b.tax_change)}, benefits ${signed(billions(b.benefit_change), b.benefit_change)}, net budgetary impact ${signed(billions(b.budgetary_impact), b.budgetary_impact)} (household net income ${signed(billions(b.net_income_change), b.net_income_change)})`,
    '',
    `deciles of ${r.income_measure} (weighted); mean household net income:`,
    ...table(['decile', 'baseline', 'reform', 'change', '%', 'better off', 'worse off'], r.decile_impacts.map((d) => [d.decile, money(d.baseline_mean), money(d.reform_mean), signed(money(d.absolute_change), d.absolute_change), pct(d.relative_change, 2), millions(d.count_better_off), millions(d.count_worse_off)])),
    '',
    ...table(['programme', 'tax?', 'baseline', 'reform', 'change', 'winners', 'losers'], r.program_statistics.filter((p) => p.baseline_total !== 0 || p.reform_total !== 0).map((p) => [p.program_name, p.is_tax ? 'tax' : '', billions(p.baseline_total), billions(p.reform_total), signed(billions(p.change), p.change), millions(p.winners), millions(p.losers)])),
    '',
    ...table(['inequality', 'baseline', 'reform', 'change'], (['gini', 'top_10_share', 'top_1_share'] as const).map((k) => [k, r.inequality.baseline[k].toFixed(4), r.inequality.reform[k].toFixed(4), signed(r.inequality.change[k].toFixed(4), r.inequality.change[k])])),
  ];
  if (r.poverty.length) out.push('', ...table(['poverty', 'group', 'baseline', 'reform', 'change (pp)'], r.poverty.map((p) => [p.measure, p.group, pct(p.baseline_rate, 2), pct(p.reform_rate, 2), signed((100 * p.change).toFixed(2), p.change)])));
  out.push('', ...table(['decile', 'gain >5%', 'gain <5%', 'no change', 'lose <5%', 'lose >5%'], r.intra_decile.map((d) => [d.decile === 0 ? 'all' : d.decile, pct(d.gain_more_than_5pct), pct(d.gain_less_than_5pct), pct(d.no_change), pct(d.lose_less_than_5pct), pct(d.lose_more_than_5pct)])));
  for (const u of r.unavailable) out.push(`not available: ${u.field} (${u.reason})`);
  return out;
}
