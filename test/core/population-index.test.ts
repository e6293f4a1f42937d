import { expect } from 'chai';
import { PopulationIndex } from '../../core/population-index';
import type { Population } from '../../core/types';

/** Rows j (of n) whose mask, read through `maps` in turn, holds: the definition rowsWhere must meet. */
function naive(mask: ArrayLike<number>, maps: Int32Array[], n: number): number[] {
  const out: number[] = [];
  for (let j = 0; j < n; j++) {
    let k = j;
    for (const m of maps) k = m[k];
    if (mask[k]) out.push(j);
  }
  return out;
}

/** Households of 1 to 6 persons, each with one or two tax units, in order (or reversed: not ordered). */
function population(households: number, ordered: boolean): { pop: Population; person: Int32Array } {
  const hh: number[] = [];
  const tu: number[] = [];
  let t = 0;
  for (let h = 0; h < households; h++) {
    const size = 1 + ((h * 7) % 6);
    for (let p = 0; p < size; p++) {
      hh.push(h);
      tu.push(t + (p >= 3 ? 1 : 0));
    }
    t += size > 3 ? 2 : 1;
  }
  if (!ordered) {
    hh.reverse();
    tu.reverse();
  }
  const membership = { household: Int32Array.from(hh), tax_unit: Int32Array.from(tu) };
  return { pop: { count: { person: hh.length, household: households, tax_unit: t }, membership }, person: membership.household };
}

describe('PopulationIndex.rowsWhere', () => {
  for (const ordered of [true, false]) {
    it(`lists the rows whose mask holds, directly and through maps (${ordered ? 'ordered' : 'unordered'} population)`, () => {
      const { pop } = population(203, ordered);
      const index = new PopulationIndex(pop, 'person');
      const n = pop.count.person;
      const toHousehold = index.map('person', 'household');
      const toTaxUnit = index.map('person', 'tax_unit');
      const taxUnitToHousehold = index.map('tax_unit', 'household');
      // Masks holding on no row, a few rows (runs of zero words to skip), about half and every row;
      // a mask viewed at an offset of one byte (its words cannot be read four bytes at a time).
      const densities = [0, 0.03, 0.5, 1];
      for (const density of densities) {
        const bits = (len: number, seed: number) => Uint8Array.from({ length: len }, (_, i) => (((i * 2654435761 + seed) >>> 0) % 1000 < density * 1000 ? 1 : 0));
        const persons = bits(n, 1);
        const shifted = new Uint8Array(n + 1);
        shifted.set(persons, 1);
        const households = bits(pop.count.household, 2);
        const taxUnits = bits(pop.count.tax_unit, 3);
        const cases: [Uint8Array | Float64Array, Int32Array[], number][] = [
          [persons, [], n],
          [shifted.subarray(1), [], n],
          [households, [toHousehold], n],
          [taxUnits, [toTaxUnit], n],
          [households, [taxUnitToHousehold], pop.count.tax_unit],
          [households, [toTaxUnit, taxUnitToHousehold], n],
          [Float64Array.from(households, (x) => x * 2.5), [toHousehold], n],
        ];
        for (const [mask, maps, rows] of cases) {
          expect([...index.rowsWhere(mask, maps, rows)], `density ${density}, ${maps.length} maps`).to.deep.equal(naive(mask, maps, rows));
        }
      }
    });
  }

  it('gives the same list again for the same mask and maps, and another for other maps', () => {
    const { pop } = population(50, true);
    const index = new PopulationIndex(pop, 'person');
    const mask = Uint8Array.from({ length: 50 }, (_, i) => i % 3);
    const first = index.rowsWhere(mask, [index.map('person', 'household')], pop.count.person);
    expect(index.rowsWhere(mask, [index.map('person', 'household')], pop.count.person)).to.equal(first);
    expect([...index.rowsWhere(mask, [index.map('tax_unit', 'household')], pop.count.tax_unit)]).to.deep.equal(
      naive(mask, [index.map('tax_unit', 'household')], pop.count.tax_unit),
    );
  });
});
