import type { Bounds } from './ir';
import type { Fusion } from './expr';
import type { Kernel } from './variable';

/** One fact of a plan a compilation looked up, and what it found. */
type Fact =
  | { kind: 'constant'; key: string; value: number | undefined }
  | { kind: 'inline' | 'sum'; key: string; value: boolean }
  | { kind: 'bounds'; key: string; value: Bounds | undefined };

interface Entry {
  kernel: Kernel;
  facts: Fact[];
}

/** Kernels kept per variable and period: plans of a few request shapes, not every one ever seen. */
const VARIANTS = 8;
/** All kernels kept: past it the cache starts again (a bound on a long-running server's memory). */
const LIMIT = 20_000;

/**
 * Fused kernels kept across execution plans. A kernel compiled for a plan depends on the plan only
 * through the facts its compilation looked up (which reads are constants and their values, which
 * are inlined, read as a year's column, or bounded), all point lookups by `name@period`. Each
 * compilation records those lookups; a later plan whose facts agree on every one of them gets the
 * same kernel without compiling. Plans of different request shapes share most of their kernels:
 * building a household shape's plan took 1.3 s for the US, most of it compiling.
 */
export class FusedKernelCache {
  private readonly entries = new Map<string, Entry[]>();
  private count = 0;

  /** Kernels kept. */
  get size(): number {
    return this.count;
  }

  get(name: string, period: string, fusion: Fusion, compile: (fusion: Fusion) => Kernel): Kernel {
    const key = `${name}@${period}`;
    const list = this.entries.get(key);
    const hit = list?.find((e) => e.facts.every((f) => holds(f, fusion)));
    if (hit) return hit.kernel;
    const facts = new Map<string, Fact>();
    const kernel = compile(recording(fusion, facts));
    if (this.count >= LIMIT) {
      this.entries.clear();
      this.count = 0;
    }
    const kept = this.entries.get(key) ?? [];
    if (kept.length >= VARIANTS) kept.shift();
    else this.count++;
    kept.push({ kernel, facts: [...facts.values()] });
    this.entries.set(key, kept);
    return kernel;
  }
}

/** `fusion` as a compilation sees it, writing down each fact it looks up (once per fact). */
function recording(fusion: Fusion, facts: Map<string, Fact>): Fusion {
  const note = (fact: Fact) => {
    facts.set(`${fact.kind}\u0000${fact.key}`, fact);
    return fact.value;
  };
  return {
    constants: { get: (key) => note({ kind: 'constant', key, value: fusion.constants.get(key) }) as number | undefined },
    inline: { has: (key) => note({ kind: 'inline', key, value: fusion.inline.has(key) }) as boolean },
    bounds: { get: (key) => note({ kind: 'bounds', key, value: fusion.bounds?.get(key) }) as Bounds | undefined },
    sums: { has: (key) => note({ kind: 'sum', key, value: fusion.sums?.has(key) ?? false }) as boolean },
  };
}

/** Whether `fusion` gives the fact's lookup the same answer (constants to the bit: -0 is not 0). */
function holds(fact: Fact, fusion: Fusion): boolean {
  switch (fact.kind) {
    case 'constant':
      return Object.is(fusion.constants.get(fact.key), fact.value);
    case 'inline':
      return fusion.inline.has(fact.key) === fact.value;
    case 'sum':
      return (fusion.sums?.has(fact.key) ?? false) === fact.value;
    case 'bounds': {
      const b = fusion.bounds?.get(fact.key);
      return Object.is(b?.lo, fact.value?.lo) && Object.is(b?.hi, fact.value?.hi) && (b === undefined) === (fact.value === undefined);
    }
  }
}
