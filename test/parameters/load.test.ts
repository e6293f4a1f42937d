import { expect } from 'chai';
import { ParameterTree } from '../../parameters/tree';
import { NodeAt, ScaleAt } from '../../parameters/types';
import { breakdownValues, expectParameterError, fixture } from './helpers';

describe('parameters: loading a folder', () => {
  const tree = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });

  it('names parameters by their dotted path from the folder root', () => {
    const pa = tree.get('gov.hmrc.income_tax.allowances.personal_allowance.amount');
    expect(pa.kind).to.equal('leaf');
    expect(pa.path).to.equal('gov.hmrc.income_tax.allowances.personal_allowance.amount');
    expect(pa.file).to.match(/personal_allowance[/\\]amount\.yaml$/);
  });

  it('keeps dates as YYYY-MM-DD strings and reads 12_570 as a number', () => {
    const pa = tree.get('gov.hmrc.income_tax.allowances.personal_allowance.amount');
    if (pa.kind !== 'leaf') throw new Error('not a leaf');
    expect(pa.values).to.deep.equal([
      { start: '2019-04-06', value: 12500 },
      { start: '2021-04-06', value: 12570 },
    ]);
  });

  it('reads index.yaml and README.md as the folder node metadata', () => {
    expect(tree.get('gov').metadata).to.include({ label: 'Government', description: 'Government rules used by the fixtures.' });
    expect(tree.get('gov.hmrc').metadata).to.include({ label: 'HM Revenue and Customs', description: 'Taxes collected by HMRC.' });
  });

  it('keeps a file description as metadata.description, and the metadata as written', () => {
    const pa = tree.get('gov.hmrc.income_tax.allowances.personal_allowance.amount');
    expect(pa.metadata.description).to.equal('Personal allowance deducted from income before tax.');
    expect(pa.metadata.unit).to.equal('currency-GBP');
    expect(pa.metadata.label).to.equal('Personal allowance');
  });

  it('reads the dated shorthand (a file that is only dates)', () => {
    expect(tree.at('gov.economy.cpi_index', '2021-06-01')).to.equal(101.5);
  });

  it('reads {value, metadata} entries and skips "expected" entries', () => {
    expect(tree.at('gov.dwp.universal_credit.taper', '2021-11-23')).to.equal(0.65);
    expect(tree.at('gov.dwp.universal_credit.taper', '2021-11-24')).to.equal(0.55);
    const taper = tree.get('gov.dwp.universal_credit.taper');
    if (taper.kind !== 'leaf') throw new Error('not a leaf');
    expect(taper.values.map((v) => v.start)).to.deep.equal(['2013-04-29', '2021-11-24']);
  });

  it('reads a node with its children inline in one file', () => {
    const flags = tree.get('gov.flags.winter_fuel');
    expect(flags.kind).to.equal('node');
    expect(tree.at('gov.flags.winter_fuel.in_effect', '2020-01-01')).to.equal(true);
    expect(tree.at('gov.flags.winter_fuel.in_effect', '2024-04-01')).to.equal(false);
    expect(tree.at('gov.flags.winter_fuel.qualifying_benefits', '2025-01-01')).to.deep.equal(['pension_credit', 'universal_credit']);
    expect(tree.at('gov.flags.winter_fuel.region_name', '2025-01-01')).to.equal('north');
  });

  it('ignores files that are not YAML', () => {
    expect(tree.has('gov.dwp.notes')).to.equal(false);
  });

  it('has() tells whether a path exists, brackets included', () => {
    expect(tree.has('gov.hmrc.income_tax.rates.uk[2].threshold')).to.equal(true);
    expect(tree.has('gov.hmrc.income_tax.rates.uk[3].threshold')).to.equal(false);
    expect(tree.has('gov.hmrc.nothing')).to.equal(false);
  });

  it('lists every series with leaves(), scale components included', () => {
    const paths = [...tree.leaves()].map(([p]) => p);
    expect(paths).to.include('gov.hmrc.income_tax.rates.uk[1].threshold');
    expect(paths).to.include('gov.hmrc.income_tax.rates.uk[1].rate');
    expect(paths).to.include('gov.economy.cpi_index');
    for (const [p, leaf] of tree.leaves()) expect(leaf.path).to.equal(p);
  });

  it('loads the same folder twice to equal trees (parsed files are reused)', () => {
    const again = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });
    expect(again.at('gov', '2025-01-01')).to.deep.equal(tree.at('gov', '2025-01-01'));
  });
});

