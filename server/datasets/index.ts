/**
 * Datasets: HDF5 microdata in Fiscus's layout and PolicyEngine's two, checked against a country
 * model, written in our layout, and synthesised. The interface the microsimulation API codes
 * against (docs/datasets.md).
 */
export * from './types';
export { readDataset } from './read';
export { writeDataset } from './write';
export { checkDataset } from './check';
export { synthesize } from './synth';
