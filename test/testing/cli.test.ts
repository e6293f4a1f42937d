import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { main } from '../../server/cli/main';
import { COUNTRY_DIR, TESTS_DIR } from './fixture';

async function cli(...args: string[]): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { out: (l) => out.push(l), err: (l) => err.push(l), cwd: TESTS_DIR });
  return { code, out, err };
}

describe('fiscus CLI', () => {
  it('--help lists the test command', async () => {
    const { code, out } = await cli('--help');
    expect(code).to.equal(0);
    expect(out.join('\n')).to.match(/Usage: fiscus <command>/).and.match(/\n {2}test {7}Run YAML tests/);
  });

  it('an unknown command is a usage error', async () => {
    const { code, err } = await cli('frobnicate');
    expect(code).to.equal(2);
    expect(err[0]).to.match(/^fiscus: unknown command 'frobnicate'/);
  });

  it('test --help prints the usage', async () => {
    const { code, out } = await cli('test', '--help');
    expect(code).to.equal(0);
    expect(out[0]).to.match(/^Usage: fiscus test <files or folders/);
  });
});

describe('fiscus test', () => {
  it('runs a folder (recursively, .yaml and .yml, names with spaces) and reports every failure', async () => {
    const json = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-cli-')), 'out.json');
    const { code, out } = await cli('test', '.', '--country-dir', COUNTRY_DIR, '--json', json);
    expect(code).to.equal(1);
    expect(out[out.length - 1]).to.equal('4 passed, 3 failed');
    const text = out.join('\n');
    expect(text).to.contain('FAIL testland/broken.yaml :: (file)\n  testland/broken.yaml: invalid YAML:');
    expect(text).to.contain('FAIL testland/income_tax.yaml :: Wrong expectation\n  income_tax (person 0, 2024): expected 1000, got 1600: differs by 600 (absolute margin 0.001)');
    expect(text).to.contain('FAIL testland/sub/families and households.yml :: Unknown variable\n  input/salary: unknown variable salary');
    const report = JSON.parse(fs.readFileSync(json, 'utf8'));
    expect(report.passed).to.equal(4);
    expect(report.failed).to.equal(3);
    expect(report.results).to.have.length(7);
    expect(report.results.find((r: { name: string }) => r.name === 'Wrong expectation').failures[0]).to.include({ expected: 1000, actual: 1600 });
  });

  it('--name keeps cases whose name, keywords or file name contain the text', async () => {
    const byCase = await cli('test', 'testland', '--country-dir', COUNTRY_DIR, '--name', 'override');
    expect(byCase.out).to.deep.equal(['1 passed, 0 failed']);
    expect(byCase.code).to.equal(0);
    const byFile = await cli('test', 'testland', '--country-dir', COUNTRY_DIR, '--name', 'income_tax');
    expect(byFile.out[byFile.out.length - 1]).to.equal('3 passed, 1 failed');
  });

  it('usage errors exit with 2 and say why', async () => {
    const cases: [string[], string][] = [
      [['test'], 'fiscus test: give at least one test file or folder'],
      [['test', 'testland', '--bogus'], 'fiscus test: unknown option --bogus'],
      [['test', 'testland', '--country'], 'fiscus test: --country needs a value'],
      [['test', 'testland', '--country', 'atlantis'], "fiscus test: unknown country 'atlantis' (available: "],
      [['test', 'nowhere'], 'fiscus test: no such file or folder: nowhere'],
      [['test', 'testland'], 'fiscus test: cannot tell the country of testland/broken.yaml: use --country'],
      [['test', 'testland', '--country', 'uk', '--country-dir', '.'], 'fiscus test: give --country or --country-dir, not both'],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await cli(...args);
      expect(code, args.join(' ')).to.equal(2);
      expect(err[0], args.join(' ')).to.contain(message);
      expect(err[0]).to.contain('Usage: fiscus test');
    }
  });

  it('a country that cannot be loaded fails every case with the reason, without crashing', async () => {
    const { code, out, err } = await cli('test', 'testland/income_tax.yaml', '--country-dir', 'testland');
    expect(code).to.equal(1);
    expect(err[0]).to.match(/^fiscus test: cannot load country testland: .*country\.yaml not found/);
    expect(out[out.length - 1]).to.equal('0 passed, 4 failed');
    expect(out[1]).to.match(/^ {2}cannot load country testland: /);
  });

  it('a --json file that cannot be written is reported', async () => {
    const { code, err } = await cli('test', 'testland/income_tax.yaml', '--country-dir', COUNTRY_DIR, '--json', path.join(TESTS_DIR, 'no', 'such', 'dir.json'));
    expect(code).to.equal(2);
    expect(err[0]).to.match(/^fiscus test: cannot write .*dir\.json: ENOENT/);
  });
});
