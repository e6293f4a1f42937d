import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseArgs } from '../../server/cli/args';
import { availableCountries, packageRoot } from '../../server/cli/root';
import { collectTestFiles, countryOfPath, displayPath } from '../../server/cli/test-files';

describe('fiscus CLI helpers', () => {
  it('parses positionals, valued options in both spellings, flags and --', () => {
    const parsed = parseArgs(['a', '--country', 'uk', '--json=out.json', '--fast', '--', '--not-an-option'], ['country', 'json'], ['fast']);
    expect(parsed.positionals).to.deep.equal(['a', '--not-an-option']);
    expect(parsed.options).to.deep.equal({ country: 'uk', json: 'out.json' });
    expect([...parsed.flags]).to.deep.equal(['fast']);
  });

  it('rejects unknown, repeated, empty and misused options', () => {
    expect(() => parseArgs(['--nope'], [])).to.throw('unknown option --nope');
    expect(() => parseArgs(['-x'], [])).to.throw('unknown option -x');
    expect(() => parseArgs(['--name', 'a', '--name', 'b'], ['name'])).to.throw('--name is given twice');
    expect(() => parseArgs(['--name='], ['name'])).to.throw('--name needs a value');
    expect(() => parseArgs(['--fast=1'], [], ['fast'])).to.throw('--fast takes no value');
  });

  it('finds the package root and its countries from the code location', () => {
    const root = packageRoot();
    expect(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).name).to.equal('fiscus');
    expect(availableCountries(root)).to.include('uk');
    expect(() => packageRoot(os.tmpdir())).to.throw(`cannot find the fiscus package root above ${os.tmpdir()}`);
  });

  it('takes the country from the path segment nearest the file', () => {
    expect(countryOfPath('/data/us/tests/uk/policy/a.yaml', ['uk', 'us'])).to.equal('uk');
    expect(countryOfPath('/data/us/policy/a.yaml', ['uk', 'us'])).to.equal('us');
    expect(countryOfPath('/data/policy/uk.yaml', ['uk', 'us'])).to.equal(undefined);
  });

  it('collects .yaml and .yml files recursively in name order, once each', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-files-'));
    fs.mkdirSync(path.join(dir, 'b'));
    for (const f of ['z.yaml', 'a copy.yml', 'notes.txt', 'b/c.YAML']) fs.writeFileSync(path.join(dir, f), '');
    const files = collectTestFiles([dir, path.join(dir, 'z.yaml')], '/');
    expect(files.map((f) => path.relative(dir, f))).to.deep.equal(['a copy.yml', path.join('b', 'c.YAML'), 'z.yaml']);
    fs.rmSync(dir, { recursive: true });
  });

  it('leaves out the rules of country and state modules', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-module-'));
    const files = ['country.yaml', 'parameters/p.yaml', 'variables/v.yaml', 'rule_sets/r.yaml', 'tests/t.yaml', 'states/xx/parameters/q.yaml', 'states/xx/variables/w.yaml', 'states/xx/tests/s.yaml', 'states/yy/variables/u.yaml'];
    for (const f of files) {
      fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      fs.writeFileSync(path.join(dir, f), '');
    }
    const found = collectTestFiles([dir, path.join(dir, 'variables/v.yaml')], '/').map((f) => path.relative(dir, f));
    expect(found).to.deep.equal([path.join('states', 'xx', 'tests', 's.yaml'), path.join('tests', 't.yaml'), path.join('variables', 'v.yaml')]);
    fs.rmSync(dir, { recursive: true });
  });

  it('shows paths relative to the working folder when inside it', () => {
    expect(displayPath('/a/b/c.yaml', '/a')).to.equal(path.join('b', 'c.yaml'));
    expect(displayPath('/x/c.yaml', '/a')).to.equal('/x/c.yaml');
  });
});
