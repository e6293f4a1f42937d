/**
 * The microsimulation API's catalogue, policies, dynamics, errors and limits over HTTP on
 * loopback, on SQLite and on PostgreSQL, with the small test country (datasets, simulations and
 * reports run the real UK model: simulations.test.ts).
 */
import { expect } from 'chai';
import * as path from 'node:path';
import { startServer, type RunningServer } from '../../../server/start';
import { forEachDatabase } from '../../support/databases';
import { FIXTURE_COUNTRIES, get, post, tempDir } from '../helpers';
import { del } from './support';

forEachDatabase('microsimulation API', (config) => {
  let server: RunningServer;
  let url: string;
  before(async () => {
    server = await startServer({ port: 0, countriesRoot: FIXTURE_COUNTRIES, releasesRoot: tempDir('releases'), env: {}, dataDir: tempDir('data'), refreshMs: 0, log: () => undefined, microsim: { storage: config(), storageDir: tempDir('storage'), defaultDatasets: false, warm: false } });
    url = server.url;
    await server.services!.background;
  });
  after(async () => server?.close());

  it('lists models; every accepted model name resolves to the same model', async () => {
    const models = (await get(`${url}/tax-benefit-models`)).body;
    expect(models.map((m: { name: string }) => m.name)).to.deep.equal(['fiscus-tinyland']);
    const one = await get(`${url}/tax-benefit-models/${models[0].id}`);
    expect(one.body.versions).to.have.length(1);
    for (const name of ['fiscus-tinyland', 'fiscus_tinyland', 'tinyland', 'service_tinyland', 'policyengine_tinyland']) {
      const versions = await get(`${url}/tax-benefit-model-versions?tax_benefit_model_name=${name}`);
      expect(versions.status, name).to.equal(200);
      expect(versions.body[0].model_id).to.equal(models[0].id);
    }
    expect((await get(`${url}/tax-benefit-model-versions?tax_benefit_model_name=fiscus-atlantis`)).status).to.equal(404);
  });

  it('lists, searches and pages parameters, values and variables', async () => {
    const all = (await get(`${url}/parameters?tax_benefit_model_name=tinyland`)).body;
    expect(all.map((p: { name: string }) => p.name)).to.include.members(['gov.benefit.amount', 'gov.tax.rates[2].rate']);
    const page = (await get(`${url}/parameters?limit=2&offset=1`)).body;
    expect(page.map((p: { name: string }) => p.name)).to.deep.equal(all.slice(1, 3).map((p: { name: string }) => p.name));
    const found = (await get(`${url}/parameters?search=benefit%20per%20child`)).body;
    expect(found.map((p: { name: string }) => p.name)).to.deep.equal(['gov.benefit.amount']);
    const values = (await get(`${url}/parameter-values?parameter_id=${found[0].id}&baseline=true`)).body;
    expect(values.map((v: { value_json: number }) => v.value_json)).to.deep.equal([100, 120]);
    expect((await get(`${url}/parameter-values/${values[0].id}`)).body.start_date).to.equal('2020-01-01');
    const variables = (await get(`${url}/variables?search=income_tax`)).body;
    expect(variables[0]).to.include({ name: 'income_tax', entity: 'person', is_input: false });
    expect((await get(`${url}/variables/${variables[0].id}`)).body.name).to.equal('income_tax');
  });

  it('answers errors as {detail}: 404 for unknown ids and routes, 422 with paths for bad queries', async () => {
    expect(await get(`${url}/parameters/00000000-0000-4000-8000-000000000000`)).to.deep.include({ status: 404, body: { detail: 'No parameter with id 00000000-0000-4000-8000-000000000000' } });
    expect((await get(`${url}/policies/not-an-id`)).status).to.equal(404);
    const bad = await get(`${url}/parameters?limit=100000&offset=-1&colour=red`);
    expect(bad.status).to.equal(422);
    expect(bad.body.errors.map((e: { path: string }) => e.path)).to.have.members(['query/limit', 'query/offset', 'query/colour']);
  });

  it('creates a policy; refuses a bad one with every bad item, storing nothing', async () => {
    const before = (await get(`${url}/policies`)).body.length;
    const bad = await post(`${url}/policies`, {
      name: 'bad',
      tax_benefit_model_name: 'tinyland',
      parameter_values: [
        { parameter_name: 'gov.tax.rates[1].rate', value_json: 0.25, start_date: '2025-01-01' },
        { parameter_name: 'gov.tax.rates[7].rate', value_json: 0.25, start_date: '2025-01-01' },
        { parameter_name: 'gov.benefit.in_effect', value_json: 3, start_date: '2025-01-01', end_date: '2024-01-01' },
        { parameter_name: 'gov.nothing', value_json: 1, start_date: '2025-02-30' },
      ],
    });
    expect(bad.status).to.equal(422);
    expect(bad.body.errors.map((e: { index: number; path: string }) => [e.index, e.path])).to.deep.equal([
      [1, 'parameter_values/1/parameter_name'],
      [2, 'parameter_values/2/value_json'],
      [2, 'parameter_values/2/end_date'],
      [3, 'parameter_values/3/parameter_name'],
    ]);
    expect(bad.body.errors[0].message).to.equal('bracket index 7 is out of range: gov.tax.rates has 3 brackets (0-2)');
    expect((await get(`${url}/policies`)).body.length).to.equal(before);
    expect((await get(`${url}/parameter-values?limit=1000`)).body.every((v: { policy_id: string | null }) => v.policy_id === null)).to.equal(true);
    const good = await post(`${url}/policies`, { name: 'higher basic rate', parameter_values: [{ parameter_name: 'gov.tax.rates[1].rate', value_json: 0.25, start_date: '2025-01-01T00:00:00Z', end_date: null }] });
    expect(good.status).to.equal(201);
    expect(good.body.parameter_values[0]).to.include({ parameter_name: 'gov.tax.rates[1].rate', value_json: 0.25, start_date: '2025-01-01', end_date: null });
    expect((await get(`${url}/policies/${good.body.id}`)).body.name).to.equal('higher basic rate');
    expect((await get(`${url}/parameter-values?policy_id=${good.body.id}`)).body).to.have.length(1);
  });

  it('keeps dynamics to behavioural parameters', async () => {
    const bad = await post(`${url}/dynamics`, { name: 'd', parameter_values: [{ parameter_name: 'gov.tax.rates[1].rate', value_json: 0.1, start_date: '2025-01-01' }] });
    expect(bad.status).to.equal(422);
    expect(bad.body.errors[0].message).to.match(/not a behavioural parameter/);
    const empty = await post(`${url}/dynamics`, { name: 'no responses' });
    expect(empty.status).to.equal(201);
    expect((await del(`${url}/dynamics/${empty.body.id}`)).status).to.equal(204);
    expect((await get(`${url}/dynamics/${empty.body.id}`)).status).to.equal(404);
  });

  it('refuses oversized bodies with 413 and publishes both interfaces in /specification', async () => {
    const big = await post(`${url}/policies`, { name: 'x'.repeat(2 * 1024 * 1024) });
    expect(big.status).to.equal(413);
    expect(big.body.detail).to.match(/larger than the limit/);
    const spec = (await get(`${url}/specification`)).body;
    expect(Object.keys(spec.paths)).to.include.members(['/{country}/calculate', '/policies', '/datasets/upload', '/analysis/economic-impact/{id}', '/regions']);
    expect(spec.components.schemas.ParameterSetInput.properties.parameter_values.items.required).to.deep.equal(['value_json', 'start_date']);
  });
});

describe('microsimulation API in hosted mode', () => {
  it('needs a bearer token on every microsimulation route', async () => {
    const server = await startServer({ port: 0, countriesRoot: FIXTURE_COUNTRIES, env: { AUTH_ENABLED: 'true', JWT_SECRET: 'hosted-secret-0123456789abcdef0123456789' }, dataDir: tempDir('data'), refreshMs: 0, log: () => undefined, microsim: { storage: { dialect: 'sqlite', file: path.join(tempDir('db'), 'f.sqlite') }, storageDir: tempDir('st'), defaultDatasets: false, warm: false } });
    try {
      for (const route of ['/tax-benefit-models', '/parameters', '/policies', '/datasets', '/simulations', '/regions']) {
        const answer = await get(`${server.url}${route}`);
        expect(answer.status, route).to.equal(401);
        expect(answer.body.error).to.equal('invalid_request');
      }
      expect((await post(`${server.url}/policies`, { name: 'x' })).status).to.equal(401);
    } finally {
      await server.close();
    }
  });
});
