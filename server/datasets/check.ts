import type { CountryModel } from '../../core/model';
import type { DatasetCheck, DatasetTables } from './types';
export function checkDataset(tables: DatasetTables, model: CountryModel): DatasetCheck { throw new Error(`checkDataset(${tables.layout}, ${model.country.id}): not implemented yet`); }
