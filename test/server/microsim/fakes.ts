/**
 * Test doubles of the data modules (server/datasets, server/simulation), so the API and its queue
 * are tested over HTTP on their own. A "dataset file" here is JSON: {year, households, errors?}.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { DataModules, DatasetProblem, DatasetTables, SimulationSpec } from '../../../server/microsim/data-modules';

class FakeReadError extends Error {
  constructor(message: string, public problems: DatasetProblem[]) {
    super(message);
  }
}

interface FakeTables extends DatasetTables { households: number; errors: DatasetProblem[] }

export interface FakeRuns { specs: SimulationSpec[]; delayMs: number }

export function fakeModules(runs: FakeRuns): DataModules {
  return {
    datasets: {
      DatasetReadError: FakeReadError as never,
      async readDataset(file: string) {
        let data: { year?: number; households?: number; errors?: DatasetProblem[] };
        try {
          data = JSON.parse(fs.readFileSync(file, 'utf8'));
        } catch {
          throw new FakeReadError('not an HDF5 file', [{ table: '(file)', message: 'not an HDF5 file' }]);
        }
        return { layout: 'fiscus', year: data.year ?? null, households: data.households ?? 1, errors: data.errors ?? [] } as FakeTables;
      },
      checkDataset(tables: DatasetTables) {
        const t = tables as FakeTables;
        return { errors: t.errors, warnings: [{ table: 'person', column: 'shoe_size', message: 'unknown column' }], counts: { household: t.households }, weighted_households: t.households * 10 };
      },
      async writeDataset(file: string, tables: DatasetTables) {
        fs.writeFileSync(file, JSON.stringify({ year: tables.year, households: (tables as FakeTables).households }));
      },
      async synthesize(_country, options) {
        return { layout: 'fiscus', year: options.year, households: options.households, errors: [] } as FakeTables;
      },
    },
    simulation: {
      async runSimulation(spec, onProgress) {
        runs.specs.push(spec);
        if (spec.reform && JSON.stringify(spec.reform).includes('999')) throw new Error('the reform broke the model');
        for (let i = 1; i <= 4; i++) {
          await new Promise((r) => setTimeout(r, runs.delayMs / 4));
          onProgress(i / 4);
        }
        fs.mkdirSync(path.dirname(spec.outputFile), { recursive: true });
        fs.writeFileSync(spec.outputFile, 'output');
        const rate = Number(Object.values(spec.reform?.['gov.tax.rates[1].rate'] ?? { x: 0.2 })[0]);
        return { summary: { tax: rate * 1000 }, outputFile: spec.outputFile };
      },
      async economicImpact(_country, baseline, reform) {
        const b = (baseline.summary as { tax: number }).tax;
        const r = (reform.summary as { tax: number }).tax;
        return { budget_summary: { tax_change: r - b }, decile_impacts: [], program_statistics: [{ program_name: 'income_tax', baseline_total: b, reform_total: r }] };
      },
      regions: (country) => (country === 'tinyland' ? [{ name: 'NORTH', label: 'North', type: 'region' }] : []),
      shutdownSimulationThreads: async () => undefined,
    },
  };
}
