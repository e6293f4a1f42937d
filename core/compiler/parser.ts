/**
 * mathjs is only our parser. Its type declarations resolve as an ES module under node16
 * resolution, so we declare the small node shape we walk ourselves.
 */
export interface MathNode {
  type: string;
  toString(): string;
  [key: string]: unknown;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const mathjs = require('mathjs') as { parse(text: string): MathNode };

export function parse(text: string): MathNode {
  return mathjs.parse(text);
}
