/**
 * Starts the server over HTTP: the household API and (unless turned off) the microsimulation API
 * on one port. Reads the auth settings, opens the client store when the server issues its own
 * tokens, starts the microsimulation services, and listens. Used by `fiscus serve` and the tests.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createApp } from './app';
import { ClientStore, defaultDataDir } from './auth/client-store';
import { loadAuthConfig } from './auth/config';
import { packageRoot } from './cli/root';
import type { HouseholdLimits } from './household/calculate';
import { warmHouseholds } from './household/warm';
import { coreEngine, loadCountryModel } from './models/engine';
import { ModelRegistry } from './models/registry';
import { startServices, type ServiceOptions, type Services } from './services';
import { warmFrom } from './workers/warm';

export interface StartOptions {
  port: number;
  host?: string;
  countriesRoot?: string;
  releasesRoot?: string;
  env?: NodeJS.ProcessEnv;
  /** Client store folder (default FISCUS_DATA_DIR or ./.fiscus). */
  dataDir?: string;
  limits?: Partial<HouseholdLimits>;
  log?: (message: string) => void;
  /**
   * Load every country's current model before listening, and compute a household of each country
   * once listening (server/household/warm.ts), so the first request is not slow. `FISCUS_WARM`
   * false turns the household part off, a list of countries limits it.
   */
  warm?: boolean;
  /** How often the registry re-reads country folders (ms; tests use 0). */
  refreshMs?: number;
  /** The microsimulation API: false serves the household API alone; an object tunes its services. */
  microsim?: false | Partial<Omit<ServiceOptions, 'registry' | 'env' | 'log'>>;
}

export interface RunningServer {
  url: string;
  port: number;
  server: http.Server;
  services?: Services;
  close(): Promise<void>;
}

export function defaultReleasesRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.FISCUS_RELEASES_DIR || path.join(packageRoot(), 'releases');
}

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const env = options.env ?? process.env;
  const log = options.log ?? console.error;
  const auth = loadAuthConfig(env);
  const root = packageRoot();
  const registry = new ModelRegistry({
    countriesRoot: options.countriesRoot ?? path.join(root, 'countries'),
    releasesRoot: options.releasesRoot ?? defaultReleasesRoot(env),
    loadModel: loadCountryModel,
    refreshMs: options.refreshMs,
  });
  if (options.warm) {
    for (const country of registry.countries()) {
      try {
        registry.resolve(country, 'current');
      } catch (error) {
        // One broken country must not keep the others offline: it answers 500 until fixed.
        log(`warning: ${(error as Error).message}`);
      }
    }
  }
  const dataDir = options.dataDir ?? defaultDataDir(env);
  const clients = auth.enabled && auth.mode === 'local' ? ClientStore.open(dataDir) : undefined;
  const services = options.microsim === false ? undefined : await startServices({ ...options.microsim, registry, env: { FISCUS_DATA_DIR: dataDir, ...env }, log });
  const version = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;
  const app = createApp({ registry, engine: coreEngine, auth, clients, limits: options.limits, serviceVersion: version, microsim: services?.context, log });
  const server = http.createServer(app.callback());
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  // Once listening: loading models into the simulation threads must not hold up the household API,
  // and a server started warm compiles its household formulas before its first client does.
  void services?.warm();
  const warmWhat = warmFrom(env);
  if (options.warm && warmWhat !== false) void warmHouseholds(registry, coreEngine, { countries: warmWhat === true ? undefined : warmWhat, log });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    server,
    services,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await services?.close();
      await clients?.close();
    },
  };
}