describe('parameters: values at an instant', () => {
  const tree = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });

  it('takes the value with the latest start on or before the instant', () => {
    const path = 'gov.hmrc.income_tax.allowances.personal_allowance.amount';
    expect(tree.at(path, '2021-04-05')).to.equal(12500);
    expect(tree.at(path, '2021-04-06')).to.equal(12570);
    expect(tree.at(path, '2021-12-31')).to.equal(12570);
  });

  it('throws naming the path and instant before the first date', () => {
    const err = expectParameterError(
      () => tree.at('gov.hmrc.income_tax.allowances.personal_allowance.amount', '2019-04-05'),
      'gov.hmrc.income_tax.allowances.personal_allowance.amount',
      'no value at 2019-04-05',
      'starts later',
    );
    expect(err.path).to.equal('gov.hmrc.income_tax.allowances.personal_allowance.amount');
  });

  it('throws after a null ends the series', () => {
    expectParameterError(() => tree.at('gov.flags.winter_fuel.in_effect', '2030-01-01'), 'no value at 2030-01-01', 'ended');
  });

  it('rejects an instant that is not a date', () => {
    expectParameterError(() => tree.at('gov.economy.cpi_index', '2025'), 'bad instant "2025"');
  });

  it('throws for an unknown path, naming the missing step', () => {
    expectParameterError(() => tree.at('gov.hmrc.vat.rate', '2025-01-01'), 'unknown parameter gov.hmrc.vat.rate', '"gov.hmrc.vat"');
  });

  it('gives a scale as parallel thresholds and rates', () => {
    const s = tree.at('gov.hmrc.income_tax.rates.uk', '2021-05-01') as ScaleAt;
    expect(s).to.deep.equal({ kind: 'scale', scaleKind: 'marginal_rate', thresholds: [0, 37700, 150000], values: [0.2, 0.4, 0.45] });
    const later = tree.at('gov.hmrc.income_tax.rates.uk', '2023-04-06') as ScaleAt;
    expect(later.thresholds[2]).to.equal(125140);
  });

  it('reads a bracket component by its path', () => {
    expect(tree.at('gov.hmrc.income_tax.rates.uk[1].rate', '2025-01-01')).to.equal(0.4);
    expect(tree.at('gov.hmrc.income_tax.rates.uk[0].threshold', '2025-01-01')).to.equal(0);
  });

  it('gives a node as all its children at the instant, null where a child has no value', () => {
    const n = tree.at('gov.flags.winter_fuel', '2020-01-01') as NodeAt;
    expect(n.kind).to.equal('node');
    expect(n.children).to.deep.equal({ in_effect: true, qualifying_benefits: null, region_name: 'north' });
  });

  it('memoizes a node per instant and shares sub-nodes', () => {
    const gov = tree.at('gov', '2025-01-01') as NodeAt;
    expect(tree.at('gov', '2025-01-01')).to.equal(gov);
    expect(tree.at('gov.hmrc', '2025-01-01')).to.equal(gov.children.hmrc);
    expect(tree.at('gov', '2025-01-02')).to.not.equal(gov);
  });

  it('refuses to get a bracket itself', () => {
    expectParameterError(() => tree.get('gov.hmrc.income_tax.rates.uk[1]'), 'is a bracket');
  });

  it('refuses a bracket index on something that is not a scale', () => {
    expectParameterError(() => tree.get('gov.economy[0].rate'), 'gov.economy is not a scale');
  });
});

describe('parameters: in-memory trees', () => {
  it('builds a tree from an object at a path', () => {
    const tree = ParameterTree.fromObject({ values: { '2020-01-01': 5 } }, 'gov.x.y', 'memory.yaml');
    expect(tree.at('gov.x.y', '2021-01-01')).to.equal(5);
    expect(tree.get('gov.x').kind).to.equal('node');
  });

  it('builds a root node from an object with path ""', () => {
    const tree = ParameterTree.fromObject({ a: { '2020-01-01': 1 }, b: { c: { '2020-01-01': true } } }, '', 'memory.yaml');
    expect(tree.at('b.c', '2020-01-01')).to.equal(true);
  });

  it('an empty object is an empty tree', () => {
    const tree = ParameterTree.fromObject({}, '', 'memory.yaml');
    expect([...tree.leaves()]).to.deep.equal([]);
  });

  it('the root must be a node', () => {
    expectParameterError(() => ParameterTree.fromObject({ '2020-01-01': 1 }, '', 'memory.yaml'), 'memory.yaml', 'root of a tree must be a node');
  });
});
