/**
 * The main loop's code as text: the lines, the mask and the value a kernel's formula compiled to,
 * rewritten before the loop is written out (values sunk to their single use, loads through maps
 * hoisted), and what a mask allows (a shared row list, a test in pre-loops).
 */

/** Rows `j` of a loop where `col[maps[k-1][...maps[0][j]]]` holds (a column read through maps). */
export interface RowsSpec {
  col: string;
  maps: string[];
}

/** A mask that is one column read at the row, directly or through a map to a containing group. */
export function simpleMask(mask: string): RowsSpec | null {
  const m = /^(c\d+)\[(?:(m_\w+)\[i\]|i)\]$/.exec(mask);
  return m && { col: m[1], maps: m[2] ? [m[2]] : [] };
}

export const rowsCall = (r: RowsSpec, n: string) => `P.rowsWhere(${r.col}, [${r.maps.join(', ')}], ${n})`;

/** The mask as pre-loop code, when it reads only columns, constants and maps at the row `i`. */
export const PURE_MASK = /^(?:\s|\bc\d+\b|\bk\d+\b|\bm_\w+\b|\bi\b|\bMath\.\w+\b|\d+(?:\.\d+)?(?:e[+-]?\d+)?|[-+*/%<>=!&|?:()[\],.])*$/;

export interface MainLoop {
  lines: string[];
  maskEnd: number;
  mask: string | null;
  value: string;
}

/** A column or accumulator read through a map at the loop's row: two dependent loads. */
const GATHER = /\b[ac]\d+\[m_\w+\[i\]\]/g;

/**
 * A value read through a map more than once in the main loop (a household's state read by each
 * of a formula's parameter lookups) is loaded once per row, before the mask when the mask reads
 * it, else just after. V8 does not reliably merge the repeated loads itself (a loop with eight
 * reads of one state: about 15 % slower).
 */
export function hoistGathers(main: MainLoop, temp: () => string): MainLoop {
  const uses = new Map<string, { n: number; early: boolean }>();
  const count = (text: string | null, early: boolean) => {
    for (const g of text?.match(GATHER) ?? []) {
      const u = uses.get(g) ?? { n: 0, early: false };
      u.n++;
      u.early ||= early;
      uses.set(g, u);
    }
  };
  main.lines.forEach((l, k) => count(l, k < main.maskEnd));
  count(main.mask, true);
  count(main.value, false);
  const names = new Map<string, string>();
  const early: string[] = [];
  const late: string[] = [];
  for (const [g, u] of uses) {
    if (u.n < 2) continue;
    const v = temp();
    names.set(g, v);
    (u.early ? early : late).push(`const ${v} = ${g};`);
  }
  if (names.size === 0) return main;
  const put = (text: string) => text.replace(GATHER, (g) => names.get(g) ?? g);
  return {
    lines: [...early, ...main.lines.slice(0, main.maskEnd).map(put), ...late, ...main.lines.slice(main.maskEnd).map(put)],
    maskEnd: early.length + main.maskEnd,
    mask: main.mask === null ? null : put(main.mask),
    value: put(main.value),
  };
}

/**
 * Main-loop values used exactly once are written where they are used instead of computed up
 * front: one used in a branch of a condition (a Scottish or a rest-of-UK tax, a means test only
 * claimants reach) is then computed only on the rows that take that branch, and one used after
 * the mask only on the rows the mask keeps. Generated code has no side effects, so moving an
 * expression to its single use never changes a result.
 */
export function sinkSingleUse(lines: string[], maskEnd: number, mask: string | null, value: string): MainLoop {
  const items = lines.map((l) => {
    const m = /^const (\w+) = ([\s\S]*);$/.exec(l);
    if (!m) throw new Error(`internal: unexpected main-loop line ${l}`);
    return { name: m[1], expr: m[2] };
  });
  let end = maskEnd;
  for (let k = items.length - 1; k >= 0; k--) {
    const { name, expr } = items[k];
    const re = new RegExp(`\\b${name}\\b`, 'g');
    const uses = (text: string | null) => (text ? (text.match(re) ?? []).length : 0);
    let total = uses(mask) + uses(value);
    for (let q = k + 1; q < items.length && total < 2; q++) total += uses(items[q].expr);
    if (total !== 1) continue;
    const put = (text: string) => text.replace(re, () => `(${expr})`);
    if (uses(mask)) mask = put(mask!);
    else if (uses(value)) value = put(value);
    else for (let q = k + 1; q < items.length; q++) if (uses(items[q].expr)) items[q].expr = put(items[q].expr);
    items.splice(k, 1);
    if (k < end) end--;
  }
  return { lines: items.map((it) => `const ${it.name} = ${it.expr};`), maskEnd: end, mask, value };
}
