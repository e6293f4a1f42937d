/**
 * `npm run bench -- synth [--households N]`: generate a synthetic UK population in our layout
 * (as `fiscus dataset synth uk`), write it, and read it back; prints each time and the CPU time.
 * Target (issue 12): 1,000,000 households in under 20 s, read back in under 1 s.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { readDataset, synthesize, writeDataset } from '../server/datasets';
import { flag, peakRssMb } from './util';

export async function run(args: string[]): Promise<void> {
  const households = Number(flag(args, '--households', '1000000'));
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-bench-synth-'));
  const file = path.join(dir, 'uk.h5');
  try {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    const tables = await synthesize('uk', { households, year: 2025, seed: 1 });
    const t1 = performance.now();
    await writeDataset(file, tables);
    const t2 = performance.now();
    const cpu = process.cpuUsage(cpu0);
    const people = tables.tables.get('person')!.rows;
    console.log(`synth uk: ${households.toLocaleString('en')} households, ${people.toLocaleString('en')} people, ${(fs.statSync(file).size / 1e6).toFixed(0)} MB`);
    console.log(`generate ${((t1 - t0) / 1000).toFixed(2)} s + write ${((t2 - t1) / 1000).toFixed(2)} s = ${((t2 - t0) / 1000).toFixed(2)} s (CPU ${((cpu.user + cpu.system) / 1e6).toFixed(2)} s)`);
    const reads: string[] = [];
    for (let i = 0; i < 3; i++) {
      global.gc?.();
      const c = process.cpuUsage();
      const t = performance.now();
      await readDataset(file);
      const used = process.cpuUsage(c);
      reads.push(`${((performance.now() - t) / 1000).toFixed(2)} s (CPU ${((used.user + used.system) / 1e6).toFixed(2)} s)`);
    }
    console.log(`read back: ${reads.join(', ')} (the first includes loading h5wasm)`);
    console.log(`process peak RSS ${peakRssMb().toFixed(0)} MB; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
