export * from './types';
export { ParameterTree, LoadOptions, LeafEntry } from './tree';
export { BreakdownValues } from './breakdown';
export { parsePath, Step } from './paths';
export { valueAt, updateSeries, uprateSeries } from './series';
export { reformSchema } from './reform';
export { KNOWN_METADATA_KEYS, leafFileSchema, scaleFileSchema, nodeFileSchema, indexFileSchema, metadataSchema } from './schema';
export { parseParameterYaml } from './yaml';
