import type { SimulationOutcome, SimulationSpec } from './types';
export async function runSimulation(spec: SimulationSpec, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<SimulationOutcome> {
  void onProgress; void signal; throw new Error(`runSimulation(${spec.country}): not implemented yet`);
}
