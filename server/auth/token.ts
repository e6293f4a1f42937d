/**
 * `POST /oauth/token`: the OAuth 2.0 client-credentials grant (RFC 6749 §4.4), with the
 * `audience` field Auth0-style clients send. Errors use the RFC's codes.
 */
import * as jwt from 'jsonwebtoken';
import type Koa from 'koa';
import { parseFormOrJson, readBody } from '../http/body';
import { ApiError, OAuthError } from '../http/errors';
import { makeValidator } from '../http/validate';
import { tokenRequestSchema } from '../household/schema';
import type { ClientStore } from './client-store';
import type { AuthConfig } from './config';

const validateTokenRequest = makeValidator(tokenRequestSchema);
const TOKEN_BODY_LIMIT = 16 * 1024;

interface TokenRequest {
  client_id: string;
  client_secret: string;
  audience: string;
  grant_type: string;
}

export function tokenEndpoint(config: Extract<AuthConfig, { mode: 'local' }>, clients: ClientStore): Koa.Middleware {
  return async (ctx) => {
    let body: unknown;
    try {
      body = parseFormOrJson(await readBody(ctx.req, TOKEN_BODY_LIMIT), ctx.get('content-type'));
    } catch (error) {
      if (error instanceof ApiError) throw new OAuthError(error.status === 413 ? 413 : 400, 'invalid_request', error.message);
      throw error;
    }
    body = withBasicCredentials(body, ctx.get('authorization'));
    const problems = validateTokenRequest(body);
    if (problems.length > 0) throw new OAuthError(400, 'invalid_request', problems.map((p) => `${p.path} ${p.message}`).join('; '));
    const request = body as TokenRequest;
    if (request.grant_type !== 'client_credentials') {
      throw new OAuthError(400, 'unsupported_grant_type', `grant_type "${request.grant_type}" is not supported: use "client_credentials"`);
    }
    if (request.audience !== config.audience) {
      throw new OAuthError(403, 'access_denied', `unknown audience "${request.audience}": this server issues tokens for "${config.audience}"`);
    }
    const client = await clients.verify(request.client_id, request.client_secret);
    if (!client) throw new OAuthError(401, 'invalid_client', 'client authentication failed: unknown client_id or wrong client_secret');
    const options: jwt.SignOptions = {
      algorithm: config.algorithm,
      audience: config.audience,
      issuer: config.issuer,
      subject: `${client.client_id}@clients`,
      expiresIn: config.expiresIn,
    };
    if (config.keyId) options.keyid = config.keyId;
    const token = jwt.sign({ gty: 'client-credentials', client_name: client.name }, config.signingKey, options);
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { access_token: token, token_type: 'Bearer', expires_in: config.expiresIn };
  };
}

/**
 * RFC 6749 §2.3.1 lets clients send their credentials as HTTP Basic auth (client_secret_basic)
 * instead of in the body; both forms are accepted, the header filling in what the body lacks.
 */
function withBasicCredentials(body: unknown, header: string): unknown {
  const m = /^Basic\s+(\S+)$/i.exec(header.trim());
  if (!m || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw new OAuthError(400, 'invalid_request', 'the Basic Authorization header must hold "client_id:client_secret"');
  const id = decodeURIComponent(decoded.slice(0, colon));
  const secret = decodeURIComponent(decoded.slice(colon + 1));
  return { client_id: id, client_secret: secret, ...body };
}
