import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { synthCountries, synthesize } from '../datasets/synth';
import { writeDataset } from '../datasets/write';
import { economicImpact } from './impact';
import { forgetOutcome, outputWritten } from './output';
import { forgetPreparedDataset } from './prepare';
import { runSimulations } from './run';

/**
 * Warming the main thread's part of a report: a small synthetic dataset read and prepared, a
 * baseline and reform pair run, summarised and reported, three times, then forgotten. The code
 * that reads datasets, sums the summaries and builds the report then runs optimised in the first
 * real report instead of being interpreted through its first million rows (about 0.1-0.2 s of a
 * cold UK report on this machine).
 */
export async function warmReport(modelFolder: string, country: string, year: number, threads?: number): Promise<void> {
  if (!synthCountries().includes(country)) return;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-warm-'));
  try {
    const datasetFile = path.join(dir, 'warm.h5');
    await writeDataset(datasetFile, await synthesize(country, { households: 2000, year, seed: 2 }));
    for (let pass = 0; pass < 3; pass++) {
      const spec = (name: string) => ({ country, modelFolder, datasetFile, year, outputFile: path.join(dir, `${name}${pass}.h5`), threads });
      const outcomes = await runSimulations([spec('baseline'), spec('reform')], () => undefined);
      await economicImpact(country, outcomes[0], outcomes[1]);
      for (const o of outcomes) {
        await outputWritten(o.outputFile).catch(() => undefined);
        forgetOutcome(o.outputFile);
      }
    }
    forgetPreparedDataset(datasetFile);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
