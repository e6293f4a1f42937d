/**
 * Runs the curl examples of docs/api/household.md (blocks after `<!-- tested: MODE -->`) against
 * a real server over the real country models, so the documentation cannot rot.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ClientStore } from '../../server/auth/client-store';
import { packageRoot } from '../../server/cli/root';
import { startTestServer, tempDir, type TestServer } from './helpers';

const DOC = path.join(packageRoot(), 'docs', 'api', 'household.md');

function examples(mode: string): string[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const out: string[] = [];
  const re = new RegExp(`<!-- tested: ${mode} -->\\n\`\`\`sh\\n([\\s\\S]*?)\`\`\``, 'g');
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1]);
  return out;
}

function sh(script: string, server: TestServer, env: Record<string, string> = {}): Promise<string> {
  const body = script.replace(/http:\/\/localhost:8080/g, server.url);
  return new Promise((resolve, reject) => {
    execFile('bash', ['-euo', 'pipefail', '-c', body], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...env }, timeout: 30000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`example failed: ${error.message}\n${stderr}\n--- script ---\n${body}`));
      else resolve(stdout);
    });
  });
}

describe('docs/api/household.md: curl examples (self-hosted mode)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer({ countriesRoot: path.join(packageRoot(), 'countries') });
  });
  after(async () => {
    await server.close();
  });

  it('has the documented examples', () => {
    expect(examples('self-hosted')).to.have.length(5);
  });

  it('calculates a household', async () => {
    const answer = JSON.parse(await sh(examples('self-hosted')[0], server));
    expect(answer.status, JSON.stringify(answer)).to.equal('ok');
    expect(answer.result.people.you.income_tax['2025']).to.be.a('number').greaterThan(0);
    expect(answer.result.households.household.household_net_income['2025']).to.be.a('number');
    expect(answer.service_bundle.model_version).to.match(/^\d+\.\d+\.\d+/);
  });

  it('applies a reform', async () => {
    const answer = JSON.parse(await sh(examples('self-hosted')[1], server));
    expect(answer.status, JSON.stringify(answer)).to.equal('ok');
    expect(answer.result.people.you.income_tax['2025']).to.be.a('number').greaterThan(0);
  });

  it('varies an input along an axis', async () => {
    const answer = JSON.parse(await sh(examples('self-hosted')[2], server));
    expect(answer.status, JSON.stringify(answer)).to.equal('ok');
    expect(answer.result.people.you.income_tax['2025']).to.be.an('array').with.length(5);
  });

  it('shows an error with paths', async () => {
    const answer = JSON.parse(await sh(examples('self-hosted')[3], server));
    expect(answer.status).to.equal('error');
    expect(answer.errors).to.deep.equal([
      { path: 'people/you/age/2025', message: 'age takes a number, got "thirty"' },
      { path: 'people/you/salary', message: 'unknown variable "salary" in uk' },
    ]);
  });

  it('lists the routes of the specification', async () => {
    expect((await sh(examples('self-hosted')[4], server)).trim()).to.equal('/ /liveness_check /readiness_check /specification /{country}/calculate');
  });
});

describe('docs/api/household.md: curl examples (hosted mode)', () => {
  let server: TestServer;
  let client: { client_id: string; client_secret: string };
  before(async () => {
    const dataDir = tempDir('docs');
    const store = ClientStore.open(dataDir);
    client = await store.add('docs');
    await store.close();
    server = await startTestServer({ countriesRoot: path.join(packageRoot(), 'countries'), dataDir, env: { AUTH_ENABLED: 'true', JWT_SECRET: 'docs-secret-0123456789abcdef0123456789' } });
  });
  after(async () => {
    await server.close();
  });

  it('has the documented examples', () => {
    expect(examples('hosted')).to.have.length(2);
  });

  it('gets a token and calculates with it', async () => {
    const answer = JSON.parse(await sh(examples('hosted')[0], server, { CLIENT_ID: client.client_id, CLIENT_SECRET: client.client_secret }));
    expect(answer.status, JSON.stringify(answer)).to.equal('ok');
    expect(answer.result.people.you.income_tax['2025']).to.be.a('number');
  });

  it('refuses a bad token the OAuth way', async () => {
    const answer = JSON.parse(await sh(examples('hosted')[1], server));
    expect(answer).to.deep.equal({ error: 'invalid_token', error_description: 'the access token is not valid: jwt malformed' });
  });
});
