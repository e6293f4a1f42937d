/**
 * Arithmetic strings in test files ("(30_000 - 12_570) * 0.12", "807 * 12"), evaluated as
 * PolicyEngine does with numexpr: Python operators and precedence, true division, `**` power,
 * `%` with the sign of the divisor. Only numbers, operators, parentheses and a few functions are
 * accepted, so nothing in a test file can run code.
 */

const FUNCTIONS: Record<string, (x: number) => number> = {
  abs: Math.abs, sqrt: Math.sqrt, exp: Math.exp, log: Math.log, log10: Math.log10,
  floor: Math.floor, ceil: Math.ceil,
};

type Token = { kind: 'num'; value: number } | { kind: 'op'; value: string } | { kind: 'name'; value: string };

/** Underscores between digits are digit separators (Python syntax), e.g. `12_570`. */
export function removeDigitSeparators(text: string): string {
  return text.replace(/(\d)_(?=\d)/g, '$1');
}

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const pattern = /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|(\*\*|\/\/|[-+*/%()])|([A-Za-z_][A-Za-z0-9_]*))/y;
  let position = 0;
  while (position < text.length) {
    if (/^\s*$/.test(text.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(text);
    if (!match) throw new Error(`unexpected character '${text.slice(position).trim()[0]}'`);
    if (match[1] !== undefined) tokens.push({ kind: 'num', value: Number(match[1]) });
    else if (match[2] !== undefined) tokens.push({ kind: 'op', value: match[2] });
    else tokens.push({ kind: 'name', value: match[3] });
    position = pattern.lastIndex;
  }
  return tokens;
}

class Parser {
  private position = 0;
  constructor(private readonly tokens: Token[]) {}

  parse(): number {
    if (this.tokens.length === 0) throw new Error('empty expression');
    const value = this.sum();
    if (this.position < this.tokens.length) throw new Error(`unexpected '${this.tokens[this.position].value}'`);
    return value;
  }

  private peekOp(...ops: string[]): string | undefined {
    const token = this.tokens[this.position];
    return token && token.kind === 'op' && ops.includes(token.value) ? token.value : undefined;
  }

  private sum(): number {
    let value = this.product();
    for (let op = this.peekOp('+', '-'); op; op = this.peekOp('+', '-')) {
      this.position++;
      const right = this.product();
      value = op === '+' ? value + right : value - right;
    }
    return value;
  }

  private product(): number {
    let value = this.unary();
    for (let op = this.peekOp('*', '/', '//', '%'); op; op = this.peekOp('*', '/', '//', '%')) {
      this.position++;
      const right = this.unary();
      if (op === '*') value *= right;
      else if (op === '/') value /= right;
      else if (op === '//') value = Math.floor(value / right);
      else value = value - right * Math.floor(value / right);
    }
    return value;
  }

  private unary(): number {
    const op = this.peekOp('+', '-');
    if (op) {
      this.position++;
      const value = this.unary();
      return op === '-' ? -value : value;
    }
    return this.power();
  }

  /** `**` binds tighter than a unary minus on its left and is right-associative (Python). */
  private power(): number {
    const base = this.atom();
    if (this.peekOp('**')) {
      this.position++;
      return Math.pow(base, this.unary());
    }
    return base;
  }

  private atom(): number {
    const token = this.tokens[this.position];
    if (!token) throw new Error('the expression ends too early');
    this.position++;
    if (token.kind === 'num') return token.value;
    if (token.kind === 'name') {
      const fn = FUNCTIONS[token.value];
      if (!fn || !this.peekOp('(')) throw new Error(`unknown name '${token.value}'`);
      return fn(this.atom());
    }
    if (token.value === '(') {
      const value = this.sum();
      if (!this.peekOp(')')) throw new Error("missing ')'");
      this.position++;
      return value;
    }
    throw new Error(`unexpected '${token.value}'`);
  }
}

/** Evaluates an arithmetic string; throws an Error whose message says what is wrong. */
export function evaluateArithmetic(text: string): number {
  return new Parser(tokenize(removeDigitSeparators(text))).parse();
}
