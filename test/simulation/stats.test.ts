import { expect } from 'chai';
import { ascending, gini, topShare, weightedDeciles, weightedMedian } from '../../server/simulation/stats';
import { decileImpacts, intraDecile } from '../../server/simulation/impact';

describe('simulation: weighted statistics', () => {
  it('orders values like a stable comparison sort (negatives, zeros, infinities, NaN last)', () => {
    const values = Float64Array.of(3, -1, 0, -0, 2.5, -1e300, Infinity, NaN, -Infinity, 2.5, 1e-300, -2);
    const expected = Array.from(values.keys()).sort((a, b) => {
      const x = Number.isNaN(values[a]) ? Infinity : values[a];
      const y = Number.isNaN(values[b]) ? Infinity : values[b];
      return x === y ? a - b : x < y ? -1 : 1;
    });
    expect(Array.from(ascending(values))).to.deep.equal(expected);
    const random = Float64Array.from({ length: 5000 }, (_, i) => Math.round(Math.sin(i * 7.1) * 1000) / 10);
    const order = ascending(random);
    for (let i = 1; i < order.length; i++) {
      const [a, b] = [order[i - 1], order[i]];
      expect(random[a] < random[b] || (random[a] === random[b] && a < b)).to.equal(true);
    }
  });

  it('cuts deciles holding a tenth of the weight each', () => {
    const values = Float64Array.from({ length: 100 }, (_, i) => 100 - i);
    const weights = new Float64Array(100).fill(2);
    const d = weightedDeciles(values, weights);
    expect(d[99]).to.equal(1); // the lowest value
    expect(d[0]).to.equal(10);
    const per = new Array(11).fill(0);
    for (const x of d) per[x]++;
    expect(per.slice(1)).to.deep.equal(new Array(10).fill(10));
    // A unit with most of the weight lands in the decile of its weight's midpoint (0.5: the sixth).
    expect(Array.from(weightedDeciles(Float64Array.of(1, 2, 3), Float64Array.of(1, 8, 1)))).to.deep.equal([1, 6, 10]);
  });

  it('gives the Gini coefficient, top shares and the weighted median', () => {
    expect(gini(Float64Array.of(5, 5, 5), Float64Array.of(1, 2, 3))).to.be.closeTo(0, 1e-12);
    // One of n people has everything: 1 - 1/n.
    expect(gini(Float64Array.of(0, 0, 0, 10), Float64Array.of(1, 1, 1, 1))).to.be.closeTo(0.75, 1e-12);
    // Weights count as people: the same as listing each person.
    expect(gini(Float64Array.of(1, 3), Float64Array.of(2, 1))).to.be.closeTo(gini(Float64Array.of(1, 1, 3), Float64Array.of(1, 1, 1)), 1e-12);
    expect(topShare(Float64Array.from({ length: 10 }, (_, i) => i + 1), new Float64Array(10).fill(1), 0.1)).to.be.closeTo(10 / 55, 1e-12);
    // The boundary unit counts in part: the top 10% of weight 20 is half of the richest unit.
    expect(topShare(Float64Array.of(10, 20), Float64Array.of(18, 2), 0.05)).to.be.closeTo(20 / (180 + 40), 1e-12);
    expect(weightedMedian(Float64Array.of(1, 2, 3), Float64Array.of(1, 1, 5))).to.equal(3);
  });

  it('selects the weighted median without sorting, as the sorted definition gives it (ties, zero weights, NaN)', () => {
    let seed = 7;
    const rand = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(rand() * 300);
      // Few distinct values (many ties), some zero weights, an occasional NaN.
      const values = Float64Array.from({ length: n }, () => (rand() < 0.02 ? NaN : Math.floor(rand() * (trial % 3 === 0 ? 5 : 1000)) - 100));
      const weights = Float64Array.from({ length: n }, () => (rand() < 0.2 ? 0 : rand() * 10));
      const sorted = weightedMedian(values, weights, ascending(values));
      const selected = weightedMedian(values, weights);
      expect(Object.is(selected, sorted) || (Number.isNaN(sorted) && selected === Infinity), `trial ${trial}: ${selected} vs ${sorted}`).to.equal(true);
    }
    expect(weightedMedian(Float64Array.of(5), Float64Array.of(0))).to.be.NaN;
  });

  it('counts better and worse off households and intra-decile bands', () => {
    const decile = Uint8Array.of(1, 1, 2);
    const w = Float64Array.of(1, 2, 3);
    const before = Float64Array.of(100, 200, 1000);
    const after = Float64Array.of(110, 200, 900);
    const d = decileImpacts(decile, w, before, after);
    expect(d[0]).to.deep.include({ decile: 1, baseline_mean: 500 / 3, reform_mean: 510 / 3, count_better_off: 1, count_no_change: 2, count_worse_off: 0 });
    expect(d[1]).to.deep.include({ absolute_change: -100, relative_change: -0.1, count_worse_off: 3 });
    const people = Float64Array.of(1, 1, 2);
    const bands = intraDecile(decile, w, people, before, after);
    expect(bands[0]).to.deep.equal({ decile: 0, gain_more_than_5pct: 1 / 9, gain_less_than_5pct: 0, no_change: 2 / 9, lose_less_than_5pct: 0, lose_more_than_5pct: 6 / 9 });
    expect(bands[1].gain_more_than_5pct).to.be.closeTo(1 / 3, 1e-12);
  });
});
