import { expect } from 'chai';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import * as jwt from 'jsonwebtoken';
import { ClientStore, ClientStoreError } from '../../server/auth/client-store';
import { ConfigError, loadAuthConfig } from '../../server/auth/config';
import { startServer } from '../../server/start';
import { FIXTURE_COUNTRIES, family, get, post, startTestServer, tempDir, type TestServer } from './helpers';

const SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

describe('auth: configuration', () => {
  it('is off by default and when AUTH_ENABLED=false', () => {
    expect(loadAuthConfig({})).to.deep.equal({ enabled: false });
    expect(loadAuthConfig({ AUTH_ENABLED: 'false' })).to.deep.equal({ enabled: false });
  });

  it('refuses hosted mode without a signing key, with a short secret, or with a bad flag', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true' })).to.throw(ConfigError, 'AUTH_ENABLED=true needs a signing key: set JWT_SECRET');
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', JWT_SECRET: 'short' })).to.throw(ConfigError, 'JWT_SECRET is 5 characters; use at least 32');
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'yes' })).to.throw(ConfigError, 'AUTH_ENABLED must be true or false, got "yes"');
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', JWT_SECRET: SECRET, JWT_EXPIRES_IN: 'soon' })).to.throw(ConfigError, 'JWT_EXPIRES_IN must be a whole number of seconds');
  });

  it('needs audience and issuer with a JWKS URL, and an RSA key file for RS256', () => {
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_JWKS_URL: 'https://issuer.example/.well-known/jwks.json' })).to.throw(ConfigError, 'AUTH_AUDIENCE and AUTH_ISSUER are required');
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', AUTH_JWKS_URL: 'ftp://x', AUTH_AUDIENCE: 'a', AUTH_ISSUER: 'i' })).to.throw(ConfigError, 'AUTH_JWKS_URL must be an http(s) URL');
    expect(() => loadAuthConfig({ AUTH_ENABLED: 'true', JWT_PRIVATE_KEY_FILE: '/nonexistent/key.pem' })).to.throw(ConfigError, 'JWT_PRIVATE_KEY_FILE (/nonexistent/key.pem): cannot read an RSA private key');
  });

  it('makes the server refuse to start half-configured', async () => {
    let failure: unknown;
    try {
      await startServer({ port: 0, countriesRoot: FIXTURE_COUNTRIES, env: { AUTH_ENABLED: 'true' } });
    } catch (error) {
      failure = error;
    }
    expect(failure).to.be.instanceOf(ConfigError);
  });
});

describe('auth: client store', () => {
  it('creates clients with secrets shown once and stored hashed', async () => {
    const dir = tempDir('clients');
    const store = ClientStore.open(dir);
    try {
      const created = await store.add('acme');
      expect(created.client_id).to.match(/^[0-9a-f]{32}$/);
      expect(created.client_secret.length).to.be.greaterThan(30);
      expect((await store.verify(created.client_id, created.client_secret))?.name).to.equal('acme');
      expect(await store.verify(created.client_id, 'wrong')).to.equal(undefined);
      expect(await store.verify('nobody', created.client_secret)).to.equal(undefined);
      expect((await store.list()).map((c) => c.name)).to.deep.equal(['acme']);
      expect(fs.readFileSync(path.join(dir, 'clients.sqlite')).includes(created.client_secret)).to.equal(false);
      let duplicate: unknown;
      await store.add('acme').catch((e) => (duplicate = e));
      expect(duplicate).to.be.instanceOf(ClientStoreError);
      expect((duplicate as Error).message).to.equal('a client named "acme" already exists (remove it first to issue a new secret)');
      let badName: unknown;
      await store.add('no spaces').catch((e) => (badName = e));
      expect((badName as Error).message).to.contain('client name "no spaces" must be 1-64 letters');
      expect(await store.remove('acme')).to.equal(true);
      expect(await store.remove('acme')).to.equal(false);
      expect(await store.verify(created.client_id, created.client_secret)).to.equal(undefined);
    } finally {
      await store.close();
    }
  });
});

