import type { DatasetTables } from './types';
export async function readDataset(file: string): Promise<DatasetTables> { throw new Error(`readDataset(${file}): not implemented yet`); }
