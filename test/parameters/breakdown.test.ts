import { expect } from 'chai';
import { ParameterTree } from '../../parameters/tree';
import { NodeAt } from '../../parameters/types';
import { breakdownValues, expectParameterError, fixture } from './helpers';

const at = (tree: ParameterTree, path: string, instant = '2025-01-01'): NodeAt => tree.at(path, instant) as NodeAt;

describe('parameters: breakdowns', () => {
  const tree = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });

  it('fills a missing enum key with 0, in the enum order', () => {
    const sa = at(tree, 'gov.dwp.universal_credit.standard_allowance');
    expect(Object.keys(sa.children)).to.deep.equal(['SINGLE_YOUNG', 'SINGLE_OLD', 'COUPLE_YOUNG', 'COUPLE_OLD']);
    expect(sa.children.COUPLE_YOUNG).to.equal(0);
    expect(sa.breakdown).to.deep.equal(['uc_claimant_type']);
  });

  it('fills nested range and list levels', () => {
    const eitc = at(tree, 'gov.irs.eitc');
    expect(eitc.breakdown).to.deep.equal(['range(0, 3)', ['SINGLE', 'JOINT']]);
    expect(Object.keys(eitc.children)).to.deep.equal(['0', '1', '2']);
    expect((eitc.children['1'] as NodeAt).children).to.deep.equal({ SINGLE: 4213, JOINT: 0 });
    expect((eitc.children['2'] as NodeAt).children).to.deep.equal({ SINGLE: 0, JOINT: 6960 });
  });

  it('fills a whole missing subtree when every deeper level is known', () => {
    const t = ParameterTree.fromObject(
      { metadata: { breakdown: ['range(1, 3)', 'filing_status'] }, 1: { SINGLE: { '2020-01-01': 5 }, JOINT: { '2020-01-01': 6 } } },
      'gov.p',
      'f.yaml',
      { breakdownValues },
    );
    expect(at(t, 'gov.p').children['2']).to.deep.equal({ kind: 'node', children: { SINGLE: 0, JOINT: 0 } });
  });

  it('fills true/false series with false', () => {
    const t = ParameterTree.fromObject(
      { metadata: { breakdown: [['A', 'B', 'C']] }, A: { '2020-01-01': true } },
      'gov.p',
      'f.yaml',
    );
    expect(at(t, 'gov.p').children).to.deep.equal({ A: true, B: false, C: false });
  });

  it('accepts range(n) and a single breakdown string', () => {
    const t = ParameterTree.fromObject({ metadata: { breakdown: 'range(2)' }, 1: { '2020-01-01': 3 } }, 'gov.p', 'f.yaml');
    expect(at(t, 'gov.p').children).to.deep.equal({ 0: 0, 1: 3 });
  });

  it('skips the check for a variable whose values are unknown', () => {
    const obj = { metadata: { breakdown: ['state_code'] }, CA: { '2020-01-01': 1 } };
    expect(at(ParameterTree.fromObject(obj, 'gov.p', 'f.yaml', { breakdownValues }), 'gov.p').children).to.deep.equal({ CA: 1 });
    expect(at(ParameterTree.fromObject(obj, 'gov.p', 'f.yaml'), 'gov.p').children).to.deep.equal({ CA: 1 });
  });

  it('still checks known deeper levels under an unknown one', () => {
    const obj = { metadata: { breakdown: ['state_code', 'filing_status'] }, CA: { SINGLE: { '2020-01-01': 1 }, WIDOW: { '2020-01-01': 2 } } };
    expectParameterError(
      () => ParameterTree.fromObject(obj, 'gov.p', 'f.yaml', { breakdownValues }),
      'f.yaml: gov.p.CA.WIDOW: "WIDOW" is not a value of breakdown "filing_status" (expected one of SINGLE, JOINT)',
    );
  });

  it('rejects a key that is not a value of the breakdown, naming the file and key', () => {
    const err = expectParameterError(
      () => ParameterTree.fromObject({ metadata: { breakdown: ['uc_claimant_type'] }, SINGLE: { '2020-01-01': 1 } }, 'gov.p', 'f.yaml', { breakdownValues }),
      'f.yaml: gov.p.SINGLE: "SINGLE" is not a value of breakdown "uc_claimant_type"',
      'SINGLE_YOUNG, SINGLE_OLD',
    );
    expect(err.path).to.equal('gov.p.SINGLE');
    expectParameterError(
      () => ParameterTree.fromObject({ metadata: { breakdown: ['range(0, 2)'] }, 2: { '2020-01-01': 1 } }, 'gov.p', 'f.yaml'),
      'gov.p.2: "2" is not a value of breakdown "range(0, 2)" (expected one of 0, 1)',
    );
  });

  it('rejects a leaf where a deeper breakdown level needs a node', () => {
    expectParameterError(
      () => ParameterTree.fromObject({ metadata: { breakdown: [['A'], ['X', 'Y']] }, A: { '2020-01-01': 1 } }, 'gov.p', 'f.yaml'),
      'f.yaml: gov.p.A: expected a node broken down by ["X","Y"], found a leaf',
    );
  });

  it('rejects a breakdown entry that is neither a variable, a range nor a list', () => {
    expectParameterError(
      () => ParameterTree.fromObject({ metadata: { breakdown: ['range(1, n)'] }, a: { '2020-01-01': 1 } }, 'gov.p', 'f.yaml'),
      'f.yaml: gov.p.metadata.breakdown: "range(1, n)" is neither a variable name, range(a, b) nor a list',
    );
  });
});

describe('parameters: metadata propagation', () => {
  const tree = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });

  it('copies a node metadata to its children, except label, name, description and breakdown', () => {
    const young = tree.get('gov.dwp.universal_credit.standard_allowance.SINGLE_YOUNG');
    expect(young.metadata).to.include({ unit: 'currency-GBP', period: 'month' });
    expect(young.metadata.uprating).to.deep.equal({ parameter: 'gov.economy.cpi_index' });
    expect(young.metadata.breakdown).to.equal(undefined);
    expect(young.metadata.description).to.equal(undefined);
  });

  it('lets the outermost ancestor win, as PolicyEngine does', () => {
    const t = ParameterTree.fromObject(
      {
        metadata: { unit: 'outer', propagate_metadata_to_children: true },
        inner: { metadata: { unit: 'inner', period: 'month', propagate_metadata_to_children: true }, leaf: { values: { '2020-01-01': 1 }, metadata: { unit: 'own', label: 'Leaf' } } },
      },
      'gov.p',
      'f.yaml',
    );
    expect(t.get('gov.p.inner.leaf').metadata).to.include({ unit: 'outer', period: 'month', label: 'Leaf' });
  });

  it('does not propagate without the flag', () => {
    const t = ParameterTree.fromObject({ metadata: { unit: 'outer' }, leaf: { '2020-01-01': 1 } }, 'gov.p', 'f.yaml');
    expect(t.get('gov.p.leaf').metadata.unit).to.equal(undefined);
  });

  it('reaches scale bracket components', () => {
    const t = ParameterTree.fromObject(
      { metadata: { period: 'year', propagate_metadata_to_children: true }, s: { brackets: [{ threshold: { '2020-01-01': 0 }, rate: { '2020-01-01': 0.1 } }] } },
      'gov.p',
      'f.yaml',
    );
    expect(t.get('gov.p.s[0].threshold').metadata.period).to.equal('year');
    expect(t.get('gov.p.s[0].rate').metadata.period).to.equal('year');
  });
});
