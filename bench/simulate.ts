/**
 * `npm run bench -- simulate [--people N] [--threads N]`: the economic-impact report of a 1p rise
 * in the basic rate on a synthetic UK population of about a million people, through
 * runSimulation + economicImpact (what the API's workers run), with the time split: load dataset,
 * baseline, reform, report. Three passes: cold (threads started and models loaded inside the
 * run), warm threads with a cold dataset (a server that warmed its threads at start), and all
 * warm. Target (issue 13): ≤ 3 s, peak RSS ≤ 2 GB on 2 cores.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { synthesize, writeDataset } from '../server/datasets';
import { economicImpact, outputWritten, runSimulation, shutdownSimulationThreads, SimulationSummary, warmSimulationThreads } from '../server/simulation';
import { clearPreparedDatasets } from '../server/simulation/prepare';
import { clearSharedBuffers, forgetOutcomes } from '../server/simulation/output';
import { cpuBetween, flag, peakRssMb, threadCpuSeconds } from './util';

const REFORM = { 'gov.hmrc.income_tax.rates.uk[0].rate': { '2025-01-01.2100-12-31': 0.21 } };

export async function run(args: string[]): Promise<void> {
  const people = Number(flag(args, '--people', '1000000'));
  const threads = Number(flag(args, '--threads', String(os.availableParallelism?.() ?? os.cpus().length)));
  const modelFolder = path.resolve(__dirname, '../../countries/uk');
  // About 2.29 people per synthetic household.
  const households = Math.round(people / 2.29);
  const dataset = path.join(os.tmpdir(), `fiscus-bench-uk-${households}-7.h5`);
  if (!fs.existsSync(dataset)) await writeDataset(dataset, await synthesize('uk', { households, year: 2025, seed: 7 }));
  const out = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-bench-simulate-'));
  const spec = { country: 'uk', modelFolder, datasetFile: dataset, year: 2025, threads };
  const pass = async (label: string) => {
    const cpu0 = threadCpuSeconds();
    const t0 = performance.now();
    const baseline = await runSimulation({ ...spec, outputFile: path.join(out, 'baseline.h5') }, () => undefined);
    const t1 = performance.now();
    const reform = await runSimulation({ ...spec, reform: REFORM, outputFile: path.join(out, 'reform.h5') }, () => undefined);
    const t2 = performance.now();
    const report = await economicImpact('uk', baseline, reform);
    const t3 = performance.now();
    const cpu = cpuBetween(cpu0, threadCpuSeconds());
    const b = baseline.summary as SimulationSummary;
    const r = reform.summary as SimulationSummary;
    const load = b.timings.model + b.timings.load_dataset;
    const s = (x: number) => `${x.toFixed(2)} s`;
    console.log(`${label}: total ${s((t3 - t0) / 1000)} = load model and dataset ${s(load)} + baseline ${s((t1 - t0) / 1000 - load)} + reform ${s((t2 - t1) / 1000)} + report ${s((t3 - t2) / 1000)}`);
    if (cpu.main + cpu.others > 0) console.log(`  CPU: main thread ${s(cpu.main)}, other threads ${s(cpu.others)}; on ${threads} idle cores at least ${s(Math.max(cpu.main, (cpu.main + cpu.others) / threads))}`);
    const tw = performance.now();
    await Promise.all([outputWritten(baseline.outputFile), outputWritten(reform.outputFile)]);
    console.log(`  baseline: compute ${s(b.timings.compute)} (threads' CPU ${s(b.timings.compute_cpu)}), summary ${s(b.timings.summary)}; reform: compute ${s(r.timings.compute)} (threads' CPU ${s(r.timings.compute_cpu)}), summary ${s(r.timings.summary)}; output files written ${s((performance.now() - tw) / 1000)} after the report`);
    return report;
  };
  try {
    console.log(`simulate: ${dataset} (${households.toLocaleString('en')} households), ${threads} threads, load average ${os.loadavg()[0].toFixed(1)}`);
    await shutdownSimulationThreads();
    const report = await pass('cold');
    const tax = report.program_statistics.find((p) => p.program_name === 'income_tax')!;
    console.log(`  income tax +${(tax.change / 1e9).toFixed(2)}bn; budgetary impact ${(report.budget_summary.budgetary_impact / 1e9).toFixed(2)}bn`);
    await shutdownSimulationThreads();
    clearPreparedDatasets();
    forgetOutcomes();
    clearSharedBuffers();
    global.gc?.();
    console.log(`  (RSS after the cold pass, its threads stopped: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB; peak so far ${peakRssMb().toFixed(0)} MB)`);
    const t = performance.now();
    await warmSimulationThreads([modelFolder], threads);
    console.log(`(threads warmed in ${((performance.now() - t) / 1000).toFixed(2)} s)`);
    await pass('warm threads, cold dataset');
    await pass('all warm');
    console.log(`process peak RSS ${peakRssMb().toFixed(0)} MB`);
  } finally {
    await shutdownSimulationThreads();
    fs.rmSync(out, { recursive: true, force: true });
  }
}
