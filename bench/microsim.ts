/**
 * `npm run bench -- microsim [--country uk|us] [--people N] [--passes N]`: the microsimulation API
 * end to end, as a client meets it. A server (this process: the API with its in-process queue and
 * simulation threads, warmed at start as `fiscus serve` does) gets a synthetic dataset of about a
 * million people registered, a policy (UK: basic rate +1p; US: the 10% bracket to 11%), and a POST
 * /analysis/economic-impact, polled every 20 ms until completed (this process is the client too). Printed per pass: the wall time
 * from POST to completed, split into load dataset, baseline, reform and report (from the
 * simulations' own timings and the rows' completion times), the CPU seconds of the main thread and
 * of the other threads, then the same POST again (cached: best of five). Each pass is a server
 * process of its own, started and warmed as `fiscus serve` starts (all countries in the catalogue;
 * the threads warmed for the country measured), so caches are cold and the peak RSS is that of a
 * server that has run one report; each pass asks for a policy no earlier pass compiled (the rate
 * moves by a further 0.1p). Targets (issue 13), on 2 cores: UK ≤ 3 s cold, ≤ 50 ms cached, peak RSS ≤ 2 GB;
 * US ≤ 10 s.
 */
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { startServer, type RunningServer } from '../server/start';
import type { SimulationSummary } from '../server/simulation';
import { cpuBetween, flag, peakRssMb, threadCpuSeconds } from './util';

const POLICIES: Record<string, { parameter: string; value: number; peoplePerHousehold: number }> = {
  uk: { parameter: 'gov.hmrc.income_tax.rates.uk[0].rate', value: 0.21, peoplePerHousehold: 2.29 },
  us: { parameter: 'gov.irs.income.bracket.rates.1', value: 0.11, peoplePerHousehold: 2.26 },
};

const root = path.resolve(__dirname, '../..');
/** How often the client polls; answering polls is part of the server's CPU time (a few ms each). */
const POLL_MS = 20;
const s = (x: number) => `${x.toFixed(2)} s`;

