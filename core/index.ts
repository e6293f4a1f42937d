export * from './types';
export { CountryModel, CompiledModel } from './model';
export { Simulation } from './simulation';
export { buildPopulation, populationFromArrays } from './population';
export { parsePeriod, formatPeriod } from './periods';
export { chunkRanges } from './chunked';
export { buildPlan, runPlan } from './plan';
