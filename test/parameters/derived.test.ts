import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as zlib from 'zlib';
import { ParameterTree } from '../../parameters/tree';
import { ParameterError } from '../../parameters/types';

function folder(files: Record<string, string | Buffer>): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fiscus-derived-'));
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), text);
  }
  return dir;
}

describe('parameters: derived by a yearly formula', () => {
  // A monthly price index and two series derived from it.
  const cpi = ['values:'];
  for (let y = 2018; y <= 2021; y++) for (let m = 1; m <= 12; m++) cpi.push(`  ${y}-${String(m).padStart(2, '0')}-01: ${100 + (y - 2018) * 12 + m}`);
  const dir = folder({
    'country.yaml': 'id: t\n',
    'parameters/gov/cpi.yaml': cpi.join('\n'),
    'parameters/gov/price_index.yaml': 'description: Mean of the 12 months from September two years before.\nderived:\n  from: 2020\n  to: 2021\n  formula: mean_months(gov.cpi, year - 2, 9, 12)\n',
    'parameters/gov/base.yaml': 'description: Grows with the index, never falls, rounded down to 10.\nderived:\n  from: 2020\n  to: 2021\n  date: "04-01"\n  initial: 1000\n  formula: max(previous, round_down(1000 * p(gov.cpi, year - 1, 12, 1) / p(gov.cpi, 2018, 12, 1), 10))\n',
  });
  const tree = ParameterTree.loadFolder(path.join(dir, 'parameters'));

  it('computes each year from its sources', () => {
    // September 2018 (109) to August 2019 (120): mean 114.5.
    expect(tree.at('gov.price_index', '2020-06-01')).to.equal(114.5);
    expect(tree.at('gov.price_index', '2021-06-01')).to.equal(126.5);
    // The last value holds after `to`.
    expect(tree.at('gov.price_index', '2030-06-01')).to.equal(126.5);
    // 1000 * 124 / 112 = 1107.1 -> 1100; 1000 * 136 / 112 -> 1210.
    expect(tree.at('gov.base', '2020-05-01')).to.equal(1100);
    expect(tree.at('gov.base', '2021-05-01')).to.equal(1210);
  });

  it('follows a reform of its source, and refuses a reform of itself', () => {
    const reformed = tree.withReform({ 'gov.cpi': { '2019-01-01.2019-12-31': 200 } });
    // September to December 2018 as before (109..112), then eight months at 200.
    expect(reformed.at('gov.price_index', '2020-06-01')).to.equal((109 + 110 + 111 + 112 + 8 * 200) / 12);
    expect(tree.at('gov.price_index', '2020-06-01')).to.equal(114.5);
    expect(() => tree.withReform({ 'gov.price_index': { '2020-01-01': 5 } })).to.throw(ParameterError, 'is derived from other parameters');
  });
});

describe('parameters: derived as a quantile of a data table', () => {
  const rows = ['rent,year,area,size'];
  // Area N, size A: 2019 rents 100..109, 2020 rents 200..209; area S, size A: 2020 only.
  for (let i = 0; i < 10; i++) rows.push(`${100 + i},2019,N,A`, `${200 + i},2020,N,A`, `${50 + i},2020,S,A`);
  const dir = folder({
    'country.yaml': 'id: t\n',
    'data/rents.csv.gz': zlib.gzipSync(rows.join('\n') + '\n'),
    'parameters/gov/quantile.yaml': 'values:\n  2000-01-01: 0.3\n',
    'parameters/gov/price_index.yaml': 'values:\n  2019-01-01: 100\n  2020-01-01: 110\n  2021-01-01: 121\n  2022-01-01: 150\n  2024-01-01: 165\n',
    'parameters/gov/freeze.yaml': 'values:\n  2000-01-01: false\n  2022-04-01: true\n',
    'parameters/gov/rates.yaml': [
      'description: The 30th percentile of recorded rents by area and size.',
      'metadata:\n  breakdown: [[N, S, E], [A, B]]',
      'derived:\n  table: data/rents.csv.gz\n  value: rent\n  by: [area, size]\n  year: year\n  quantile: gov.quantile\n  index: gov.price_index\n  freeze: gov.freeze\n  from: 2019\n  to: 2024\n  date: "04-01"',
    ].join('\n'),
  });
  const tree = ParameterTree.loadFolder(path.join(dir, 'parameters'));

  it('takes the quantile of the year\'s rows, moves the latest year by the index, and holds it while frozen', () => {
    // 30th percentile of 100..109 with linear interpolation: position 2.7 -> 102.7.
    expect(tree.at('gov.rates.N.A', '2019-06-01')).to.be.closeTo(102.7, 1e-9);
    expect(tree.at('gov.rates.N.A', '2020-06-01')).to.be.closeTo(202.7, 1e-9);
    // 2021: 2020 rents times 121 / 110, each rounded to the cent: 222.2 and 223.3 at positions 2 and 3.
    expect(tree.at('gov.rates.N.A', '2021-06-01')).to.be.closeTo(222.2 + 0.7 * (223.3 - 222.2), 1e-9);
    // The freeze starts in 2022: 2022, 2023 and 2024 keep the 2021 value.
    expect(tree.at('gov.rates.N.A', '2022-06-01')).to.equal(tree.at('gov.rates.N.A', '2021-06-01'));
    expect(tree.at('gov.rates.N.A', '2024-06-01')).to.equal(tree.at('gov.rates.N.A', '2021-06-01'));
    // No rows for the group: 0.
    expect(tree.at('gov.rates.E.B', '2020-06-01')).to.equal(0);
    expect(tree.at('gov.rates.S.A', '2020-06-01')).to.be.closeTo(52.7, 1e-9);
  });

  it('moves every value with a reform of the quantile or of the freeze', () => {
    const median = tree.withReform({ 'gov.quantile': { '2000-01-01': 0.5 } });
    expect(median.at('gov.rates.N.A', '2020-06-01')).to.be.closeTo(204.5, 1e-9);
    expect(median.at('gov.rates.S.A', '2020-06-01')).to.be.closeTo(54.5, 1e-9);
    // Without the freeze, 2022 reads the 2020 rents times 150 / 110.
    const unfrozen = tree.withReform({ 'gov.freeze': { '2022-04-01.2030-12-31': false } });
    expect(unfrozen.at('gov.rates.N.A', '2022-06-01')).to.be.closeTo(275.45 + 0.7 * (276.82 - 275.45), 1e-9);
  });

  it('names a missing table or column', () => {
    const bad = folder({ 'country.yaml': 'id: t\n', 'parameters/gov/r.yaml': 'derived:\n  table: data/none.csv\n  value: v\n  by: [a]\n  year: y\n  quantile: gov.q\n  from: 2019\n  to: 2020\n' });
    expect(() => ParameterTree.loadFolder(path.join(bad, 'parameters'))).to.throw(ParameterError, 'data/none.csv not found');
  });
});
