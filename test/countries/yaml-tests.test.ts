/**
 * The countries' own YAML tests (countries/<id>/tests and each module's tests, e.g.
 * countries/us/states/ca/tests): cases worked by hand from the law, run through the engine's test
 * runner. Every case must pass; a failure names the case and what differed.
 */
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { CountryModel } from '../../core/model';
import { runTestFiles } from '../../core/testing/engine';
import { collectTestFiles } from '../../server/cli/test-files';

const COUNTRIES = path.resolve(__dirname, '../../../countries');

/** A country's test folders: its own, then each module's (countries/us/states/<st>/tests). */
function testFolders(country: string): string[] {
  const root = path.join(COUNTRIES, country);
  const folders = [path.join(root, 'tests')];
  for (const group of fs.readdirSync(root, { withFileTypes: true })) {
    if (!group.isDirectory()) continue;
    for (const mod of fs.readdirSync(path.join(root, group.name), { withFileTypes: true })) {
      const tests = path.join(root, group.name, mod.name, 'tests');
      if (mod.isDirectory() && fs.existsSync(tests)) folders.push(tests);
    }
  }
  return folders.filter((f) => fs.existsSync(f));
}

describe('countries: their own YAML tests', function () {
  this.timeout(600_000);
  for (const country of fs.readdirSync(COUNTRIES).filter((c) => fs.existsSync(path.join(COUNTRIES, c, 'country.yaml'))).sort()) {
    it(`${country}: every case passes`, () => {
      const model = CountryModel.load(path.join(COUNTRIES, country));
      const files = collectTestFiles(testFolders(country), COUNTRIES);
      const results = runTestFiles(model, files, { label: (f) => path.relative(COUNTRIES, f) });
      const failed = results.filter((r) => !r.passed);
      const describe = (r: (typeof results)[number]) => `${r.file} :: ${r.name}\n    ${[...r.errors, ...r.failures.map((f) => JSON.stringify(f))].slice(0, 3).join('\n    ')}`;
      expect(results.length, 'cases found').to.be.greaterThan(100);
      expect(failed.map(describe).join('\n'), `${failed.length} of ${results.length} cases failed`).to.equal('');
    });
  }
});
