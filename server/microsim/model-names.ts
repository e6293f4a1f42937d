/**
 * Model names. Ours are `fiscus-<country>`; clients written for other deployments send
 * `fiscus_uk`, `uk`, `service_uk` or `policyengine_uk` (PolicyEngine's API v2 names), and all of
 * them mean the same country model here.
 */

const PREFIXES = ['fiscus', 'service', 'policyengine'];

export function modelName(country: string): string {
  return `fiscus-${country}`;
}

/** The country id a model name refers to, or undefined when the name has no recognisable form. */
export function countryOfModelName(name: string): string | undefined {
  const text = name.trim().toLowerCase();
  const m = /^([a-z]+)[-_]([a-z][a-z0-9_]{0,31})$/.exec(text);
  if (m && PREFIXES.includes(m[1])) return m[2];
  return /^[a-z][a-z0-9_]{0,31}$/.test(text) && !PREFIXES.includes(text) ? text : undefined;
}
