/**
 * Runs the curl examples of docs/api/microsim.md (blocks after `<!-- tested: microsim -->`) against
 * a real server over the real UK model. The data modules are the test doubles of fakes.ts, so the
 * examples exercise the API itself; the example dataset file is one of theirs.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../server/cli/root';
import { startServer, type RunningServer } from '../../../server/start';
import { tempDir } from '../helpers';
import { fakeModules } from './fakes';

const DOC = path.join(packageRoot(), 'docs', 'api', 'microsim.md');

function examples(): string[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const out: string[] = [];
  const re = /<!-- tested: microsim -->\n```sh\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1]);
  return out;
}

function sh(script: string, url: string): Promise<string> {
  const body = script.replace(/http:\/\/localhost:8080/g, url);
  return new Promise((resolve, reject) => {
    execFile('bash', ['-euo', 'pipefail', '-c', body], { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 30000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`example failed: ${error.message}\n${stderr}\n--- script ---\n${body}`));
      else resolve(stdout.trim());
    });
  });
}

describe('docs/api/microsim.md: curl examples', function () {
  this.timeout(30000);
  let server: RunningServer;
  before(async () => {
    const storageDir = tempDir('docs-storage');
    fs.writeFileSync(path.join(storageDir, 'my-population.h5'), JSON.stringify({ year: 2025, households: 10 }));
    server = await startServer({ port: 0, countriesRoot: path.join(packageRoot(), 'countries'), releasesRoot: tempDir('releases'), env: {}, dataDir: tempDir('docs-data'), refreshMs: 0, log: () => undefined, microsim: { storage: { dialect: 'sqlite', file: path.join(tempDir('docs-db'), 'f.sqlite') }, storageDir, modules: fakeModules({ specs: [], delayMs: 20 }), defaultDatasets: false } });
  });
  after(async () => server?.close());

  it('has the documented examples', () => {
    expect(examples()).to.have.length(5);
  });

  it('walks through: register, find a parameter, write a policy, refuse a bad one, run a report', async () => {
    const [register, search, policy, bad, report] = examples();
    expect(JSON.parse(await sh(register, server.url))).to.deep.equal({ name: 'My population', year: 2025, tax_benefit_model_name: 'fiscus-uk' });
    expect(JSON.parse(await sh(search, server.url))).to.deep.equal({ name: 'gov.hmrc.income_tax.rates.uk[0].rate', label: 'Basic rate' });
    expect(JSON.parse(await sh(policy, server.url))).to.deep.equal({ name: 'Basic rate 21p', parameter_values: [{ parameter_name: 'gov.hmrc.income_tax.rates.uk[0].rate', value_json: 0.21, start_date: '2025-04-06' }] });
    expect(JSON.parse(await sh(bad, server.url))).to.deep.equal([{ index: 0, path: 'parameter_values/0/parameter_name', message: 'bracket index 7 is out of range: gov.hmrc.income_tax.rates.uk has 3 brackets (0-2)' }]);
    expect(JSON.parse(await sh(report, server.url))).to.deep.equal({ status: 'completed', programs: 1 });
  });
});
