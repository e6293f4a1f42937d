/**
 * Writing Fiscus's layout: one group per entity, one 1-D dataset per column, the year and the
 * layout version as root attributes. Numbers are little-endian doubles (int32 for integer
 * columns), booleans uint8, text fixed-length ASCII, so h5py and pandas read it as they are.
 */
import * as fs from 'fs';
import * as path from 'path';
import { withFile, writeColumn } from './h5';
import type { DatasetTables } from './types';

export const FISCUS_LAYOUT_VERSION = 1;

export async function writeDataset(file: string, tables: DatasetTables): Promise<void> {
  fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
  // Written beside the target and renamed, so readers never see half a file.
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    await withFile(tmp, 'w', (f, ns) => {
      f.create_attribute('fiscus_layout', FISCUS_LAYOUT_VERSION);
      if (tables.year !== null) f.create_attribute('year', tables.year);
      for (const [key, table] of tables.tables) {
        const g = f.create_group(key);
        for (const [name, col] of table.columns) writeColumn(ns, g, name, col);
      }
    });
    fs.renameSync(tmp, file);
  } catch (error) {
    fs.rmSync(tmp, { force: true });
    throw error;
  }
}
