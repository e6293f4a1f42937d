/** Starts the real household server on a loopback port for HTTP-level tests. */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startServer, type RunningServer, type StartOptions } from '../../server/start';

/** Source folder of the test countries (YAML is not copied to dist/, so resolve from the repo root). */
export const FIXTURE_COUNTRIES = path.resolve(__dirname, '../../../test/server/fixtures/countries');

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `fiscus-${prefix}-`));
}

export interface TestServer extends RunningServer {
  logs: string[];
}

export async function startTestServer(options: Partial<StartOptions> = {}): Promise<TestServer> {
  const logs: string[] = [];
  const running = await startServer({
    microsim: false,
    port: 0,
    host: '127.0.0.1',
    countriesRoot: FIXTURE_COUNTRIES,
    releasesRoot: tempDir('releases'),
    env: {},
    dataDir: tempDir('data'),
    refreshMs: 0,
    log: (m) => logs.push(m),
    ...options,
  });
  return { ...running, logs };
}

export interface JsonAnswer {
  status: number;
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  headers: Headers;
}

export async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: text });
  return { status: response.status, body: await parse(response), headers: response.headers };
}

export async function get(url: string, headers: Record<string, string> = {}): Promise<JsonAnswer> {
  const response = await fetch(url, { headers });
  return { status: response.status, body: await parse(response), headers: response.headers };
}

async function parse(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A small two-adult, one-child household of the test country. */
export function family(): Record<string, unknown> {
  return {
    people: {
      parent: { age: { '2025': 40 }, employment_income: { '2025': 60000 }, income_tax: { '2025': null }, tax_band: { '2025': null } },
      partner: { age: { '2025': 38 }, employment_income: { '2025': 20000 }, income_tax: { '2025': null } },
      child: { age: { '2025': 7 }, is_adult: { '2025': null } },
    },
    families: { fam: { members: ['parent', 'partner', 'child'], family_benefit: { '2025': null, '2025-06': null }, child_count: { '2025': null } } },
    households: { home: { members: ['parent', 'partner', 'child'], region: { '2025': 'SOUTH' }, household_net_income: { '2025': null } } },
  };
}
