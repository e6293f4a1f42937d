import type { DatasetTables } from './types';
export async function writeDataset(file: string, tables: DatasetTables): Promise<void> { throw new Error(`writeDataset(${file}, ${tables.layout}): not implemented yet`); }