describe('auth: hosted mode with local tokens (HS256, HTTP)', () => {
  let server: TestServer;
  let client: { client_id: string; client_secret: string };
  let calc: string;
  const audience = 'fiscus-household-api';

  before(async () => {
    const dataDir = tempDir('hosted');
    const store = ClientStore.open(dataDir);
    client = await store.add('tester');
    await store.close();
    server = await startTestServer({ dataDir, env: { AUTH_ENABLED: 'true', JWT_SECRET: SECRET, JWT_EXPIRES_IN: '600' } });
    calc = `${server.url}/tinyland/calculate`;
  });
  after(async () => {
    await server.close();
  });

  async function token(): Promise<string> {
    const { status, body } = await post(`${server.url}/oauth/token`, { ...client, audience, grant_type: 'client_credentials' });
    expect(status).to.equal(200);
    return body.access_token;
  }

  it('issues a bearer token for client credentials, which opens calculate', async () => {
    const answer = await post(`${server.url}/oauth/token`, { ...client, audience, grant_type: 'client_credentials' });
    expect(answer.status).to.equal(200);
    expect(answer.body.token_type).to.equal('Bearer');
    expect(answer.body.expires_in).to.equal(600);
    expect(answer.headers.get('cache-control')).to.equal('no-store');
    const claims = jwt.verify(answer.body.access_token, SECRET, { audience, issuer: 'fiscus', algorithms: ['HS256'] }) as jwt.JwtPayload;
    expect(claims.sub).to.equal(`${client.client_id}@clients`);
    const calculated = await post(calc, { household: family() }, { authorization: `Bearer ${answer.body.access_token}` });
    expect(calculated.status).to.equal(200);
    expect(calculated.body.result.people.parent.income_tax['2025']).to.equal(12000);
  });

  it('accepts a form-encoded token request too', async () => {
    const form = new URLSearchParams({ ...client, audience, grant_type: 'client_credentials' }).toString();
    const response = await fetch(`${server.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form });
    expect(response.status).to.equal(200);
  });

  it('accepts client credentials in a Basic Authorization header (client_secret_basic)', async () => {
    const basic = Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64');
    const answer = await post(`${server.url}/oauth/token`, { audience, grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
    expect(answer.status).to.equal(200);
    expect(answer.body.token_type).to.equal('Bearer');
    const broken = await post(`${server.url}/oauth/token`, { audience, grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from('no-colon').toString('base64')}` });
    expect(broken.status).to.equal(400);
    expect(broken.body).to.deep.equal({ error: 'invalid_request', error_description: 'the Basic Authorization header must hold "client_id:client_secret"' });
  });

  it('refuses bad token requests with OAuth error codes', async () => {
    const wrongSecret = await post(`${server.url}/oauth/token`, { ...client, client_secret: 'nope', audience, grant_type: 'client_credentials' });
    expect(wrongSecret.status).to.equal(401);
    expect(wrongSecret.body).to.deep.equal({ error: 'invalid_client', error_description: 'client authentication failed: unknown client_id or wrong client_secret' });
    const grant = await post(`${server.url}/oauth/token`, { ...client, audience, grant_type: 'password' });
    expect(grant.status).to.equal(400);
    expect(grant.body).to.deep.equal({ error: 'unsupported_grant_type', error_description: 'grant_type "password" is not supported: use "client_credentials"' });
    const aud = await post(`${server.url}/oauth/token`, { ...client, audience: 'other', grant_type: 'client_credentials' });
    expect(aud.status).to.equal(403);
    expect(aud.body).to.deep.equal({ error: 'access_denied', error_description: 'unknown audience "other": this server issues tokens for "fiscus-household-api"' });
    const missing = await post(`${server.url}/oauth/token`, { client_id: client.client_id, grant_type: 'client_credentials' });
    expect(missing.status).to.equal(400);
    expect(missing.body).to.deep.equal({ error: 'invalid_request', error_description: 'client_secret is required; audience is required' });
    const malformed = await post(`${server.url}/oauth/token`, '{"client_id":');
    expect(malformed.status).to.equal(400);
    expect(malformed.body.error).to.equal('invalid_request');
    expect(malformed.body.error_description).to.match(/^Malformed JSON in request body/);
  });

  it('answers 401 without a token, with a malformed header, or with bad tokens', async () => {
    const none = await post(calc, { household: family() });
    expect(none.status).to.equal(401);
    expect(none.body).to.deep.equal({ error: 'invalid_request', error_description: 'this endpoint needs an access token: send "Authorization: Bearer <token>" (get one from POST /oauth/token)' });
    expect(none.headers.get('www-authenticate')).to.match(/^Bearer realm="fiscus", error="invalid_request"/);
    const basic = await post(calc, { household: family() }, { authorization: 'Basic abc' });
    expect(basic.status).to.equal(401);
    expect(basic.body.error_description).to.equal('bad Authorization header: the format is "Authorization: Bearer <token>"');

    const cases: [string, string][] = [
      [jwt.sign({}, SECRET, { audience, issuer: 'fiscus', expiresIn: -10 }), 'jwt expired'],
      [jwt.sign({}, SECRET, { audience: 'elsewhere', issuer: 'fiscus', expiresIn: 60 }), 'jwt audience invalid. expected: fiscus-household-api'],
      [jwt.sign({}, SECRET, { audience, issuer: 'someone-else', expiresIn: 60 }), 'jwt issuer invalid. expected: fiscus'],
      [jwt.sign({}, SECRET, { audience, issuer: 'fiscus', expiresIn: 60, algorithm: 'HS512' }), 'invalid algorithm'],
      [jwt.sign({}, `${SECRET}-other`, { audience, issuer: 'fiscus', expiresIn: 60 }), 'invalid signature'],
      ['not.a.jwt', 'invalid token'],
    ];
    const noExpiry = await post(calc, { household: family() }, { authorization: `Bearer ${jwt.sign({}, SECRET, { audience, issuer: 'fiscus' })}` });
    expect(noExpiry.status).to.equal(401);
    expect(noExpiry.body).to.deep.equal({ error: 'invalid_token', error_description: 'the access token is not valid: it has no expiry ("exp" claim)' });
    for (const [bad, reason] of cases) {
      const answer = await post(calc, { household: family() }, { authorization: `Bearer ${bad}` });
      expect(answer.status, reason).to.equal(401);
      expect(answer.body).to.deep.equal({ error: 'invalid_token', error_description: `the access token is not valid: ${reason}` });
      expect(answer.headers.get('www-authenticate')).to.contain('error="invalid_token"');
    }
  });

  it('leaves the service description, checks and specification open, and documents the auth', async () => {
    const root = await get(`${server.url}/`);
    expect(root.status).to.equal(200);
    expect(root.body.auth).to.deep.equal({ type: 'bearer', token_endpoint: '/oauth/token', issuer: 'fiscus', audience });
    expect((await get(`${server.url}/liveness_check`)).status).to.equal(200);
    const spec = await get(`${server.url}/specification`);
    expect(spec.body.paths['/{country}/calculate'].post.security).to.deep.equal([{ bearer: [] }]);
    expect(spec.body.paths['/oauth/token'].post.summary).to.contain('client credentials');
    expect(await token()).to.be.a('string');
  });
});

