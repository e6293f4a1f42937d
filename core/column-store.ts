import type { Column } from './types';

/**
 * Columns by variable and period. Two-level maps keyed by the (interned) name and period strings:
 * lookups on the hot path never build and hash a combined key.
 */
export class ColumnStore {
  private readonly byName = new Map<string, Map<string, Column>>();

  get(name: string, period: string): Column | undefined {
    return this.byName.get(name)?.get(period);
  }

  has(name: string, period: string): boolean {
    return this.byName.get(name)?.has(period) ?? false;
  }

  set(name: string, period: string, col: Column): void {
    let m = this.byName.get(name);
    if (!m) {
      m = new Map();
      this.byName.set(name, m);
    }
    m.set(period, col);
  }

  delete(name: string, period: string): void {
    this.byName.get(name)?.delete(period);
  }

  /** Every stored column as `name@period`. */
  keys(): string[] {
    const out: string[] = [];
    for (const [name, m] of this.byName) for (const p of m.keys()) out.push(`${name}@${p}`);
    return out;
  }

  clear(): void {
    this.byName.clear();
  }
}
