import { expect } from 'chai';
import { evaluateArithmetic, removeDigitSeparators } from '../../core/testing/arithmetic';

describe('testing/arithmetic', () => {
  it('evaluates test-file arithmetic with digit separators', () => {
    expect(evaluateArithmetic('(30_000 - 12_570) * 0.12')).to.be.closeTo(2091.6, 1e-9);
    expect(evaluateArithmetic('807 * 12')).to.equal(9684);
    expect(evaluateArithmetic('1_768.94 * 12')).to.be.closeTo(21227.28, 1e-9);
    expect(evaluateArithmetic('100e6')).to.equal(1e8);
  });

  it('follows Python precedence and operators', () => {
    expect(evaluateArithmetic('-2 ** 2')).to.equal(-4);
    expect(evaluateArithmetic('2 ** 3 ** 2')).to.equal(512);
    expect(evaluateArithmetic('7 / 2')).to.equal(3.5);
    expect(evaluateArithmetic('7 // 2')).to.equal(3);
    expect(evaluateArithmetic('-7 % 3')).to.equal(2);
    expect(evaluateArithmetic('1 + 2 * 3 - 4 / 2')).to.equal(5);
    expect(evaluateArithmetic('abs(-3) + sqrt(16)')).to.equal(7);
  });

  it('removes underscores only between digits', () => {
    expect(removeDigitSeparators('12_570 + a_b')).to.equal('12570 + a_b');
  });

  it('rejects names, unknown characters and broken expressions with a reason', () => {
    expect(() => evaluateArithmetic('SINGLE')).to.throw("unknown name 'SINGLE'");
    expect(() => evaluateArithmetic('2 ^ 3')).to.throw("unexpected character '^'");
    expect(() => evaluateArithmetic('(1 + 2')).to.throw("missing ')'");
    expect(() => evaluateArithmetic('1 +')).to.throw('the expression ends too early');
    expect(() => evaluateArithmetic('1 2')).to.throw("unexpected '2'");
    expect(() => evaluateArithmetic('  ')).to.throw('empty expression');
    expect(() => evaluateArithmetic('__import__(1)')).to.throw("unknown name '__import__'");
  });
});