describe('auth: RS256 local keys and an external JWKS issuer (HTTP)', () => {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });

  it('signs with an RSA key file when JWT_PRIVATE_KEY_FILE is set', async () => {
    const dir = tempDir('rsa');
    const keyFile = path.join(dir, 'key.pem');
    fs.writeFileSync(keyFile, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    const store = ClientStore.open(dir);
    const client = await store.add('rsa-client');
    await store.close();
    const server = await startTestServer({ dataDir: dir, env: { AUTH_ENABLED: 'true', JWT_PRIVATE_KEY_FILE: keyFile, AUTH_AUDIENCE: 'aud-x', AUTH_ISSUER: 'https://fiscus.test/' } });
    try {
      const issued = await post(`${server.url}/oauth/token`, { ...client, audience: 'aud-x', grant_type: 'client_credentials' });
      expect(issued.status).to.equal(200);
      const claims = jwt.verify(issued.body.access_token, publicKey, { algorithms: ['RS256'], audience: 'aud-x', issuer: 'https://fiscus.test/' }) as jwt.JwtPayload;
      expect(claims.gty).to.equal('client-credentials');
      const ok = await post(`${server.url}/tinyland/calculate`, { household: family() }, { authorization: `Bearer ${issued.body.access_token}` });
      expect(ok.status).to.equal(200);
      // An HS256 token "signed" with the public key must not pass (algorithm confusion).
      const forged = jwt.sign({}, SECRET, { algorithm: 'HS256', audience: 'aud-x', issuer: 'https://fiscus.test/' });
      const refused = await post(`${server.url}/tinyland/calculate`, { household: family() }, { authorization: `Bearer ${forged}` });
      expect(refused.status).to.equal(401);
      expect(refused.body.error_description).to.equal('the access token is not valid: invalid algorithm');
    } finally {
      await server.close();
    }
  });

  it('verifies tokens of an external issuer against its JWKS URL', async () => {
    const jwk = { ...publicKey.export({ format: 'jwk' }), kid: 'key-1', use: 'sig', alg: 'RS256' };
    let fetches = 0;
    const jwks = http.createServer((req, res) => {
      fetches += 1;
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => jwks.listen(0, '127.0.0.1', () => resolve()));
    const jwksUrl = `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`;
    const server = await startTestServer({ env: { AUTH_ENABLED: 'true', AUTH_JWKS_URL: jwksUrl, AUTH_AUDIENCE: 'https://api.example', AUTH_ISSUER: 'https://issuer.example/' } });
    try {
      const good = jwt.sign({ sub: 'svc' }, privateKey, { algorithm: 'RS256', keyid: 'key-1', audience: 'https://api.example', issuer: 'https://issuer.example/', expiresIn: 60 });
      const ok = await post(`${server.url}/tinyland/calculate`, { household: family() }, { authorization: `Bearer ${good}` });
      expect(ok.status).to.equal(200);
      const again = await post(`${server.url}/tinyland/calculate`, { household: family() }, { authorization: `Bearer ${good}` });
      expect(again.status).to.equal(200);
      expect(fetches).to.equal(1);

      const other = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
      const unknownKid = jwt.sign({}, other, { algorithm: 'RS256', keyid: 'key-2', audience: 'https://api.example', issuer: 'https://issuer.example/', expiresIn: 60 });
      const refused = await post(`${server.url}/tinyland/calculate`, { household: family() }, { authorization: `Bearer ${unknownKid}` });
      expect(refused.status).to.equal(401);
      expect(refused.body.error_description).to.equal(`the access token is not valid: no key with kid "key-2" at ${jwksUrl}`);
      const wrongIssuer = jwt.sign({}, privateKey, { algorithm: 'RS256', keyid: 'key-1', audience: 'https://api.example', issuer: 'https://evil.example/', expiresIn: 60 });
      const refused2 = await post(`${server.url}/tinyland/calculate`, { household: family() }, { authorization: `Bearer ${wrongIssuer}` });
      expect(refused2.status).to.equal(401);
      expect(refused2.body.error_description).to.equal('the access token is not valid: jwt issuer invalid. expected: https://issuer.example/');

      const noTokens = await post(`${server.url}/oauth/token`, { client_id: 'a', client_secret: 'b', audience: 'x', grant_type: 'client_credentials' });
      expect(noTokens.status).to.equal(404);
      expect(noTokens.body).to.deep.equal({ error: 'not_found', error_description: 'this server does not issue tokens; get one from the issuer https://issuer.example/ (audience https://api.example)' });
    } finally {
      await server.close();
      jwks.closeAllConnections();
      await new Promise<void>((resolve) => jwks.close(() => resolve()));
    }
  });
});
