/**
 * Public keys of an external token issuer, fetched from its JWKS URL and cached. An unknown
 * key id triggers one refetch (issuers rotate keys), rate-limited so bad tokens cannot make us
 * hammer the issuer.
 */
import * as crypto from 'node:crypto';

interface Jwk {
  kid?: string;
  kty?: string;
  use?: string;
  alg?: string;
  [key: string]: unknown;
}

export class JwksError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'JwksError';
  }
}

const MIN_REFETCH_MS = 30_000;

export class JwksClient {
  private keys = new Map<string, crypto.KeyObject>();
  private fetchedAt = 0;
  private inflight?: Promise<void>;

  constructor(private readonly url: string, private readonly cacheMs: number) {}

  /** The verification key for a token header (by `kid`, or the only key when there is one and no kid). */
  async keyFor(header: { kid?: string; alg?: string }): Promise<crypto.KeyObject> {
    const now = Date.now();
    if (now - this.fetchedAt > this.cacheMs) await this.refresh();
    let key = this.pick(header.kid);
    if (!key && now - this.fetchedAt > MIN_REFETCH_MS) {
      await this.refresh();
      key = this.pick(header.kid);
    }
    if (!key) throw new JwksError(header.kid ? `no key with kid "${header.kid}" at ${this.url}` : `the token has no kid and ${this.url} publishes ${this.keys.size} keys`);
    return key;
  }

  private pick(kid: string | undefined): crypto.KeyObject | undefined {
    if (kid) return this.keys.get(kid);
    return this.keys.size === 1 ? [...this.keys.values()][0] : undefined;
  }

  private refresh(): Promise<void> {
    this.inflight ??= this.fetchKeys().finally(() => {
      this.inflight = undefined;
    });
    return this.inflight;
  }

  private async fetchKeys(): Promise<void> {
    let body: unknown;
    try {
      const response = await fetch(this.url, { signal: AbortSignal.timeout(5000) });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      throw new JwksError(`cannot fetch the issuer's keys from ${this.url}: ${(error as Error).message}`);
    }
    const list = (body as { keys?: unknown }).keys;
    if (!Array.isArray(list)) throw new JwksError(`${this.url} is not a JWKS document (no "keys" array)`);
    const keys = new Map<string, crypto.KeyObject>();
    list.forEach((jwk: Jwk, i: number) => {
      if (jwk.use && jwk.use !== 'sig') return;
      if (jwk.kty !== 'RSA' && jwk.kty !== 'EC') return;
      try {
        keys.set(jwk.kid ?? `#${i}`, crypto.createPublicKey({ key: jwk as crypto.JsonWebKeyInput["key"], format: 'jwk' }));
      } catch {
        // A malformed key is skipped: the issuer's other keys still work.
      }
    });
    this.keys = keys;
    this.fetchedAt = Date.now();
  }
}
