import { expect } from 'chai';
import type { Fusion } from '../../core/compiler/expr';
import { FusedKernelCache } from '../../core/compiler/fused-cache';
import type { Kernel } from '../../core/compiler/variable';

/** A stand-in compilation: looks up the facts it is told to and returns a fresh object naming what it saw. */
function compiler(lookups: (f: Fusion) => unknown[]) {
  let compiled = 0;
  const compile = (f: Fusion) => {
    compiled++;
    return { variable: 'x', seen: lookups(f) } as unknown as Kernel;
  };
  return { compile, count: () => compiled };
}

const fusion = (constants: [string, number][], inline: string[] = [], bounds: [string, { lo?: number; hi?: number }][] = [], sums: string[] = []): Fusion => ({
  constants: new Map(constants),
  inline: new Set(inline),
  bounds: new Map(bounds),
  sums: new Set(sums),
});

describe('core: fused kernels kept across plans', () => {
  it('compiles again only when a fact the compilation looked up has another answer', () => {
    const cache = new FusedKernelCache();
    const c = compiler((f) => [f.constants.get('a@2025'), f.inline.has('b@2025'), f.bounds?.get('c@2025'), f.sums?.has('d@2025')]);
    const k1 = cache.get('x', '2025', fusion([['a@2025', 1]], ['b@2025'], [['c@2025', { lo: 0 }]]), c.compile);
    // Facts it never looked up (another constant, another inlined variable) do not matter.
    const k2 = cache.get('x', '2025', fusion([['a@2025', 1], ['z@2025', 9]], ['b@2025', 'y@2025'], [['c@2025', { lo: 0 }]]), c.compile);
    expect(k2).to.equal(k1);
    expect(c.count()).to.equal(1);
    const changes: Fusion[] = [
      fusion([['a@2025', 2]], ['b@2025'], [['c@2025', { lo: 0 }]]), // another value
      fusion([], ['b@2025'], [['c@2025', { lo: 0 }]]), // no longer a constant
      fusion([['a@2025', 1]], [], [['c@2025', { lo: 0 }]]), // no longer inlined
      fusion([['a@2025', 1]], ['b@2025'], [['c@2025', { lo: 0, hi: 5 }]]), // other bounds
      fusion([['a@2025', 1]], ['b@2025'], []), // no bounds
      fusion([['a@2025', 1]], ['b@2025'], [['c@2025', { lo: 0 }]], ['d@2025']), // read as a year's column
    ];
    for (const [i, f] of changes.entries()) {
      expect(cache.get('x', '2025', f, c.compile), `change ${i}`).to.not.equal(k1);
      expect(c.count()).to.equal(2 + i);
    }
    // Each variant is kept: the first facts find the first kernel again.
    expect(cache.get('x', '2025', fusion([['a@2025', 1]], ['b@2025'], [['c@2025', { lo: 0 }]]), c.compile)).to.equal(k1);
    expect(cache.get('x', '2026', fusion([['a@2025', 1]], ['b@2025'], [['c@2025', { lo: 0 }]]), c.compile)).to.not.equal(k1);
  });

  it('tells a constant -0 from 0 (they are different literals), and matches NaN with NaN', () => {
    const cache = new FusedKernelCache();
    const c = compiler((f) => [f.constants.get('a@2025')]);
    const zero = cache.get('x', '2025', fusion([['a@2025', 0]]), c.compile);
    expect(cache.get('x', '2025', fusion([['a@2025', -0]]), c.compile)).to.not.equal(zero);
    // A NaN constant is its own fact, and the same NaN again finds its kernel.
    const nan = cache.get('x', '2025', fusion([['a@2025', NaN]]), c.compile);
    expect(nan).to.not.equal(zero);
    expect(cache.get('x', '2025', fusion([['a@2025', NaN]]), c.compile)).to.equal(nan);
    expect(c.count()).to.equal(3);
  });
});
