/**
 * PolicyEngine clients' payloads are accepted as they are: every request of the shared
 * household-API examples (../shared/api-examples, outside the repository) is posted to a real
 * server over the real country models and must come back with every null filled.
 */
import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../server/cli/root';
import { post, startTestServer, type TestServer } from './helpers';

const EXAMPLES = path.resolve(packageRoot(), '..', 'shared', 'api-examples');

type Household = Record<string, Record<string, Record<string, Record<string, unknown>>>>;

function nullSlots(household: Household): string[] {
  const out: string[] = [];
  for (const [plural, instances] of Object.entries(household)) {
    if (plural === 'axes') continue;
    for (const [id, variables] of Object.entries(instances)) {
      for (const [variable, periods] of Object.entries(variables)) {
        if (variable === 'members') continue;
        for (const [period, value] of Object.entries(periods)) if (value === null) out.push(`${plural}/${id}/${variable}/${period}`);
      }
    }
  }
  return out;
}

function at(household: Household, slot: string): unknown {
  const [plural, id, variable, period] = slot.split('/');
  return household[plural][id][variable][period];
}

describe('PolicyEngine household-API payloads (shared examples)', function () {
  let server: TestServer;
  before(async function () {
    if (!fs.existsSync(EXAMPLES)) this.skip();
    server = await startTestServer({ countriesRoot: path.join(packageRoot(), 'countries') });
  });
  after(async () => {
    await server?.close();
  });

  for (const country of ['uk', 'us']) {
    it(`${country}: every request is accepted and answered in full, or the country is reported missing`, async () => {
      const folder = path.join(EXAMPLES, country);
      const files = fs.readdirSync(folder).filter((f) => f.endsWith('.request.json'));
      expect(files.length).to.be.greaterThan(0);
      const available = fs.existsSync(path.join(packageRoot(), 'countries', country, 'country.yaml'));
      for (const file of files) {
        const request = JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'));
        const { status, body } = await post(`${server.url}/${country}/calculate`, request);
        if (!available) {
          expect(status, file).to.equal(404);
          expect(body.message).to.equal(`Country "${country}" is not available on this server (available: uk)`);
          continue;
        }
        expect(status, `${file}: ${JSON.stringify(body).slice(0, 300)}`).to.equal(200);
        for (const slot of nullSlots(request.household)) {
          const value = at(body.result, slot);
          expect(['number', 'string', 'boolean'], `${file} ${slot}`).to.include(typeof value);
        }
      }
    });
  }
});
