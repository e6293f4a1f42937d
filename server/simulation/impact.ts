import type { EconomicImpactReport, SimulationOutcome } from './types';
export async function economicImpact(country: string, baseline: SimulationOutcome, reform: SimulationOutcome): Promise<EconomicImpactReport> {
  void baseline; void reform; throw new Error(`economicImpact(${country}): not implemented yet`);
}
