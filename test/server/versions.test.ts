import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BundleError, compareVersions, readBundle, writeBundle } from '../../server/models/bundle';
import { FIXTURE_COUNTRIES, family, post, startTestServer, tempDir } from './helpers';

/** A copy of the test country whose version and tax rate we can change. */
function countryCopy(): { root: string; folder: string } {
  const root = tempDir('tree');
  const folder = path.join(root, 'tinyland');
  fs.cpSync(path.join(FIXTURE_COUNTRIES, 'tinyland'), folder, { recursive: true });
  return { root, folder };
}

function setVersion(folder: string, version: string): void {
  const file = path.join(folder, 'country.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^version: .*$/m, `version: ${version}`));
}

function setTopRate(folder: string, rate: number): void {
  const file = path.join(folder, 'parameters/gov/tax/rates.yaml');
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/(50_000\n\s+rate:\n\s+values:\n\s+2020-01-01: )[0-9.]+/, `$1${rate}`));
}

describe('model versions: bundles', () => {
  it('writes an immutable content-hashed bundle and reads it back verified', () => {
    const { folder } = countryCopy();
    const releases = tempDir('rel');
    const first = writeBundle(folder, releases);
    expect(first.created).to.equal(true);
    expect(first.file).to.equal(path.join(releases, 'tinyland', '1.0.0.json'));
    expect(first.bundle.hash).to.match(/^[0-9a-f]{64}$/);
    expect(Object.keys(first.bundle.files)).to.include.members(['country.yaml', 'variables/people.yaml', 'parameters/gov/tax/rates.yaml']);
    expect(readBundle(first.file).hash).to.equal(first.bundle.hash);
    // Same rules again: a no-op. Changed rules under the same version: refused.
    expect(writeBundle(folder, releases).created).to.equal(false);
    setTopRate(folder, 0.5);
    expect(() => writeBundle(folder, releases)).to.throw(BundleError, 'version 1.0.0 of tinyland is already released with different rules; bump "version"');
  });

  it('refuses a bundle whose content was modified or renamed', () => {
    const { folder } = countryCopy();
    const releases = tempDir('rel');
    const { file } = writeBundle(folder, releases);
    const tampered = JSON.parse(fs.readFileSync(file, 'utf8'));
    tampered.files['parameters/gov/tax/rates.yaml'] += '\n# edited';
    fs.writeFileSync(file, JSON.stringify(tampered));
    expect(() => readBundle(file)).to.throw(BundleError, 'content does not match its hash');
    writeBundle(folder, tempDir('x'));
    const renamed = path.join(releases, 'tinyland', '9.9.9.json');
    fs.writeFileSync(renamed, JSON.stringify(writeBundle(folder, tempDir('y')).bundle));
    expect(() => readBundle(renamed)).to.throw(BundleError, 'holds version 1.0.0, but is named 9.9.9.json');
  });

  it('orders versions numerically', () => {
    expect(compareVersions('1.10.0', '1.9.3')).to.be.greaterThan(0);
    expect(compareVersions('2.0.0', '2.0.0')).to.equal(0);
    expect(compareVersions('0.9.0', '1.0.0')).to.be.lessThan(0);
  });
});

describe('model versions: serving several versions at once (HTTP)', () => {
  it('serves current (newest release), frontier (working tree) and exact active versions', async () => {
    const { root, folder } = countryCopy();
    const releases = tempDir('rel');
    writeBundle(folder, releases); // 1.0.0: top rate 0.4
    setVersion(folder, '1.1.0');
    setTopRate(folder, 0.45);
    writeBundle(folder, releases); // 1.1.0: top rate 0.45
    setVersion(folder, '2.0.0-dev');
    setTopRate(folder, 0.5); // working tree: 0.5
    const server = await startTestServer({ countriesRoot: root, releasesRoot: releases });
    try {
      const tax = async (version?: string) => {
        const { status, body } = await post(`${server.url}/tinyland/calculate`, { household: family(), ...(version ? { version } : {}) });
        expect(status, version).to.equal(200);
        return [body.service_bundle.model_version, body.result.people.parent.income_tax['2025']];
      };
      // 60k: 20% of 40k + top rate on 10k.
      expect(await tax()).to.deep.equal(['1.1.0', 8000 + 4500]);
      expect(await tax('current')).to.deep.equal(['1.1.0', 8000 + 4500]);
      expect(await tax('frontier')).to.deep.equal(['2.0.0-dev', 8000 + 5000]);
      expect(await tax('1.0.0')).to.deep.equal(['1.0.0', 8000 + 4000]);
      expect(await tax('1.1.0')).to.deep.equal(['1.1.0', 8000 + 4500]);
      const refused = await post(`${server.url}/tinyland/calculate`, { household: family(), version: '1.2.0' });
      expect(refused.status).to.equal(422);
      expect(refused.body.available_versions).to.deep.equal({ current: '1.1.0', frontier: '2.0.0-dev' });
      expect(refused.body.message).to.contain('or an active version (1.0.0, 1.1.0, 2.0.0-dev)');
    } finally {
      await server.close();
    }
  });

  it('serves a country from its bundles alone when there is no working tree', async () => {
    const { folder } = countryCopy();
    const releases = tempDir('rel');
    writeBundle(folder, releases);
    const server = await startTestServer({ countriesRoot: tempDir('empty'), releasesRoot: releases });
    try {
      const { status, body } = await post(`${server.url}/tinyland/calculate`, { household: family(), version: 'frontier' });
      expect(status).to.equal(200);
      expect(body.service_bundle.model_version).to.equal('1.0.0');
    } finally {
      await server.close();
    }
  });
});
