import { expect } from 'chai';
import Ajv from 'ajv';
import { family, get, post, startTestServer, type TestServer } from './helpers';

describe('household API: calculations (HTTP, auth off)', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server.close();
  });

  it('fills every null of the household and echoes the inputs', async () => {
    const household = family();
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    expect(body.status).to.equal('ok');
    expect(body.message).to.equal(null);
    expect(body.service_bundle).to.deep.equal({ model_version: '1.0.0', data_version: null, dataset: null });
    const r = body.result;
    // 60k: 0 on 10k, 20% on 40k, 40% on 10k.
    expect(r.people.parent.income_tax['2025']).to.equal(12000);
    expect(r.people.partner.income_tax['2025']).to.equal(2000);
    expect(r.people.parent.tax_band['2025']).to.equal('HIGHER');
    expect(r.people.child.is_adult['2025']).to.equal(false);
    expect(r.families.fam.child_count['2025']).to.equal(1);
    // Monthly variable: a month key gives that month (rate 120 from April 2025), a year key sums 12 months.
    expect(r.families.fam.family_benefit['2025-06']).to.equal(120);
    expect(r.families.fam.family_benefit['2025']).to.equal(3 * 100 + 9 * 120);
    expect(r.households.home.household_net_income['2025']).to.equal(80000 - 14000 + 12 * 120);
    expect(r.people.parent.age).to.deep.equal({ '2025': 40 });
    expect(r.households.home.region).to.deep.equal({ '2025': 'SOUTH' });
    expect(r.households.home.members).to.deep.equal(['parent', 'partner', 'child']);
  });

  it('warns, per household and year, where the country says its rules do not cover the result', async () => {
    const household = family() as { households: { home: Record<string, unknown> } };
    household.households.home.region = { 2025: 'NORTH' };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    expect(body.warnings).to.deep.equal([{ path: 'households/home', period: '2025', message: 'Region NORTH has no rules yet' }]);
    const covered = await post(`${server.url}/tinyland/calculate`, { household: family() });
    expect(covered.body).to.not.have.property('warnings');
  });

  it("answers a reference model's variable it does not have with a warning: an input is not used, an output stays null", async () => {
    const household = family() as { people: { parent: Record<string, unknown> }; families: { fam: Record<string, unknown> } };
    household.people.parent.pension_income = { 2025: 5000 };
    household.families.fam.family_grant = { '2025-06': null };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    expect(body.result.people.parent.income_tax['2025']).to.equal(12000);
    expect(body.result.people.parent.pension_income).to.deep.equal({ 2025: 5000 });
    expect(body.result.families.fam.family_grant).to.deep.equal({ '2025-06': null });
    expect(body.warnings).to.deep.equal([
      { path: 'people/parent/pension_income', period: '2025', message: 'pension_income is a Bigland variable this model does not have: the value given is not used' },
      { path: 'families/fam/family_grant', period: '2025-06', message: 'family_grant is a Bigland variable this model does not compute: its value is left null' },
    ]);
  });

  it("refuses a reference model's variable in the wrong group, and a name no model has", async () => {
    const household = family() as { households: { home: Record<string, unknown> }; people: { parent: Record<string, unknown> } };
    household.households.home.pension_income = { 2025: null };
    household.people.parent.pension_incme = { 2025: 1 };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.equal([
      { path: 'people/parent/pension_incme', message: 'unknown variable "pension_incme" in tinyland' },
      { path: 'households/home/pension_income', message: 'pension_income belongs to person, not household: put it under the people group' },
    ]);
  });

  it('applies a policy with a bracket path', async () => {
    const policy = { 'gov.tax.rates[1].rate': { '2025-01-01.2100-12-31': 0.25 } };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household: family(), policy });
    expect(status).to.equal(200);
    expect(body.result.people.parent.income_tax['2025']).to.equal(40000 * 0.25 + 10000 * 0.4);
    // The baseline is untouched by an earlier reform (compiled models are cached per reform).
    const again = await post(`${server.url}/tinyland/calculate`, { household: family() });
    expect(again.body.result.people.parent.income_tax['2025']).to.equal(12000);
  });

  it('accepts a bool parameter reform', async () => {
    const policy = { 'gov.benefit.in_effect': { '2025-01-01.2100-12-31': false } };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household: family(), policy });
    expect(status).to.equal(200);
    expect(body.result.families.fam.family_benefit['2025']).to.equal(0);
  });

  it('gives a yearly output for a month key (divided by 12, as PolicyEngine does)', async () => {
    const household = { people: { p: { employment_income: { '2025': 60000 }, income_tax: { '2025-03': null } } } };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    expect(body.result.people.p.income_tax['2025-03']).to.equal(1000);
  });

  it('takes eternity variables under any period key', async () => {
    const household = { people: { p: { birth_year: { '2025': 1990 }, income_tax: { '2025': null } }, q: { birth_year: { '2024': null } } } };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    expect(body.result.people.p.birth_year).to.deep.equal({ '2025': 1990 });
    expect(body.result.people.q.birth_year).to.deep.equal({ '2024': 0 });
    expect(body.result.people.p.income_tax['2025']).to.equal(0);
  });

  it('varies an input along one axis: outputs become arrays', async () => {
    const household = {
      people: { a: { age: { '2025': 30 }, income_tax: { '2025': null } }, b: { age: { '2025': 30 }, employment_income: { '2025': 5000 }, income_tax: { '2025': null } } },
      households: { h: { members: ['a', 'b'], household_net_income: { '2025': null } } },
      axes: [[{ name: 'employment_income', count: 4, min: 0, max: 60000, period: '2025' }]],
    };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    // Person a (index 0) varies over 0, 20k, 40k, 60k; b keeps 5000.
    expect(body.result.people.a.income_tax['2025']).to.deep.equal([0, 2000, 6000, 12000]);
    expect(body.result.people.b.income_tax['2025']).to.deep.equal([0, 0, 0, 0]);
    expect(body.result.households.h.household_net_income['2025']).to.deep.equal([5000, 23000, 39000, 53000]);
    expect(body.result.axes).to.deep.equal(household.axes);
  });

  it('crosses perpendicular axes with the first varying fastest, and takes index and a default period', async () => {
    const household = {
      people: { a: { age: { '2025': 30 }, income_tax: { '2025': null } }, b: { age: { '2025': 30 }, income_tax: { '2025': null } } },
      axes: [[{ name: 'employment_income', count: 2, min: 0, max: 20000 }], [{ name: 'employment_income', count: 3, min: 0, max: 60000, index: 1 }]],
    };
    const { status, body } = await post(`${server.url}/tinyland/calculate`, { household });
    expect(status).to.equal(200);
    expect(body.result.people.a.income_tax['2025']).to.deep.equal([0, 2000, 0, 2000, 0, 2000]);
    expect(body.result.people.b.income_tax['2025']).to.deep.equal([0, 0, 4000, 4000, 12000, 12000]);
  });

  it('serves versions: current and frontier are the working tree when nothing is released, and its exact version', async () => {
    for (const version of ['current', 'frontier', '1.0.0']) {
      const { status, body } = await post(`${server.url}/tinyland/calculate`, { household: family(), version });
      expect(status, version).to.equal(200);
      expect(body.service_bundle.model_version).to.equal('1.0.0');
    }
  });

  it('describes itself at GET /', async () => {
    const { status, body } = await get(`${server.url}/`);
    expect(status).to.equal(200);
    expect(body.name).to.equal('fiscus');
    expect(body.auth).to.deep.equal({ type: 'none' });
    expect(body.countries).to.deep.include({ id: 'tinyland', versions: { current: '1.0.0', frontier: '1.0.0' } });
  });

  it('answers liveness and readiness checks', async () => {
    const live = await get(`${server.url}/liveness_check`);
    expect(live.status).to.equal(200);
    expect(live.body).to.equal('OK');
    const ready = await get(`${server.url}/readiness_check`);
    expect(ready.status).to.equal(200);
    expect(ready.body).to.equal('OK');
  });

  it('publishes an OpenAPI document whose schemas accept real requests and answers', async () => {
    const { status, body } = await get(`${server.url}/specification`);
    expect(status).to.equal(200);
    expect(body.openapi).to.equal('3.1.0');
    expect(body.paths).to.have.keys('/', '/liveness_check', '/readiness_check', '/specification', '/{country}/calculate');
    expect(body.paths['/{country}/calculate'].post.parameters[0].schema.enum).to.deep.equal(['tinyland']);
    const ajv = new Ajv({ strict: false, allowUnionTypes: true });
    for (const [name, schema] of Object.entries(body.components.schemas)) ajv.addSchema(schema as object, `#/components/schemas/${name}`);
    const answer = await post(`${server.url}/tinyland/calculate`, { household: family() });
    const checkRequest = ajv.compile(body.components.schemas.CalculateRequest);
    const checkAnswer = ajv.compile(body.components.schemas.CalculateResponse);
    expect(checkRequest({ household: family() })).to.equal(true);
    expect(checkRequest({ household: family(), extra: 1 })).to.equal(false);
    expect(checkAnswer(answer.body)).to.equal(true);
  });
});
