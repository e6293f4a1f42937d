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
  if (/^[a-z]{2,3}$/.test(text)) return text;
  const m = /^([a-z]+)[-_]([a-z]{2,3})$/.exec(text);
  if (m && PREFIXES.includes(m[1])) return m[2];
  return undefined;
}
