import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { EngineError } from '../../core/types';
import { ParameterError } from '../../parameters/types';
import { buildBundle, materialiseBundle } from '../../server/models/bundle';
import { sim } from './helpers';

const COUNTRY = `id: t\nlabel: T\nversion: 1.0.0\ncurrency: X\nyear_instant: "01-01"\nmodules: ["regions/*"]\nentities:\n  - {key: person, plural: people, person: true}\n  - {key: household, plural: households}\n`;

function write(root: string, files: Record<string, string | Buffer>): string {
  for (const [rel, text] of Object.entries(files)) {
    const target = path.join(root, rel);
    fs.mkdirSync(path.dirname(target), { recursive: true });
    fs.writeFileSync(target, text);
  }
  return root;
}

function modular(extra: Record<string, string> = {}): string {
  return write(fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-modules-')), {
    'country.yaml': COUNTRY,
    'variables/base.yaml': 'income:\n  entity: person\n  period: year\n  type: float\n',
    'parameters/gov/base_rate.yaml': 'values:\n  2020-01-01: 0.25\n',
    'regions/north/variables/north.yaml': 'north_tax:\n  entity: person\n  period: year\n  type: float\n  formula: income * (gov.base_rate + gov.regions.north.rate)\n',
    'regions/north/parameters/gov/regions/north/rate.yaml': 'values:\n  2020-01-01: 0.25\n',
    'regions/north/tests/north.yaml': '- name: a test file is not part of the rules\n',
    'regions/south/variables/south.yaml': 'south_tax:\n  entity: person\n  period: year\n  type: float\n  formula: income * gov.regions.south.rate\n',
    'regions/south/parameters/gov/regions/south/rate.yaml': 'values:\n  2020-01-01: 0.2\n',
    ...extra,
  });
}

describe('core: country modules', () => {
  it('loads each module folder\'s variables and parameters into one model', () => {
    const model = CountryModel.load(modular());
    expect(model.country.modules.map((m) => path.basename(m))).to.deep.equal(['north', 'south']);
    const s = sim(model, ['a']);
    s.setInput('income', '2024', [1000]);
    expect(Array.from(s.calculate('north_tax', '2024'))).to.deep.equal([500]);
    expect(Array.from(s.calculate('south_tax', '2024'))).to.deep.equal([200]);
  });

  it('refuses a parameter or a variable defined in two places, naming both files', () => {
    const dupParam = modular({ 'regions/south/parameters/gov/base_rate.yaml': 'values:\n  2020-01-01: 0.3\n' });
    expect(() => CountryModel.load(dupParam)).to.throw(ParameterError, /base_rate is also defined by .*parameters\/gov\/base_rate.yaml/);
    const dupVar = modular({ 'regions/south/variables/again.yaml': 'income:\n  entity: person\n  period: year\n  type: float\n' });
    expect(() => CountryModel.load(dupVar)).to.throw(EngineError, /variable income is already defined in .*base.yaml/);
  });

  it('refuses a module folder that does not exist or leaves the country folder', () => {
    const dir = modular();
    fs.writeFileSync(path.join(dir, 'country.yaml'), COUNTRY.replace('["regions/*"]', '["regions/west"]'));
    expect(() => CountryModel.load(dir)).to.throw(EngineError, /module folder "regions\/west" not found/);
    fs.writeFileSync(path.join(dir, 'country.yaml'), COUNTRY.replace('["regions/*"]', '["regions/../../x"]'));
    expect(() => CountryModel.load(dir)).to.throw(EngineError, /must stay inside the country folder/);
  });

  it('bundles modules and binary data but not tests, and the unpacked bundle loads the same model', () => {
    const dir = modular({ 'data/table.csv.gz': '' });
    fs.writeFileSync(path.join(dir, 'data/table.csv.gz'), Buffer.from([0x1f, 0x8b, 0, 255]));
    const bundle = buildBundle(dir);
    expect(Object.keys(bundle.files)).to.include('regions/north/parameters/gov/regions/north/rate.yaml');
    expect(Object.keys(bundle.files).some((f) => f.includes('/tests/'))).to.equal(false);
    expect(Object.keys(bundle.blobs!)).to.deep.equal(['data/table.csv.gz']);
    const unpacked = materialiseBundle(bundle, fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-bundle-cache-')));
    expect(Array.from(fs.readFileSync(path.join(unpacked, 'data/table.csv.gz')))).to.deep.equal([0x1f, 0x8b, 0, 255]);
    const s = sim(CountryModel.load(unpacked), ['a']);
    s.setInput('income', '2024', [1000]);
    expect(Array.from(s.calculate('north_tax', '2024'))).to.deep.equal([500]);
  });
});
