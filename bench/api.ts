/**
 * `npm run bench -- api [--url URL] [--duration S] [--connections N] [--warmup S] [--workers N] [--body FILE]`:
 * a keep-alive load generator (node's http module, no dependency) against the household API.
 * Default request: a single UK household asking for a full household_net_income. Without --url
 * it starts `fiscus serve` as a child process (so server and load generator do not share an
 * event loop), measures, and stops it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';

interface Options {
  url?: string;
  country: string;
  durationS: number;
  warmupS: number;
  connections: number;
  /** Server processes when the bench starts its own server. */
  workers: number;
  body: string;
}

/** One earner in a benefit unit and household, all headline outputs requested. */
const DEFAULT_HOUSEHOLD = {
  household: {
    people: {
      you: { age: { 2025: 35 }, employment_income: { 2025: 32000 }, income_tax: { 2025: null }, national_insurance: { 2025: null } },
    },
    benunits: { benunit: { members: ['you'], universal_credit: { 2025: null }, child_benefit: { 2025: null } } },
    households: {
      household: {
        members: ['you'],
        region: { 2025: 'NORTH_WEST' },
        household_tax: { 2025: null },
        household_benefits: { 2025: null },
        household_net_income: { 2025: null },
      },
    },
  },
};

function parse(args: string[]): Options {
  const o: Options = { country: 'uk', durationS: 10, warmupS: 2, connections: 8, workers: 1, body: JSON.stringify(DEFAULT_HOUSEHOLD) };
  for (let i = 0; i < args.length; i++) {
    const [flag, value] = [args[i], args[i + 1]];
    const need = (): string => {
      if (value === undefined) throw new Error(`${flag} needs a value`);
      i++;
      return value;
    };
    const positive = (text: string): number => {
      const n = Number(text);
      if (!(n > 0)) throw new Error(`${flag} must be a positive number, got "${text}"`);
      return n;
    };
    if (flag === '--url') o.url = need().replace(/\/$/, '');
    else if (flag === '--country') o.country = need();
    else if (flag === '--duration') o.durationS = positive(need());
    else if (flag === '--warmup') o.warmupS = Number(need());
    else if (flag === '--connections') o.connections = Math.floor(positive(need()));
    else if (flag === '--workers') o.workers = Math.floor(positive(need()));
    else if (flag === '--body') o.body = fs.readFileSync(need(), 'utf8');
    else throw new Error(`bench api: unknown option ${flag} (options: --url --country --duration --warmup --connections --workers --body)`);
  }
  return o;
}

async function startServer(workers: number): Promise<{ url: string; child: ChildProcess }> {
  const main = path.join(__dirname, '..', 'server', 'cli', 'main.js');
  const child = spawn(process.execPath, [main, 'serve', '--port', '0', '--host', '127.0.0.1', '--workers', String(workers)], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, AUTH_ENABLED: 'false', FISCUS_DEFAULT_DATASETS: 'false', FISCUS_WARM: 'false', FISCUS_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-bench-')) } });
  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const m = /listening on (http:\/\/\S+)/.exec(seen);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`fiscus serve exited (${code}) before listening: ${seen}`)));
  });
  return { url, child };
}

interface Sample {
  latenciesUs: number[];
  errors: number;
  firstError?: string;
}

/** `connections` loops, each sending the next request as soon as the previous answer arrives. */
async function load(target: URL, body: Buffer, connections: number, seconds: number, sample: Sample | undefined): Promise<number> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  let done = 0;
  const once = (): Promise<void> =>
    new Promise((resolve, reject) => {
      const start = process.hrtime.bigint();
      const req = http.request(target, { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': body.length } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          done++;
          if (sample) {
            sample.latenciesUs.push(Number(process.hrtime.bigint() - start) / 1000);
            if (res.statusCode !== 200) {
              sample.errors++;
              sample.firstError ??= `HTTP ${res.statusCode}: ${Buffer.concat(chunks).toString().slice(0, 300)}`;
            }
          }
          resolve();
        });
      });
      req.on('error', reject);
      req.end(body);
    });
  const loop = async (): Promise<void> => {
    while (process.hrtime.bigint() < deadline) await once();
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return done;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

export async function run(args: string[]): Promise<void> {
  const o = parse(args);
  const started = o.url ? undefined : await startServer(o.workers);
  const base = o.url ?? started!.url;
  try {
    const target = new URL(`${base}/${o.country}/calculate`);
    const body = Buffer.from(o.body);
    if (o.warmupS > 0) await load(target, body, o.connections, o.warmupS, undefined);
    const sample: Sample = { latenciesUs: [], errors: 0 };
    const t0 = process.hrtime.bigint();
    const count = await load(target, body, o.connections, o.durationS, sample);
    const elapsedS = Number(process.hrtime.bigint() - t0) / 1e9;
    const sorted = sample.latenciesUs.sort((a, b) => a - b);
    const ms = (us: number) => (us / 1000).toFixed(3);
    console.log(`bench api: POST ${target.href}, ${o.connections} keep-alive connections, ${o.durationS}s after ${o.warmupS}s warm-up`);
    console.log(`  requests ${count}  errors ${sample.errors}  throughput ${(count / elapsedS).toFixed(0)} req/s`);
    console.log(`  latency ms: p50 ${ms(percentile(sorted, 50))}  p90 ${ms(percentile(sorted, 90))}  p99 ${ms(percentile(sorted, 99))}  max ${ms(sorted[sorted.length - 1] ?? NaN)}`);
    if (sample.firstError) console.log(`  first error: ${sample.firstError}`);
    if (sample.errors > 0) process.exitCode = 1;
  } finally {
    started?.child.kill('SIGTERM');
  }
}
