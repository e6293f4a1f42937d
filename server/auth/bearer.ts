/**
 * Bearer-token check for hosted mode: koa-jwt verifies signature, algorithm, audience, issuer and
 * expiry; failures are answered the OAuth 2.0 way (RFC 6750): 401, `WWW-Authenticate: Bearer`,
 * and a JSON `{error, error_description}` body.
 */
import type { KeyObject } from 'node:crypto';
import type Koa from 'koa';
import koaJwt from 'koa-jwt';
import { OAuthError } from '../http/errors';
import type { AuthConfig } from './config';
import { JwksClient } from './jwks';

export function bearerAuth(config: Extract<AuthConfig, { enabled: true }>): Koa.Middleware {
  let secret: koaJwt.Options['secret'];
  let algorithms: string[];
  if (config.mode === 'jwks') {
    const jwks = new JwksClient(config.jwksUrl, config.jwksCacheMs);
    // koa-jwt hands the key to jsonwebtoken, which accepts KeyObjects although the typings say Buffer.
    secret = ((header: { kid?: string; alg?: string }) => jwks.keyFor(header)) as unknown as koaJwt.SecretLoader;
    algorithms = ['RS256', 'RS384', 'RS512', 'PS256', 'ES256', 'ES384'];
  } else {
    secret = config.verifyKey as unknown as koaJwt.Secret;
    algorithms = [config.algorithm];
  }
  const verify = koaJwt({ secret, audience: config.audience, issuer: config.issuer, algorithms, passthrough: true, key: 'token' });
  return async (ctx, next) => {
    const header = ctx.get('authorization');
    if (!header) throw challenge(new OAuthError(401, 'invalid_request', 'this endpoint needs an access token: send "Authorization: Bearer <token>" (get one from POST /oauth/token)'));
    if (!/^Bearer \S+$/i.test(header.trim())) throw challenge(new OAuthError(401, 'invalid_request', 'bad Authorization header: the format is "Authorization: Bearer <token>"'));
    await verify(ctx, async () => undefined);
    if (!ctx.state.token) {
      const reason = (ctx.state.jwtOriginalError as Error | undefined)?.message ?? 'token not accepted';
      throw challenge(new OAuthError(401, 'invalid_token', `the access token is not valid: ${reason}`));
    }
    // jsonwebtoken accepts tokens without "exp"; a bearer token that never expires is refused.
    if (typeof (ctx.state.token as { exp?: unknown }).exp !== 'number') {
      throw challenge(new OAuthError(401, 'invalid_token', 'the access token is not valid: it has no expiry ("exp" claim)'));
    }
    await next();
  };
}

/** Attaches the WWW-Authenticate header value the error handler sends with the 401. */
function challenge(error: OAuthError): OAuthError {
  const description = error.message.replace(/["\\]/g, "'");
  (error as OAuthError & { wwwAuthenticate?: string }).wwwAuthenticate = `Bearer realm="fiscus", error="${error.code}", error_description="${description}"`;
  return error;
}

export type KeyLike = string | KeyObject;
