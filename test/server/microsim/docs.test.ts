/**
 * Runs the curl examples of docs/api/microsim.md (blocks after `<!-- tested: microsim -->`) against
 * a real server over the real UK model and modules, as a reader would: from a folder whose
 * `.fiscus/storage` is the server's storage folder, with `npx fiscus` being this build's CLI.
 */
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { packageRoot } from '../../../server/cli/root';
import { startServer, type RunningServer } from '../../../server/start';
import { tempDir } from '../helpers';
import { ukOnlyCountries } from './support';

const DOC = path.join(packageRoot(), 'docs', 'api', 'microsim.md');
const CLI = path.join(packageRoot(), 'dist', 'server', 'cli', 'main.js');

function examples(): string[] {
  const text = fs.readFileSync(DOC, 'utf8');
  const out: string[] = [];
  const re = /<!-- tested: microsim -->\n```sh\n([\s\S]*?)```/g;
  for (let m = re.exec(text); m; m = re.exec(text)) out.push(m[1]);
  return out;
}

function sh(script: string, url: string, cwd: string): Promise<string> {
  const body = script.replace(/http:\/\/localhost:8080/g, url).replace(/\bnpx fiscus\b/g, `${JSON.stringify(process.execPath)} ${JSON.stringify(CLI)}`);
  return new Promise((resolve, reject) => {
    execFile('bash', ['-euo', 'pipefail', '-c', body], { cwd, env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, timeout: 90_000 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`example failed: ${error.message}\n${stderr}\n--- script ---\n${body}`));
      else resolve(stdout.trim());
    });
  });
}

describe('docs/api/microsim.md: curl examples', function () {
  this.timeout(120_000);
  let server: RunningServer;
  let cwd: string;
  before(async () => {
    cwd = tempDir('docs-reader');
    const storageDir = path.join(cwd, '.fiscus', 'storage');
    fs.mkdirSync(storageDir, { recursive: true });
    server = await startServer({ port: 0, countriesRoot: ukOnlyCountries(), releasesRoot: tempDir('releases'), env: {}, dataDir: tempDir('docs-data'), refreshMs: 0, log: () => undefined, microsim: { storage: { dialect: 'sqlite', file: path.join(tempDir('docs-db'), 'f.sqlite') }, storageDir, defaultDatasets: false, keepThreads: true } });
    void server.services!.warm();
  });
  after(async () => server?.close());

  it('has the documented examples', () => {
    expect(examples()).to.have.length(6);
  });

  it('walks through: synthesise, register, find a parameter, write a policy, refuse a bad one, run a report', async () => {
    const [synth, register, search, policy, bad, report] = examples();
    await sh(synth, server.url, cwd);
    expect(fs.existsSync(path.join(cwd, '.fiscus', 'storage', 'my-population.h5'))).to.equal(true);
    expect(JSON.parse(await sh(register, server.url, cwd))).to.deep.equal({ name: 'My population', year: 2025, tax_benefit_model_name: 'fiscus-uk' });
    expect(JSON.parse(await sh(search, server.url, cwd))).to.deep.equal({ name: 'gov.hmrc.income_tax.rates.uk[0].rate', label: 'Basic rate' });
    expect(JSON.parse(await sh(policy, server.url, cwd))).to.deep.equal({ name: 'Basic rate 21p', parameter_values: [{ parameter_name: 'gov.hmrc.income_tax.rates.uk[0].rate', value_json: 0.21, start_date: '2025-04-06' }] });
    expect(JSON.parse(await sh(bad, server.url, cwd))).to.deep.equal([{ index: 0, path: 'parameter_values/0/parameter_name', message: 'bracket index 7 is out of range: gov.hmrc.income_tax.rates.uk has 3 brackets (0-2)' }]);
    const lines = (await sh(report, server.url, cwd)).split('\n');
    expect(JSON.parse(lines[0])).to.deep.equal({ status: 'completed', deciles: 10, income_tax_change_positive: true });
    expect(lines[1]).to.equal('same report');
  });
});
