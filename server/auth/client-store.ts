/**
 * API clients of hosted mode (OAuth client credentials), in a small SQLite table through knex.
 * Secrets are shown once at creation and stored only as salted scrypt hashes.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import knex, { type Knex } from 'knex';

const scrypt = promisify(crypto.scrypt) as (password: string, salt: Buffer, keylen: number, options: crypto.ScryptOptions) => Promise<Buffer>;
const SCRYPT = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;
const TABLE = 'oauth_clients';
const NAME = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,63}$/;

export interface ClientRecord {
  client_id: string;
  name: string;
  created_at: string;
}

export class ClientStoreError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ClientStoreError';
  }
}

/** `FISCUS_DATA_DIR`, else `.fiscus/` in the working directory. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): string {
  return env.FISCUS_DATA_DIR || path.join(cwd, '.fiscus');
}

export class ClientStore {
  private ready?: Promise<void>;

  private constructor(private readonly db: Knex) {}

  static open(dataDir: string): ClientStore {
    fs.mkdirSync(dataDir, { recursive: true });
    const db = knex({ client: 'sqlite3', connection: { filename: path.join(dataDir, 'clients.sqlite') }, useNullAsDefault: true, pool: { min: 1, max: 1 } });
    return new ClientStore(db);
  }

  private init(): Promise<void> {
    this.ready ??= (async () => {
      if (await this.db.schema.hasTable(TABLE)) return;
      await this.db.schema.createTable(TABLE, (t) => {
        t.string('client_id').primary();
        t.string('name').notNullable().unique();
        t.string('secret_hash').notNullable();
        t.string('created_at').notNullable();
      });
    })();
    return this.ready;
  }

  /** Creates a client; the returned secret is never stored and cannot be shown again. */
  async add(name: string): Promise<{ client_id: string; client_secret: string }> {
    if (!NAME.test(name)) throw new ClientStoreError(`client name "${name}" must be 1-64 letters, digits, _ . @ - (starting with a letter or digit)`);
    await this.init();
    if (await this.db(TABLE).where({ name }).first()) throw new ClientStoreError(`a client named "${name}" already exists (remove it first to issue a new secret)`);
    const clientId = crypto.randomBytes(16).toString('hex');
    const secret = crypto.randomBytes(32).toString('base64url');
    await this.db(TABLE).insert({ client_id: clientId, name, secret_hash: await hashSecret(secret), created_at: new Date().toISOString() });
    return { client_id: clientId, client_secret: secret };
  }

  async list(): Promise<ClientRecord[]> {
    await this.init();
    return this.db(TABLE).select('client_id', 'name', 'created_at').orderBy('name');
  }

  async remove(name: string): Promise<boolean> {
    await this.init();
    return (await this.db(TABLE).where({ name }).delete()) > 0;
  }

  /** The client when id and secret match, else undefined (same work either way, against timing probes). */
  async verify(clientId: string, secret: string): Promise<ClientRecord | undefined> {
    await this.init();
    const row = (await this.db(TABLE).where({ client_id: clientId }).first()) as (ClientRecord & { secret_hash: string }) | undefined;
    const ok = await checkSecret(secret, row?.secret_hash ?? DUMMY_HASH);
    return row && ok ? { client_id: row.client_id, name: row.name, created_at: row.created_at } : undefined;
  }

  async close(): Promise<void> {
    await this.db.destroy();
  }
}

async function hashSecret(secret: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(secret, salt, KEY_LENGTH, SCRYPT);
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

const DUMMY_HASH = `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${Buffer.alloc(16).toString('base64')}$${Buffer.alloc(KEY_LENGTH).toString('base64')}`;

async function checkSecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scrypt(secret, Buffer.from(salt, 'base64'), expected.length, { N: Number(n), r: Number(r), p: Number(p) });
  return crypto.timingSafeEqual(actual, expected);
}
