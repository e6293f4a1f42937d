/**
 * Hosted-mode settings, read from the environment once at startup. A half-configured hosted
 * server is refused with a message naming the missing variable, rather than started open.
 */
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';

export type AuthConfig =
  | { enabled: false }
  | {
      enabled: true;
      mode: 'local';
      audience: string;
      issuer: string;
      expiresIn: number;
      algorithm: 'HS256' | 'RS256';
      /** HS256 secret, or the RS256 private key (signing). */
      signingKey: string | crypto.KeyObject;
      /** HS256 secret, or the RS256 public key (verifying). */
      verifyKey: string | crypto.KeyObject;
      keyId?: string;
    }
  | { enabled: true; mode: 'jwks'; audience: string; issuer: string; jwksUrl: string; jwksCacheMs: number };

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export const DEFAULT_AUDIENCE = 'fiscus-household-api';
export const DEFAULT_ISSUER = 'fiscus';
const MIN_SECRET_LENGTH = 32;

export function loadAuthConfig(env: NodeJS.ProcessEnv): AuthConfig {
  const flag = (env.AUTH_ENABLED ?? 'false').toLowerCase();
  if (!['true', 'false', '1', '0', ''].includes(flag)) throw new ConfigError(`AUTH_ENABLED must be true or false, got "${env.AUTH_ENABLED}"`);
  if (flag !== 'true' && flag !== '1') return { enabled: false };

  if (env.AUTH_JWKS_URL) {
    if (!/^https?:\/\//.test(env.AUTH_JWKS_URL)) throw new ConfigError(`AUTH_JWKS_URL must be an http(s) URL, got "${env.AUTH_JWKS_URL}"`);
    if (!env.AUTH_AUDIENCE || !env.AUTH_ISSUER) {
      throw new ConfigError('AUTH_JWKS_URL is set: AUTH_AUDIENCE and AUTH_ISSUER are required too (the values your token issuer puts in "aud" and "iss")');
    }
    return { enabled: true, mode: 'jwks', audience: env.AUTH_AUDIENCE, issuer: env.AUTH_ISSUER, jwksUrl: env.AUTH_JWKS_URL, jwksCacheMs: 10 * 60 * 1000 };
  }

  const audience = env.AUTH_AUDIENCE || DEFAULT_AUDIENCE;
  const issuer = env.AUTH_ISSUER || DEFAULT_ISSUER;
  const expiresIn = env.JWT_EXPIRES_IN === undefined ? 86400 : Number(env.JWT_EXPIRES_IN);
  if (!Number.isInteger(expiresIn) || expiresIn < 1) throw new ConfigError(`JWT_EXPIRES_IN must be a whole number of seconds, got "${env.JWT_EXPIRES_IN}"`);

  if (env.JWT_PRIVATE_KEY_FILE) {
    let privateKey: crypto.KeyObject;
    try {
      privateKey = crypto.createPrivateKey(fs.readFileSync(env.JWT_PRIVATE_KEY_FILE, 'utf8'));
    } catch (error) {
      throw new ConfigError(`JWT_PRIVATE_KEY_FILE (${env.JWT_PRIVATE_KEY_FILE}): cannot read an RSA private key: ${(error as Error).message}`);
    }
    if (privateKey.asymmetricKeyType !== 'rsa') throw new ConfigError(`JWT_PRIVATE_KEY_FILE (${env.JWT_PRIVATE_KEY_FILE}) holds a ${privateKey.asymmetricKeyType} key; RS256 needs an RSA key`);
    const publicKey = crypto.createPublicKey(privateKey);
    const keyId = crypto.createHash('sha256').update(publicKey.export({ format: 'der', type: 'spki' })).digest('base64url').slice(0, 16);
    return { enabled: true, mode: 'local', audience, issuer, expiresIn, algorithm: 'RS256', signingKey: privateKey, verifyKey: publicKey, keyId };
  }
  const secret = env.JWT_SECRET;
  if (!secret) {
    throw new ConfigError('AUTH_ENABLED=true needs a signing key: set JWT_SECRET (at least 32 characters) or JWT_PRIVATE_KEY_FILE (an RSA key in PEM), or AUTH_JWKS_URL with AUTH_AUDIENCE and AUTH_ISSUER to trust an external issuer');
  }
  if (secret.length < MIN_SECRET_LENGTH) throw new ConfigError(`JWT_SECRET is ${secret.length} characters; use at least ${MIN_SECRET_LENGTH} (e.g. openssl rand -hex 32)`);
  return { enabled: true, mode: 'local', audience, issuer, expiresIn, algorithm: 'HS256', signingKey: secret, verifyKey: secret };
}
