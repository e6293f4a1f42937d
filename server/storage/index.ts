/** The stores over one database, opened and migrated together. */
import { CatalogueStore } from './catalogue';
import { DatasetStore } from './datasets';
import { describeStorage, openDatabase, type Database, type StorageConfig } from './db';
import { migrate } from './migrate';
import { ParameterSetStore } from './parameter-sets';
import { SimulationStore } from './simulations';

export interface Storage {
  db: Database;
  catalogue: CatalogueStore;
  policies: ParameterSetStore;
  dynamics: ParameterSetStore;
  datasets: DatasetStore;
  simulations: SimulationStore;
  describe(): string;
  close(): Promise<void>;
}

/** Opens the database and brings its schema up to date (migrations run at every start). */
export async function openStorage(config: StorageConfig, options: { migrate?: boolean } = {}): Promise<Storage> {
  const db = await openDatabase(config);
  try {
    if (options.migrate !== false) await migrate(db);
  } catch (error) {
    await db.close();
    throw error;
  }
  return {
    db,
    catalogue: new CatalogueStore(db),
    policies: new ParameterSetStore(db, 'policy'),
    dynamics: new ParameterSetStore(db, 'dynamic'),
    datasets: new DatasetStore(db),
    simulations: new SimulationStore(db),
    describe: () => describeStorage(config),
    close: () => db.close(),
  };
}
