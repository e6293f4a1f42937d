export * from './types';
export { CountryModel, CompiledModel } from './model';
export { Simulation } from './simulation';
export { buildPopulation, populationFromArrays } from './population';
export { parsePeriod, formatPeriod } from './periods';
export { computeInChunks, chunkRanges } from './chunked';
