import { expect } from 'chai';
import { ParameterTree } from '../../parameters/tree';
import { ScaleAt } from '../../parameters/types';
import { breakdownValues, expectParameterError, fixture } from './helpers';

const PA = 'gov.hmrc.income_tax.allowances.personal_allowance.amount';

/** A tree with an index (100 in 2020, 105 in 2021, 110.25 in 2022) and `p` uprated by it. */
function withIndex(p: unknown, index: Record<string, number> = { '2020-01-01': 100, '2021-01-01': 105, '2022-01-01': 110.25 }): ParameterTree {
  return ParameterTree.fromObject({ index, p }, 'gov', 'f.yaml');
}

describe('parameters: uprating', () => {
  const tree = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });

  it('extends a series at the index dates after its last entry, rounded as specified', () => {
    // 12_570 * index / 101.5 (the index at 2021-04-06), rounded up to the next 10.
    expect(tree.seriesOf(PA)).to.deep.equal([
      { start: '2019-04-06', value: 12500 },
      { start: '2021-04-06', value: 12570 },
      { start: '2022-04-01', value: 12880 },
      { start: '2023-04-01', value: 13630 },
      { start: '2026-04-01', value: 14250 },
      { start: '2027-04-01', value: 14530 },
    ]);
    expect(tree.at(PA, '2027-04-30')).to.equal(14530);
    expect(tree.at(PA, '2025-04-30')).to.equal(13630);
  });

  it('keeps the written series unchanged in get()', () => {
    const leaf = tree.get(PA);
    if (leaf.kind !== 'leaf') throw new Error('not a leaf');
    expect(leaf.values).to.have.length(2);
  });

  it('uprates a bracket threshold with its own uprating, and leaves the others alone', () => {
    const s = tree.at('gov.hmrc.income_tax.rates.uk', '2027-04-30') as ScaleAt;
    expect(s.thresholds[1]).to.equal((37700 * (117.3 / 101.5)));
    expect(s.thresholds[2]).to.equal(125140);
  });

  it('uprates breakdown children through propagated metadata; a filled 0 stays 0', () => {
    expect(tree.at('gov.dwp.universal_credit.standard_allowance.SINGLE_OLD', '2026-04-01')).to.equal(393.45 * (115 / 110));
    expect(tree.at('gov.dwp.universal_credit.standard_allowance.COUPLE_YOUNG', '2026-04-01')).to.equal(0);
  });

  it('rounds to nearest with halves to even (as numpy), and downwards', () => {
    const nearest = withIndex({ values: { '2020-01-01': 10 }, metadata: { uprating: { parameter: 'gov.index', rounding: { type: 'nearest', interval: 1 } } } });
    expect(nearest.at('gov.p', '2021-01-01')).to.equal(10); // 10.5 -> 10
    const bare = withIndex({ values: { '2020-01-01': 10 }, metadata: { uprating: { parameter: 'gov.index', rounding: 0.25 } } });
    expect(bare.at('gov.p', '2022-01-01')).to.equal(11); // 11.025 -> 11
    const down = withIndex({ values: { '2020-01-01': 19 }, metadata: { uprating: { parameter: 'gov.index', rounding: { type: 'downwards', interval: 5 } } } });
    expect(down.at('gov.p', '2022-01-01')).to.equal(20); // 20.9475 -> 20
  });

  it('computes every extension from the last written value, not from rounded extensions', () => {
    const t = withIndex({ values: { '2020-01-01': 10 }, metadata: { uprating: { parameter: 'gov.index', rounding: { type: 'upwards', interval: 1 } } } });
    expect(t.seriesOf('gov.p').map((e) => e.value)).to.deep.equal([10, 11, 12]); // ceil(10.5), ceil(11.025)
  });

  it('starts from start_instant when given, keeping written entries', () => {
    const t = withIndex({ values: { '2019-01-01': 50, '2021-06-01': 70 }, metadata: { uprating: { parameter: 'gov.index', start_instant: '2020-06-01' } } });
    expect(t.seriesOf('gov.p')).to.deep.equal([
      { start: '2019-01-01', value: 50 },
      { start: '2021-01-01', value: 52.5 },
      { start: '2021-06-01', value: 70 },
      { start: '2022-01-01', value: 55.125 },
    ]);
  });

  it('uprates by an index that is itself uprated', () => {
    const t = ParameterTree.fromObject(
      {
        base: { '2020-01-01': 100, '2021-01-01': 110 },
        index: { values: { '2020-01-01': 200 }, metadata: { uprating: 'gov.base' } },
        p: { values: { '2020-01-01': 10 }, metadata: { uprating: 'gov.index' } },
      },
      'gov',
      'f.yaml',
    );
    expect(t.at('gov.p', '2021-01-01')).to.equal(10 * (220 / 200));
  });

  it('reports an uprating cycle', () => {
    const t = ParameterTree.fromObject(
      { a: { values: { '2020-01-01': 1 }, metadata: { uprating: 'gov.b' } }, b: { values: { '2020-01-01': 1 }, metadata: { uprating: 'gov.a' } } },
      'gov',
      'f.yaml',
    );
    expectParameterError(() => t.at('gov.a', '2020-01-01'), 'uprating cycle gov.a -> gov.b -> gov.a');
  });

  it('fails, naming the parameter, when the index has no value at the last date', () => {
    const t = withIndex({ values: { '2019-01-01': 10 }, metadata: { uprating: 'gov.index' } });
    expectParameterError(() => t.at('gov.p', '2021-01-01'), 'f.yaml: gov.p: cannot uprate with gov.index: the index has no usable value at 2019-01-01');
  });

  it('does not uprate a series that has ended, and refuses non-numbers', () => {
    const ended = withIndex({ values: { '2019-01-01': 10, '2020-01-01': null }, metadata: { uprating: 'gov.index' } });
    expectParameterError(() => ended.at('gov.p', '2022-01-01'), 'no value at 2022-01-01');
    const bools = withIndex({ values: { '2020-01-01': true }, metadata: { uprating: 'gov.index' } });
    expectParameterError(() => bools.at('gov.p', '2022-01-01'), 'gov.p: cannot uprate a series of boolean values');
  });

  describe('scale routing', () => {
    const scale = (meta: object, bracketMeta: object = {}): ParameterTree =>
      withIndex({
        metadata: meta,
        brackets: [
          { threshold: { '2020-01-01': 0 }, amount: { '2020-01-01': 100 } },
          { threshold: { '2020-01-01': 1000 }, amount: { '2020-01-01': 200 }, metadata: bracketMeta },
        ],
      });

    it('a scale-level uprating reaches the amounts, not the thresholds', () => {
      const s = scale({ uprating: 'gov.index' }).at('gov.p', '2021-01-01') as ScaleAt;
      expect(s.values).to.deep.equal([105, 210]);
      expect(s.thresholds).to.deep.equal([0, 1000]);
    });

    it('uprate_thresholds or threshold_uprating reach the thresholds', () => {
      expect((scale({ uprating: 'gov.index', uprate_thresholds: true }).at('gov.p', '2021-01-01') as ScaleAt).thresholds).to.deep.equal([0, 1050]);
      const t = scale({ threshold_uprating: 'gov.index' }).at('gov.p', '2021-01-01') as ScaleAt;
      expect(t.thresholds).to.deep.equal([0, 1050]);
      expect(t.values).to.deep.equal([100, 200]);
    });

    it('bracket-level and per-component overrides apply to their bracket only', () => {
      const s = scale({}, { amount: { uprating: 'gov.index' } }).at('gov.p', '2021-01-01') as ScaleAt;
      expect(s.values).to.deep.equal([100, 210]);
    });
  });
});
