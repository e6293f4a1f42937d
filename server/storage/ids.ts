/**
 * Ids. Catalogue rows and simulations get UUID v5 ids (SHA-1 of a namespace and a key), so the
 * same model version, parameter or simulation has the same id in every deployment and every
 * run; what clients create (policies, dynamics, datasets) gets random v4 ids.
 *
 * Namespaces (fixed forever; documented in docs/api/microsim.md):
 *   catalogue   9d3c4c1e-5f0b-4e0e-9a57-2f1c6f1d7a10  keys "model:<name>", "version:<model>:<version>:<hash>",
 *               "parameter:<version id>:<path>", "value:<parameter id>:<start>", "variable:<version id>:<name>"
 *   simulation  5b1f5e2a-8c47-4f7e-b7b4-3c0f0f4f6a21  key "<dataset>|<version>|<policy or ->|<dynamic or ->|<region or ->|<year>"
 *   report      e0a8d9b6-2d3c-4b59-8f11-7d6a1c9e4b32  key "economic-impact|<baseline simulation>|<reform simulation>"
 */
import { createHash, randomUUID } from 'node:crypto';

export const CATALOGUE_NAMESPACE = '9d3c4c1e-5f0b-4e0e-9a57-2f1c6f1d7a10';
export const SIMULATION_NAMESPACE = '5b1f5e2a-8c47-4f7e-b7b4-3c0f0f4f6a21';
export const REPORT_NAMESPACE = 'e0a8d9b6-2d3c-4b59-8f11-7d6a1c9e4b32';

export function catalogueId(key: string): string {
  return v5(key, CATALOGUE_NAMESPACE);
}

export interface SimulationKey {
  dataset_id: string;
  tax_benefit_model_version_id: string;
  policy_id: string | null;
  dynamic_id: string | null;
  region: string | null;
  year: number;
}

export function simulationKey(k: SimulationKey): string {
  return [k.dataset_id, k.tax_benefit_model_version_id, k.policy_id ?? '-', k.dynamic_id ?? '-', k.region ?? '-', String(k.year)].join('|');
}

export function simulationId(k: SimulationKey): string {
  return v5(simulationKey(k), SIMULATION_NAMESPACE);
}

export function reportId(baselineSimulationId: string, reformSimulationId: string): string {
  return v5(`economic-impact|${baselineSimulationId}|${reformSimulationId}`, REPORT_NAMESPACE);
}

/** RFC 4122 §4.3 name-based UUID (SHA-1): the `uuid` package is ESM-only, and this is ten lines. */
export function v5(name: string, namespace: string): string {
  const bytes = createHash('sha1').update(Buffer.from(namespace.replace(/-/g, ''), 'hex')).update(name, 'utf8').digest().subarray(0, 16);
  bytes[6] = (bytes[6] & 0x0f) | 0x50;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export function newId(): string {
  return randomUUID();
}

export function now(): string {
  return new Date().toISOString();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(text: string): boolean {
  return UUID.test(text);
}
