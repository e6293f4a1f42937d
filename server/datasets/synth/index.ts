import type { DatasetTables } from '../types';
export async function synthesize(country: string, options: { households: number; year: number; seed: number }, onProgress?: (done: number, total: number) => void): Promise<DatasetTables> {
  void onProgress; throw new Error(`synthesize(${country}, ${options.households}): not implemented yet`);
}
