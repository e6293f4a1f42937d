/** `fiscus serve`: the household calculation API. */
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';
import { parseArgs } from '../args';
import { ConfigError } from '../../auth/config';
import { startHouseholdServer } from '../../household/start';

const usage = `Usage: fiscus serve [--port N] [--host ADDRESS] [--countries DIR] [--releases DIR]

Serves the household calculation API (POST /{country}/calculate).
  --port N          port (default: $PORT, else 8080)
  --host ADDRESS    address to listen on (default: $HOST, else 0.0.0.0)
  --countries DIR   country plugins folder (default: the package's countries/)
  --releases DIR    released model bundles (default: $FISCUS_RELEASES_DIR, else releases/)

Hosted mode: AUTH_ENABLED=true with JWT_SECRET (or JWT_PRIVATE_KEY_FILE), optional AUTH_AUDIENCE,
AUTH_ISSUER, JWT_EXPIRES_IN; or AUTH_JWKS_URL + AUTH_AUDIENCE + AUTH_ISSUER for an external issuer.
Clients: fiscus clients add NAME (stored under $FISCUS_DATA_DIR, else ./.fiscus).`;

export function portFrom(option: string | undefined, env: NodeJS.ProcessEnv): number {
  const text = option ?? env.PORT ?? '8080';
  const port = Number(text);
  if (!/^\d+$/.test(text) || port < 0 || port > 65535) throw new UsageError(`port must be a number from 0 to 65535, got "${text}"${option === undefined ? ' (from PORT)' : ''}`);
  return port;
}

export const command: CliCommand = {
  name: 'serve',
  summary: 'Serve the household calculation API over HTTP',
  usage,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, ['port', 'host', 'countries', 'releases']);
    if (parsed.positionals.length > 0) throw new UsageError(`unexpected argument ${parsed.positionals[0]}`);
    const port = portFrom(parsed.options.port, process.env);
    let running;
    try {
      running = await startHouseholdServer({
        port,
        host: parsed.options.host ?? process.env.HOST ?? '0.0.0.0',
        countriesRoot: parsed.options.countries,
        releasesRoot: parsed.options.releases,
        warm: true,
        log: io.err,
      });
    } catch (error) {
      if (error instanceof ConfigError) {
        io.err(`fiscus serve: configuration error: ${error.message}`);
        return 1;
      }
      throw error;
    }
    io.out(`fiscus household API listening on ${running.url} (auth ${process.env.AUTH_ENABLED === 'true' ? 'on' : 'off'})`);
    await new Promise<void>((resolve) => {
      const stop = () => resolve();
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await running.close();
    return 0;
  },
};
