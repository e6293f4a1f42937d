/**
 * Simulations over datasets: household chunks on worker threads, behavioural responses, region
 * filters, the output HDF5, and the economic-impact report. The interface the microsimulation API
 * codes against (docs/simulation.md).
 */
export * from './types';
export { canPair, runSimulation, runSimulations } from './run';
export { economicImpact } from './impact';
export { regions } from './regions';
export { shutdownSimulationThreads, warmSimulationThreads } from './pool';
export { outputWritten } from './output';
export { adoptModel } from './models';
export { warmReport } from './warm-report';
