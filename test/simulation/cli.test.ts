import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { main } from '../../server/cli/main';
import { writeDataset } from '../../server/datasets';
import { FLATLAND, flatland, tempDir } from './helpers';

function capture(cwd: string) {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (l: string) => out.push(l), err: (l: string) => err.push(l), cwd }, out, err };
}

describe('fiscus simulate and fiscus dataset', function () {
  this.timeout(120_000);
  const dir = tempDir('cli');
  const file = path.join(dir, 'flat.h5');
  before(() => writeDataset(file, flatland([
    { household: 1, family: 1, age: 40, earnings: 30000 },
    { household: 1, family: 1, age: 8, earnings: 0 },
    { household: 2, family: 2, age: 30, earnings: 10000 },
  ], [{ id: 1, weight: 10, region: 'NORTH' }, { id: 2, weight: 5, region: 'SOUTH' }])));

  it('prints a simulation summary as JSON', async () => {
    const c = capture(dir);
    const code = await main(['simulate', '--dataset', 'flat.h5', '--country', 'flatland', '--country-dir', FLATLAND, '--json', '--threads', '1', '--output', 'out'], c.io);
    expect(code, c.err.join('\n')).to.equal(0);
    const { summary } = JSON.parse(c.out.join('\n'));
    expect(summary.household_net_income).to.equal(10 * 25000 + 5 * 8000);
  });

  it('prints the report of a policy as tables', async () => {
    fs.writeFileSync(path.join(dir, 'policy.json'), JSON.stringify({ 'gov.tax.rate': 0.25 }));
    const c = capture(dir);
    const code = await main(['simulate', '--dataset', 'flat.h5', '--country', 'flatland', '--country-dir', FLATLAND, '--policy', 'policy.json', '--report'], c.io);
    expect(code, c.err.join('\n')).to.equal(0);
    const text = c.out.join('\n');
    expect(text).to.match(/budget: taxes \+0\.00bn/);
    expect(text).to.match(/^income_tax\s+tax/m);
  });

  it('refuses a report without a policy', async () => {
    const c = capture(dir);
    expect(await main(['simulate', '--dataset', 'flat.h5', '--country', 'flatland', '--country-dir', FLATLAND, '--report'], c.io)).to.equal(2);
    expect(c.err.join('\n')).to.match(/give --policy/);
  });

  it('synthesises, describes and checks a dataset', async () => {
    const c = capture(dir);
    expect(await main(['dataset', 'synth', 'uk', '--households', '50', '--seed', '3', 'uk.h5'], c.io)).to.equal(0);
    expect(c.out[0]).to.match(/50 households/);
    const info = capture(dir);
    expect(await main(['dataset', 'info', 'uk.h5'], info.io)).to.equal(0);
    expect(info.out[0]).to.equal('layout: fiscus');
    const check = capture(dir);
    expect(await main(['dataset', 'check', 'uk.h5', '--country', 'uk', '--json'], check.io)).to.equal(0);
    expect(JSON.parse(check.out.join('\n')).errors).to.deep.equal([]);
  });
});
