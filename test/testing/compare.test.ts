import { expect } from 'chai';
import { compareValue, formatNumber } from '../../core/testing/compare';

describe('testing/compare', () => {
  it('default absolute margin 0.001', () => {
    expect(compareValue('float', 100.0005, 100, { absolute: 0.001 })).to.equal(null);
    expect(compareValue('float', 100.01, 100, { absolute: 0.001 })).to.equal('differs by 0.01 (absolute margin 0.001)');
  });

  it('relative margin is relative to the expected value; both margins must hold', () => {
    expect(compareValue('float', 104, 100, { relative: 0.05 })).to.equal(null);
    expect(compareValue('float', 106, 100, { relative: 0.05 })).to.equal('differs by 6 (relative margin 0.05)');
    expect(compareValue('float', 104, 100, { absolute: 1, relative: 0.05 })).to.equal('differs by 4 (absolute margin 1 and relative margin 0.05)');
  });

  it('accepts a float result whose float32 rounding is within the margin', () => {
    // 16_777_217 is not representable in float32: PolicyEngine would store 16_777_216.
    expect(compareValue('float', 16_777_217, 16_777_216, { absolute: 0 })).to.equal(null);
    expect(compareValue('int', 16_777_217, 16_777_216, { absolute: 0 })).to.equal('differs by 1 (absolute margin 0)');
  });

  it('booleans compare as 1/0; enums and strings compare as text', () => {
    expect(compareValue('bool', true, 1, { absolute: 0.001 })).to.equal(null);
    expect(compareValue('bool', 0, 1, { absolute: 0.001 })).to.equal('differs by 1 (absolute margin 0.001)');
    expect(compareValue('enum', 'SINGLE', 'SINGLE', {})).to.equal(null);
    expect(compareValue('enum', 'JOINT', 'SINGLE', {})).to.equal('got "JOINT", expected "SINGLE"');
    expect(compareValue('string', '02020', '02020', {})).to.equal(null);
  });

  it('NaN never passes', () => {
    expect(compareValue('float', NaN, 0, { absolute: 1 })).to.equal('the result is not a number');
  });

  it('formats numbers briefly', () => {
    expect(formatNumber(3)).to.equal('3');
    expect(formatNumber(0.1 + 0.2)).to.equal('0.3');
  });
});
