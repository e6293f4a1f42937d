/** `fiscus clients`: API clients of hosted mode (OAuth client credentials). */
import type { CliCommand, CliIO } from '../command';
import { UsageError } from '../command';
import { parseArgs } from '../args';
import * as path from 'node:path';
import { ClientStore, ClientStoreError, defaultDataDir } from '../../auth/client-store';

const usage = `Usage: fiscus clients add NAME | list | remove NAME [--data-dir DIR]

Manages the clients allowed to get tokens from POST /oauth/token when AUTH_ENABLED=true.
  add NAME      create a client; prints its client_id and client_secret (shown only once)
  list          list clients (ids and names; secrets are stored hashed)
  remove NAME   delete a client
  --data-dir    where the client database lives (default: $FISCUS_DATA_DIR, else ./.fiscus)`;

export const command: CliCommand = {
  name: 'clients',
  summary: 'Create, list and remove API clients for hosted mode',
  usage,
  async run(args: string[], io: CliIO): Promise<number> {
    const parsed = parseArgs(args, ['data-dir']);
    const [action, name, extra] = parsed.positionals;
    if (extra !== undefined) throw new UsageError(`unexpected argument ${extra}`);
    if (action === undefined) throw new UsageError('say what to do: add NAME, list or remove NAME');
    if ((action === 'add' || action === 'remove') && name === undefined) throw new UsageError(`${action} needs a client NAME`);
    if (action === 'list' && name !== undefined) throw new UsageError(`list takes no NAME`);
    if (!['add', 'list', 'remove'].includes(action)) throw new UsageError(`unknown action "${action}" (add, list, remove)`);
    const dir = parsed.options['data-dir'] ? path.resolve(io.cwd, parsed.options['data-dir']) : defaultDataDir(process.env, io.cwd);
    const store = ClientStore.open(dir);
    try {
      if (action === 'add') {
        const created = await store.add(name!);
        io.out(`client "${name}" created`);
        io.out(`client_id:     ${created.client_id}`);
        io.out(`client_secret: ${created.client_secret}`);
        io.out('Store the secret now: it is kept only as a hash and cannot be shown again.');
      } else if (action === 'list') {
        const all = await store.list();
        if (all.length === 0) io.out('no clients');
        for (const c of all) io.out(`${c.name}\t${c.client_id}\t${c.created_at}`);
      } else {
        if (!(await store.remove(name!))) {
          io.err(`fiscus clients: no client named "${name}"`);
          return 1;
        }
        io.out(`client "${name}" removed`);
      }
      return 0;
    } catch (error) {
      if (error instanceof ClientStoreError) {
        io.err(`fiscus clients: ${error.message}`);
        return 1;
      }
      throw error;
    } finally {
      await store.close();
    }
  },
};
