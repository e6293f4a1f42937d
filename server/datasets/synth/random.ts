/**
 * A seeded random generator and the few distributions synthetic populations draw from. The
 * generator is xoshiro128** (Blackman and Vigna): 128 bits of state seeded through splitmix32,
 * fast in JavaScript's 32-bit integer arithmetic, and the same numbers on every platform, so a
 * seed always gives the same population.
 */
export class Random {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  private spare: number | null = null;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = () => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
  }

  /** Uniform in [0, 1). */
  next(): number {
    const r = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return r / 4294967296;
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** Standard normal (Marsaglia's polar method). */
  normal(): number {
    if (this.spare !== null) {
      const s = this.spare;
      this.spare = null;
      return s;
    }
    let u: number;
    let v: number;
    let q: number;
    do {
      u = 2 * this.next() - 1;
      v = 2 * this.next() - 1;
      q = u * u + v * v;
    } while (q >= 1 || q === 0);
    const f = Math.sqrt((-2 * Math.log(q)) / q);
    this.spare = v * f;
    return u * f;
  }

  /** Log-normal with the given median and standard deviation of the log. */
  lognormal(median: number, sigma: number): number {
    return median * Math.exp(sigma * this.normal());
  }

  /** Pareto (type I) above `min` with tail index `alpha`. */
  pareto(min: number, alpha: number): number {
    return min / Math.pow(1 - this.next(), 1 / alpha);
  }

  /** An index drawn with the given weights (they need not sum to 1). */
  pick(weights: readonly number[]): number {
    let total = 0;
    for (const w of weights) total += w;
    let x = this.next() * total;
    for (let i = 0; i < weights.length; i++) {
      x -= weights[i];
      if (x < 0) return i;
    }
    return weights.length - 1;
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/** Growable typed column: synthetic populations do not know their person count in advance. */
export class Grow<T extends Float64Array | Int32Array | Uint8Array> {
  private data: T;
  length = 0;

  constructor(private readonly Ctor: new (n: number) => T, capacity: number) {
    this.data = new Ctor(Math.max(16, capacity));
  }

  push(v: number): void {
    if (this.length === this.data.length) {
      const bigger = new this.Ctor(this.data.length * 2);
      bigger.set(this.data);
      this.data = bigger;
    }
    this.data[this.length++] = v;
  }

  /** Set the value of the last row pushed. */
  setLast(v: number): void {
    this.data[this.length - 1] = v;
  }

  add(row: number, v: number): void {
    this.data[row] += v;
  }

  get(row: number): number {
    return this.data[row];
  }

  done(): T {
    return this.data.slice(0, this.length) as T;
  }
}
