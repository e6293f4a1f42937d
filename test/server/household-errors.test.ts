import { expect } from 'chai';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURE_COUNTRIES, family, get, post, startTestServer, tempDir, type TestServer } from './helpers';

describe('household API: errors (HTTP)', () => {
  let server: TestServer;
  let url: string;
  before(async () => {
    server = await startTestServer({ limits: { maxBodyBytes: 4096, maxPeople: 3, maxAxisPoints: 50 } });
    url = `${server.url}/tinyland/calculate`;
  });
  after(async () => {
    await server.close();
  });

  function paths(body: { errors?: { path: string }[] }): string[] {
    return (body.errors ?? []).map((e) => e.path);
  }

  it('malformed JSON: 400 naming the parse error', async () => {
    const { status, body } = await post(url, '{"household": {');
    expect(status).to.equal(400);
    expect(body.status).to.equal('error');
    expect(body.message).to.match(/^Malformed JSON in request body: /);
  });

  it('a body that is not an object: 400', async () => {
    const { status, body } = await post(url, '[1, 2]');
    expect(status).to.equal(400);
    expect(body.message).to.contain('must be a JSON object');
  });

  it('missing household: 400', async () => {
    const { status, body } = await post(url, { policy: {} });
    expect(status).to.equal(400);
    expect(body.message).to.contain('Request body has no "household"');
    expect(paths(body)).to.deep.equal(['household']);
  });

  it('unknown top-level fields and wrong shapes: 400 with each path', async () => {
    const { status, body } = await post(url, { household: { people: { you: { age: { '2025': [1] } } }, families: { f: { members: 'you' } } }, polcy: {} });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.include({ path: 'polcy', message: 'is not allowed here' });
    expect(body.errors).to.deep.include({ path: 'people/you/age/2025', message: 'must be number or string or boolean or null' });
    expect(body.errors).to.deep.include({ path: 'families/f/members', message: 'must be array' });
  });

  it('unknown group: 400 listing the groups of the country', async () => {
    const household = { ...family(), benunits: { b: { members: ['parent'] } } };
    const { status, body } = await post(url, { household });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.equal([{ path: 'benunits', message: 'is not a group of tinyland (groups: people, families, households)' }]);
  });

  it('unknown variable, wrong entity, bad value and enum name: 400 with every path', async () => {
    const household = {
      people: { you: { age: { '2025': 'forty' }, salary: { '2025': 1 }, region: { '2025': 'NORTH' }, is_adult: { '2025': 1 } } },
      households: { h: { members: ['you'], region: { '2025': 'EAST' } } },
    };
    const { status, body } = await post(url, { household });
    expect(status).to.equal(400);
    expect(body.message).to.match(/^Invalid household: people\/you\/age\/2025: age takes a number, got "forty"/);
    expect(body.errors).to.deep.include({ path: 'people/you/salary', message: 'unknown variable "salary" in tinyland' });
    expect(body.errors).to.deep.include({ path: 'people/you/region', message: 'region belongs to household, not person: put it under the households group' });
    expect(body.errors).to.deep.include({ path: 'people/you/is_adult/2025', message: 'is_adult takes true or false, got 1' });
    expect(body.errors).to.deep.include({ path: 'households/h/region/2025', message: '"EAST" is not a value of region (one of: NORTH, SOUTH)' });
  });

  it('unknown or repeated member, missing members: 400', async () => {
    const household = {
      people: { a: {}, b: {} },
      families: { f1: { members: ['a', 'zed'] }, f2: { members: ['a'] }, f3: {} },
    };
    const { status, body } = await post(url, { household });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.include({ path: 'families/f1/members/1', message: '"zed" is not a person of this household' });
    expect(body.errors).to.deep.include({ path: 'families/f2/members/0', message: '"a" is already a member of family "f1"' });
    expect(body.errors).to.deep.include({ path: 'families/f3/members', message: 'is required: list the ids of the people in this group' });
  });

  it('bad periods: not a period, or a month input for a yearly variable: 400', async () => {
    const household = { people: { you: { age: { '2025-13': 3, '2025-02': 4 }, income_tax: { 'next year': null } } } };
    const { status, body } = await post(url, { household });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.include({ path: 'people/you/age/2025-13', message: 'is not a period: a year like 2025 or a month like 2025-01' });
    expect(body.errors).to.deep.include({ path: 'people/you/income_tax/next year', message: 'is not a period: a year like 2025 or a month like 2025-01' });
    const month = await post(url, { household: { people: { you: { age: { '2025-02': 4 } } } } });
    expect(month.status).to.equal(400);
    expect(month.body.errors).to.deep.equal([{ path: 'people/you/age/2025-02', message: 'age is defined per year: give it for a year like 2025, not a month' }]);
  });

  it('bad policy paths, dates and values: 400 naming each', async () => {
    const policy = {
      'gov.tax.nothing': { '2025-01-01.2100-12-31': 1 },
      'gov.tax.rates': { '2025-01-01.2100-12-31': 1 },
      'gov.tax.rates[7].rate': { '2025-01-01.2100-12-31': 0.1 },
      'gov.benefit.amount': { '2025-01-01.2100-12-31': 'lots', '2025-02-30': 3 },
      'gov.benefit.in_effect': { '2025-01-01.2024-12-31': true },
      gov: { '2025-01-01': 1 },
    };
    const { status, body } = await post(url, { household: family(), policy });
    expect(status).to.equal(400);
    expect(body.message).to.match(/^Invalid policy: /);
    const byPath = Object.fromEntries(body.errors.map((e: { path: string; message: string }) => [e.path, e.message]));
    expect(byPath['policy/gov.tax.nothing']).to.match(/^is not a parameter: unknown parameter gov\.tax\.nothing/);
    expect(byPath['policy/gov.tax.rates']).to.equal('is a scale: change one bracket, e.g. gov.tax.rates[0].rate or gov.tax.rates[0].threshold');
    expect(byPath['policy/gov.tax.rates[7].rate']).to.equal('gov.tax.rates has 3 brackets; [7] does not exist');
    expect(byPath['policy/gov.benefit.amount/2025-01-01.2100-12-31']).to.equal('gov.benefit.amount takes a number, got "lots"');
    expect(byPath['policy/gov.benefit.amount/2025-02-30']).to.contain('is not a date range');
    expect(byPath['policy/gov.benefit.in_effect/2025-01-01.2024-12-31']).to.equal('ends (2024-12-31) before it starts (2025-01-01)');
    expect(byPath['policy/gov']).to.match(/^is a group of parameters, not a value: name one of its children \(tax, benefit|benefit, tax/);
  });

  it('a policy key that is not a date range is refused by the schema: 400', async () => {
    const { status, body } = await post(url, { household: family(), policy: { 'gov.benefit.amount': { soon: 1 } } });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.include({ path: 'policy/gov.benefit.amount/soon', message: 'is not a date range "YYYY-MM-DD.YYYY-MM-DD" or a start date "YYYY-MM-DD"' });
  });

  it('a body over the size limit: 413', async () => {
    const big = { household: { people: { a: { age: { '2025': 1 } } } }, pad: 'x'.repeat(5000) };
    const { status, body } = await post(url, big);
    expect(status).to.equal(413);
    expect(body).to.deep.equal({ status: 'error', message: 'Request body is larger than the limit of 4096 bytes' });
  });

  it('too many people: 400', async () => {
    const people = Object.fromEntries(['a', 'b', 'c', 'd'].map((id) => [id, {}]));
    const { status, body } = await post(url, { household: { people } });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.equal([{ path: 'people', message: 'has 4 people; the limit is 3' }]);
  });

  it('too many axis points, and bad axes: 400', async () => {
    const household = { people: { a: { income_tax: { '2025': null } } }, axes: [[{ name: 'employment_income', count: 10, min: 0, max: 1 }], [{ name: 'employment_income', count: 6, min: 0, max: 1 }]] };
    const { status, body } = await post(url, { household });
    expect(status).to.equal(400);
    expect(body.errors).to.deep.equal([{ path: 'axes', message: 'ask for 60 points; the limit is 50' }]);
    const bad = {
      people: { a: { income_tax: { '2025': null } } },
      axes: [[{ name: 'salary', count: 2, min: 0, max: 1 }, { name: 'employment_income', count: 3, min: 0, max: 1 }], [{ name: 'employment_income', count: 2, min: 0, max: 1, index: 4 }], [{ name: 'region', count: 1, min: 0, max: 1 }]],
    };
    const answer = await post(url, { household: bad });
    expect(answer.status).to.equal(400);
    expect(answer.body.errors).to.deep.equal([
      { path: 'axes/0/0/name', message: 'unknown variable "salary" in tinyland' },
      { path: 'axes/0/1/count', message: 'axes in one set vary together and need the same count (2)' },
      { path: 'axes/1/0/index', message: 'employment_income belongs to person and the household declares 1 of them; index 4 is out of range' },
      { path: 'axes/2/0/name', message: 'region is an enum variable; only numeric variables can vary along an axis' },
    ]);
  });

  it('unsupported version: 422 with the versions available', async () => {
    const { status, body } = await post(url, { household: family(), version: '0.0.1' });
    expect(status).to.equal(422);
    expect(body).to.deep.equal({
      status: 'error',
      code: 'unsupported_version',
      message: 'Version "0.0.1" of tinyland is not served here: use current (1.0.0), frontier (1.0.0) or an active version (1.0.0)',
      requested_version: '0.0.1',
      country_id: 'tinyland',
      available_versions: { current: '1.0.0', frontier: '1.0.0' },
    });
  });

  it('a failure inside a calculation is a 500 with a message, and the server keeps serving', async () => {
    const { status, body } = await post(url, { household: { people: { a: { cyclic_a: { '2025': null } } } } });
    expect(status).to.equal(500);
    expect(body.status).to.equal('error');
    expect(body.message).to.match(/^Error calculating household: .*dependency cycle: cyclic_a -> cyclic_b -> cyclic_a/);
    expect(server.logs.join('\n')).to.contain('dependency cycle');
    const after = await post(url, { household: family() });
    expect(after.status).to.equal(200);
  });

  it('unknown routes and methods answer JSON errors', async () => {
    const missing = await get(`${server.url}/nowhere`);
    expect(missing.status).to.equal(404);
    expect(missing.body).to.deep.equal({ status: 'error', message: 'No route GET /nowhere: see GET /specification' });
    const method = await get(url);
    expect(method.status).to.equal(405);
    expect(method.body).to.deep.equal({ status: 'error', message: 'GET is not allowed on /tinyland/calculate (allowed: POST)' });
    expect(method.headers.get('allow')).to.equal('POST');
  });
});

describe('household API: countries appear with their plugin', () => {
  it('answers 404 for a country without a plugin, and serves it once the plugin folder exists', async () => {
    const root = tempDir('countries');
    const server = await startTestServer({ countriesRoot: root });
    try {
      const before = await post(`${server.url}/tinyland/calculate`, { household: family() });
      expect(before.status).to.equal(404);
      expect(before.body).to.deep.equal({ status: 'error', message: 'Country "tinyland" is not available on this server' });
      const notReady = await get(`${server.url}/readiness_check`);
      expect(notReady.status).to.equal(503);
      fs.cpSync(path.join(FIXTURE_COUNTRIES, 'tinyland'), path.join(root, 'tinyland'), { recursive: true });
      const after = await post(`${server.url}/tinyland/calculate`, { household: family() });
      expect(after.status).to.equal(200);
      const us = await post(`${server.url}/us/calculate`, { household: family() });
      expect(us.status).to.equal(404);
      expect(us.body.message).to.equal('Country "us" is not available on this server (available: tinyland)');
      const traversal = await post(`${server.url}/..%2F..%2Fetc/calculate`, { household: family() });
      expect(traversal.status).to.equal(404);
    } finally {
      await server.close();
    }
  });
});

describe('household API: a broken country model', () => {
  it('answers 500 naming the broken file for that country only, and starts anyway', async () => {
    const root = tempDir('broken');
    fs.cpSync(path.join(FIXTURE_COUNTRIES, 'tinyland'), path.join(root, 'tinyland'), { recursive: true });
    fs.cpSync(path.join(FIXTURE_COUNTRIES, 'tinyland'), path.join(root, 'brokenland'), { recursive: true });
    const yaml = path.join(root, 'brokenland', 'country.yaml');
    fs.writeFileSync(yaml, fs.readFileSync(yaml, 'utf8').replace('id: tinyland', 'id: brokenland'));
    fs.writeFileSync(path.join(root, 'brokenland', 'variables', 'people.yaml'), 'age: [unclosed\n');
    const server = await startTestServer({ countriesRoot: root, warm: true });
    try {
      expect(server.logs.join('\n')).to.match(/warning: The brokenland model \(version 1\.0\.0\) failed to load: .*people\.yaml/);
      const broken = await post(`${server.url}/brokenland/calculate`, { household: family() });
      expect(broken.status).to.equal(500);
      expect(broken.body.message).to.match(/^The brokenland model \(version 1\.0\.0\) failed to load: .*people\.yaml/);
      const fine = await post(`${server.url}/tinyland/calculate`, { household: family() });
      expect(fine.status).to.equal(200);
    } finally {
      await server.close();
    }
  });
});
