import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CliIO } from '../../server/cli/command';
import { main } from '../../server/cli/main';
import { ClientStore } from '../../server/auth/client-store';
import { portFrom, workersFrom } from '../../server/cli/commands/serve';
import { FIXTURE_COUNTRIES, family, tempDir } from './helpers';

function capture(cwd: string): CliIO & { lines: string[]; errors: string[] } {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: (l) => lines.push(l), err: (l) => errors.push(l), cwd };
}

describe('CLI: fiscus clients', () => {
  it('adds, lists and removes clients; the secret printed once verifies', async () => {
    const dir = tempDir('cli-clients');
    const io = capture(dir);
    expect(await main(['clients', 'add', 'partner-app', '--data-dir', 'db'], io)).to.equal(0);
    const id = /client_id:\s+(\S+)/.exec(io.lines.join('\n'))![1];
    const secret = /client_secret:\s+(\S+)/.exec(io.lines.join('\n'))![1];
    expect(io.lines.join('\n')).to.contain('cannot be shown again');
    const store = ClientStore.open(path.join(dir, 'db'));
    expect((await store.verify(id, secret))?.name).to.equal('partner-app');
    await store.close();
    const list = capture(dir);
    expect(await main(['clients', 'list', '--data-dir', 'db'], list)).to.equal(0);
    expect(list.lines[0]).to.match(new RegExp(`^partner-app\\t${id}\\t`));
    expect(list.lines.join('\n')).not.to.contain(secret);
    const again = capture(dir);
    expect(await main(['clients', 'add', 'partner-app', '--data-dir', 'db'], again)).to.equal(1);
    expect(again.errors).to.deep.equal(['fiscus clients: a client named "partner-app" already exists (remove it first to issue a new secret)']);
    expect(await main(['clients', 'remove', 'partner-app', '--data-dir', 'db'], capture(dir))).to.equal(0);
    const gone = capture(dir);
    expect(await main(['clients', 'remove', 'partner-app', '--data-dir', 'db'], gone)).to.equal(1);
    expect(gone.errors).to.deep.equal(['fiscus clients: no client named "partner-app"']);
  });

  it('rejects bad command lines with usage errors', async () => {
    const io = capture(tempDir('cli-usage'));
    expect(await main(['clients', 'add'], io)).to.equal(2);
    expect(io.errors[0]).to.match(/^fiscus clients: add needs a client NAME/);
    const io2 = capture(tempDir('cli-usage'));
    expect(await main(['clients', 'rotate', 'x'], io2)).to.equal(2);
    expect(io2.errors[0]).to.match(/^fiscus clients: unknown action "rotate" \(add, list, remove\)/);
  });
});

describe('CLI: fiscus bundle and fiscus calc', () => {
  it('releases a country once, refuses a changed release, and calc answers like the API', async () => {
    const dir = tempDir('cli-bundle');
    fs.cpSync(path.join(FIXTURE_COUNTRIES, 'tinyland'), path.join(dir, 'countries', 'tinyland'), { recursive: true });
    const io = capture(dir);
    expect(await main(['bundle', 'tinyland', '--countries', 'countries', '--releases', 'releases'], io)).to.equal(0);
    expect(io.lines[0]).to.match(/^released tinyland 1\.0\.0 -> .*releases\/tinyland\/1\.0\.0\.json \(sha256 [0-9a-f]{64}\)$/);
    const same = capture(dir);
    expect(await main(['bundle', 'tinyland', '--countries', 'countries', '--releases', 'releases'], same)).to.equal(0);
    expect(same.lines[0]).to.contain('is already released with the same rules');
    fs.appendFileSync(path.join(dir, 'countries/tinyland/variables/people.yaml'), '\nextra_input:\n  entity: person\n  period: year\n  type: float\n');
    const changed = capture(dir);
    expect(await main(['bundle', 'tinyland', '--countries', 'countries', '--releases', 'releases'], changed)).to.equal(1);
    expect(changed.errors[0]).to.contain('version 1.0.0 of tinyland is already released with different rules');
    const missing = capture(dir);
    expect(await main(['bundle', 'atlantis', '--countries', 'countries', '--releases', 'releases'], missing)).to.equal(1);
    expect(missing.errors[0]).to.match(/^fiscus bundle: no country plugin at .*atlantis \(country.yaml missing\)$/);

    fs.writeFileSync(path.join(dir, 'request.json'), JSON.stringify({ household: family(), version: '1.0.0' }));
    const calc = capture(dir);
    expect(await main(['calc', 'tinyland', 'request.json', '--countries', 'countries', '--releases', 'releases'], calc)).to.equal(0);
    const answer = JSON.parse(calc.lines.join('\n'));
    expect(answer.status).to.equal('ok');
    expect(answer.result.people.parent.income_tax['2025']).to.equal(12000);
    fs.writeFileSync(path.join(dir, 'bad.json'), JSON.stringify({ household: { people: { a: { wage: { '2025': 1 } } } } }));
    const bad = capture(dir);
    expect(await main(['calc', 'tinyland', 'bad.json', '--countries', 'countries'], bad)).to.equal(1);
    expect(bad.errors).to.deep.equal(['fiscus calc: 400: Invalid household: people/a/wage: unknown variable "wage" in tinyland']);
  });
});

