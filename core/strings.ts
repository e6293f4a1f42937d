/**
 * String values as integer codes. One table per process, shared by every model and simulation, so
 * a code means the same text in a column, in a compiled formula's literal and in a parameter
 * key table. Append-only: codes are stable for the life of the process. Code 0 is "".
 */
export class StringTable {
  private readonly values: string[] = [''];
  private readonly index = new Map<string, number>([['', 0]]);

  code(text: string): number {
    let c = this.index.get(text);
    if (c === undefined) {
      c = this.values.length;
      this.values.push(text);
      this.index.set(text, c);
    }
    return c;
  }

  /** The code of a text already seen, or -1 (a lookup that must not grow the table). */
  find(text: string): number {
    return this.index.get(text) ?? -1;
  }

  text(code: number): string {
    const t = this.values[code];
    if (t === undefined) throw new Error(`internal: unknown string code ${code}`);
    return t;
  }

  get size(): number {
    return this.values.length;
  }
}

export const strings = new StringTable();