async function json(url: string, body?: unknown): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const r = await fetch(url, body === undefined ? undefined : { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const answer = await r.json();
  if (r.status >= 400) throw new Error(`${url}: ${r.status} ${JSON.stringify(answer)}`);
  return answer;
}

/** The dataset, made once (by the CLI, in its own process, so its memory is not this one's) and kept in the temporary folder. */
function dataset(country: string, households: number): string {
  const file = path.join(os.tmpdir(), `fiscus-bench-${country}-${households}-7.h5`);
  if (!fs.existsSync(file)) {
    console.log(`writing ${file}...`);
    execFileSync(process.execPath, [path.join(root, 'dist/server/cli/main.js'), 'dataset', 'synth', country, '--households', String(households), '--year', '2025', '--seed', '7', file], { stdio: 'inherit' });
  }
  return file;
}

export async function run(args: string[]): Promise<void> {
  const child = flag(args, '--pass', '');
  if (child) return onePass(args, Number(child));
  const country = flag(args, '--country', 'uk');
  const policy = POLICIES[country];
  if (!policy) throw new Error(`--country must be one of ${Object.keys(POLICIES).join(', ')}`);
  const people = Number(flag(args, '--people', '1000000'));
  const passes = Number(flag(args, '--passes', '3'));
  const households = Math.round(people / policy.peoplePerHousehold);
  dataset(country, households);
  console.log(`microsim: ${country}, ${households.toLocaleString('en')} households, ${passes} passes (a server process each), ${os.availableParallelism?.() ?? os.cpus().length} cores, load average ${loadAverage()}`);
  const results: PassResult[] = [];
  for (let pass = 1; pass <= passes; pass++) {
    const out = spawnSync(process.execPath, ['--expose-gc', path.join(root, 'dist/bench/main.js'), 'microsim', ...args, '--pass', String(pass)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (out.status !== 0) throw new Error(`pass ${pass} failed (exit ${out.status}):\n${out.stdout}`);
    const lines = out.stdout.trim().split('\n');
    results.push(JSON.parse(lines.pop()!) as PassResult);
    for (const line of lines) console.log(line);
  }
  const best = (k: 'wall' | 'cpu' | 'cached' | 'rss') => Math.min(...results.map((x) => x[k]));
  console.log(`best of ${passes}: POST to completed ${s(best('wall'))} wall, ${s(best('cpu'))} CPU (all threads); cached POST ${best('cached').toFixed(1)} ms; peak RSS ${best('rss').toFixed(0)} to ${Math.max(...results.map((x) => x.rss)).toFixed(0)} MB; load average ${loadAverage()}`);
}

interface PassResult { wall: number; cpu: number; cached: number; rss: number }

function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(1)).join(' ');
}

/** One pass, in a process of its own: prints its lines, then its result as JSON on the last line. */
async function onePass(args: string[], pass: number): Promise<void> {
  const country = flag(args, '--country', 'uk');
  const policy = POLICIES[country];
  const households = Math.round(Number(flag(args, '--people', '1000000')) / policy.peoplePerHousehold);
  const file = dataset(country, households);
  const storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-bench-microsim-'));
  fs.symlinkSync(file, path.join(storageDir, 'population.h5'));
  const tStart = performance.now();
  const server: RunningServer = await startServer({ port: 0, countriesRoot: path.join(root, 'countries'), env: {}, dataDir: storageDir, warm: true, log: () => undefined, microsim: { storageDir, defaultDatasets: false, warm: [country] } });
  try {
    const url = server.url;
    await server.services!.background;
    await server.services!.warm();
    const tWarm = performance.now();
    const ds = await json(`${url}/datasets`, { name: 'bench', filepath: 'population.h5', tax_benefit_model_name: country });
    const value = Math.round((policy.value + (pass - 1) * 0.001) * 1e6) / 1e6;
    const pol = await json(`${url}/policies`, { name: 'bench', tax_benefit_model_name: country, parameter_values: [{ parameter_name: policy.parameter, value_json: value, start_date: '2025-01-01' }] });
    const tReady = performance.now();
    const body = { tax_benefit_model_name: country, dataset_id: ds.id, policy_id: pol.id };
    const cpu0 = threadCpuSeconds();
    const t0 = performance.now();
    const first = await json(`${url}/analysis/economic-impact`, body);
    let report = first;
    while (report.status !== 'completed' && report.status !== 'failed') {
      await new Promise((r) => setTimeout(r, POLL_MS));
      report = await json(`${url}/analysis/economic-impact/${first.report_id}`);
    }
    const wall = (performance.now() - t0) / 1000;
    const cpu = cpuBetween(cpu0, threadCpuSeconds());
    if (report.status === 'failed') throw new Error(`the report failed: ${report.error_message}`);
    let cached = Infinity;
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const again = await json(`${url}/analysis/economic-impact`, body);
      cached = Math.min(cached, performance.now() - t);
      if (again.report_id !== first.report_id || again.status !== 'completed') throw new Error('the same POST did not return the completed report');
    }
    const sims = server.services!.context.storage.simulations;
    const [b, r] = await Promise.all([sims.get(first.baseline_simulation.id), sims.get(first.reform_simulation.id)]);
    const row = await sims.getReport(first.report_id);
    const bt = (JSON.parse(b!.summary!) as SimulationSummary).timings;
    const rt = (JSON.parse(r!.summary!) as SimulationSummary).timings;
    const reportS = (Date.parse(row!.completed_at!) - Date.parse(r!.completed_at!)) / 1000;
    const loadS = bt.model + bt.load_dataset;
    const tax = report.program_statistics.find((p: { is_tax: boolean; change: number }) => p.is_tax && p.change > 0);
    const rss = peakRssMb();
    if (bt.paired && rt.paired) {
      // One pass computed both (workers/jobs.ts): compute and the two summaries, then the report.
      const passS = rt.total - loadS;
      console.log(`pass ${pass} (${policy.parameter} = ${value}): POST to completed ${s(wall)} = load dataset ${s(loadS)} + baseline and reform in one pass ${s(passS)} (compute ${s(bt.compute)}, summaries ${s(bt.summary + rt.summary)}) + report ${s(reportS)} + queue and polling ${s(wall - rt.total - reportS)}`);
      console.log(`  CPU: main thread ${s(cpu.main)}, other threads ${s(cpu.others)} (compute: ${s(bt.compute_cpu)}); cached POST ${cached.toFixed(1)} ms (best of 5); peak RSS ${rss.toFixed(0)} MB`);
    } else {
      console.log(`pass ${pass} (${policy.parameter} = ${value}): POST to completed ${s(wall)} = load dataset ${s(loadS)} + baseline ${s(bt.total - loadS)} + reform ${s(rt.total)} + report ${s(reportS)} + queue and polling ${s(wall - bt.total - rt.total - reportS)}`);
      console.log(`  CPU: main thread ${s(cpu.main)}, other threads ${s(cpu.others)} (compute: baseline ${s(bt.compute_cpu)}, reform ${s(rt.compute_cpu)}); cached POST ${cached.toFixed(1)} ms (best of 5); peak RSS ${rss.toFixed(0)} MB`);
    }
    console.log(`  (server start and warm threads ${s((tWarm - tStart) / 1000)}; register dataset and policy ${s((tReady - tWarm) / 1000)}; ${tax.program_name} ${tax.change >= 0 ? '+' : ''}${(tax.change / 1e9).toFixed(2)}bn, budgetary impact ${(report.budget_summary.budgetary_impact / 1e9).toFixed(2)}bn; load average ${loadAverage()})`);
    console.log(JSON.stringify({ wall, cpu: cpu.main + cpu.others, cached, rss } satisfies PassResult));
  } finally {
    await server.close();
    fs.rmSync(storageDir, { recursive: true, force: true });
  }
}