describe('CLI: fiscus serve options', () => {
  it('takes the port from --port, else PORT, else 8080', () => {
    expect(portFrom('9000', { PORT: '7000' })).to.equal(9000);
    expect(portFrom(undefined, { PORT: '7000' })).to.equal(7000);
    expect(portFrom(undefined, {})).to.equal(8080);
    expect(() => portFrom('http', {})).to.throw('port must be a number from 0 to 65535, got "http"');
    expect(() => portFrom(undefined, { PORT: '70000' })).to.throw('got "70000" (from PORT)');
  });

  it('takes the worker count from --workers, else WEB_CONCURRENCY, else 1', () => {
    expect(workersFrom('2', {})).to.equal(2);
    expect(workersFrom(undefined, { WEB_CONCURRENCY: '3' })).to.equal(3);
    expect(workersFrom(undefined, {})).to.equal(1);
    expect(() => workersFrom('0', {})).to.throw('workers must be a number from 1 to 64, got "0"');
  });

  it('refuses to start hosted mode without a signing key', async () => {
    const saved = { ...process.env };
    process.env.AUTH_ENABLED = 'true';
    delete process.env.JWT_SECRET;
    delete process.env.JWT_PRIVATE_KEY_FILE;
    delete process.env.AUTH_JWKS_URL;
    try {
      const io = capture(tempDir('serve'));
      expect(await main(['serve', '--port', '0'], io)).to.equal(1);
      expect(io.errors[0]).to.match(/^fiscus serve: configuration error: AUTH_ENABLED=true needs a signing key/);
    } finally {
      process.env = saved;
    }
  });
});

describe('CLI: fiscus variables', () => {
  const fixture = path.resolve(__dirname, '../../../test/fixtures/country');

  it('prints the catalogue as JSON with types, enum values, defaults and inputs marked', async () => {
    const io = capture(process.cwd());
    expect(await main(['variables', 'fixture', '--country-dir', fixture, '--json'], io)).to.equal(0);
    const list = JSON.parse(io.lines.join('\n')) as { name: string; is_input: boolean; possible_values: string[] | null; default_value: unknown; entity: string }[];
    const names = list.map((v) => v.name);
    expect(names).to.deep.equal([...names].sort());
    const region = list.find((v) => v.possible_values?.includes('CAPITAL'))!;
    expect(region.possible_values).to.deep.equal(['NORTH', 'SOUTH', 'CAPITAL']);
    expect(list.some((v) => v.is_input)).to.equal(true);
    expect(list.some((v) => !v.is_input)).to.equal(true);
  });

  it('filters with --search and prints a table ending with the count', async () => {
    const io = capture(process.cwd());
    expect(await main(['variables', 'fixture', '--country-dir', fixture, '--search', 'CAPITAL_NOT_A_NAME'], io)).to.equal(0);
    expect(io.lines[io.lines.length - 1]).to.equal('0 variables');
    const uk = capture(process.cwd());
    expect(await main(['variables', 'uk', '--search', 'income_tax'], uk)).to.equal(0);
    expect(uk.lines.some((l) => l.startsWith('income_tax\tperson\tyear\tfloat'))).to.equal(true);
  });

  it('refuses an unknown country with a usage error', async () => {
    const io = capture(process.cwd());
    expect(await main(['variables', 'atlantis'], io)).to.equal(2);
    expect(io.errors[0]).to.match(/unknown country 'atlantis'/);
  });
});
