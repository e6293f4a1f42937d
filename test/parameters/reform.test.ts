import { expect } from 'chai';
import { ParameterTree } from '../../parameters/tree';
import { NodeAt, ParameterNode, Reform, ScaleAt } from '../../parameters/types';
import { breakdownValues, expectParameterError, fixture } from './helpers';

const PA = 'gov.hmrc.income_tax.allowances.personal_allowance.amount';
const BASIC = 'gov.hmrc.income_tax.rates.uk[0].rate';

describe('parameters: reforms', () => {
  const base = ParameterTree.loadFolder(fixture('basic'), { breakdownValues });

  it('sets a bracket rate over a period and restores it the day after', () => {
    const r = base.withReform({ [BASIC]: { '2025-01-01.2100-12-31': 0.22 } });
    expect(r.at(BASIC, '2024-12-31')).to.equal(0.2);
    expect(r.at(BASIC, '2025-01-01')).to.equal(0.22);
    expect((r.at('gov.hmrc.income_tax.rates.uk', '2030-04-30') as ScaleAt).values[0]).to.equal(0.22);
    expect(r.at(BASIC, '2101-01-01')).to.equal(0.2);
    expect(base.at(BASIC, '2025-01-01')).to.equal(0.2);
  });

  it('restores the value in force at the end of the period, keeping later written changes', () => {
    const r = base.withReform({ [PA]: { '2020-01-01.2020-12-31': 1 } });
    expect(r.at(PA, '2019-12-31')).to.equal(12500);
    expect(r.at(PA, '2020-06-01')).to.equal(1);
    expect(r.at(PA, '2021-01-01')).to.equal(12500);
    expect(r.at(PA, '2021-04-06')).to.equal(12570);
  });

  it('a single date is open-ended', () => {
    const r = base.withReform({ 'gov.dwp.universal_credit.taper': { '2024-04-01': 0.5 } });
    expect(r.at('gov.dwp.universal_credit.taper', '2024-03-31')).to.equal(0.55);
    expect(r.at('gov.dwp.universal_credit.taper', '2090-01-01')).to.equal(0.5);
  });

  it('a bare value applies from the beginning of time, forever (as in PolicyEngine test inputs)', () => {
    // Reform's type wants period keys; JSON from PolicyEngine clients may send a bare value.
    const r = base.withReform({ [PA]: 0 } as unknown as Reform);
    expect(r.at(PA, '1900-01-01')).to.equal(0);
    expect(r.at(PA, '2027-04-30')).to.equal(0);
  });

  it('applies several periods of one path in order', () => {
    const r = base.withReform({ 'gov.dwp.universal_credit.taper': { '2024-01-01': 0.5, '2026-01-01.2026-12-31': 0.4 } });
    expect(r.at('gov.dwp.universal_credit.taper', '2025-01-01')).to.equal(0.5);
    expect(r.at('gov.dwp.universal_credit.taper', '2026-06-01')).to.equal(0.4);
    expect(r.at('gov.dwp.universal_credit.taper', '2027-01-01')).to.equal(0.5);
  });

  it('reforms booleans, lists and breakdown children; null ends a series', () => {
    const r = base.withReform({
      'gov.flags.winter_fuel.in_effect': { '2025-01-01': true },
      'gov.flags.winter_fuel.qualifying_benefits': { '2025-01-01': ['pension_credit'] },
      'gov.dwp.universal_credit.standard_allowance.COUPLE_YOUNG': { '2025-01-01': 500 },
      'gov.dwp.universal_credit.taper': { '2025-01-01': null },
    });
    expect(r.at('gov.flags.winter_fuel.in_effect', '2025-06-01')).to.equal(true);
    expect(r.at('gov.flags.winter_fuel.qualifying_benefits', '2025-06-01')).to.deep.equal(['pension_credit']);
    expect((r.at('gov.dwp.universal_credit.standard_allowance', '2025-06-01') as NodeAt).children.COUPLE_YOUNG).to.equal(500);
    expectParameterError(() => r.at('gov.dwp.universal_credit.taper', '2025-06-01'), 'no value at 2025-06-01');
  });

  it('shares every untouched object with the base tree', () => {
    const r = base.withReform({ [BASIC]: { '2025-01-01.2100-12-31': 0.22 } });
    const g = (t: ParameterTree, p: string): unknown => t.get(p);
    expect(g(r, 'gov.dwp')).to.equal(g(base, 'gov.dwp'));
    expect(g(r, 'gov.hmrc.income_tax.allowances')).to.equal(g(base, 'gov.hmrc.income_tax.allowances'));
    expect(g(r, 'gov.hmrc.income_tax.rates.uk[1].rate')).to.equal(g(base, 'gov.hmrc.income_tax.rates.uk[1].rate'));
    expect(g(r, 'gov.hmrc.income_tax.rates.uk[0].threshold')).to.equal(g(base, 'gov.hmrc.income_tax.rates.uk[0].threshold'));
    expect(g(r, BASIC)).to.not.equal(g(base, BASIC));
    expect(g(r, 'gov.hmrc')).to.not.equal(g(base, 'gov.hmrc'));
    expect((base.root.children.gov as ParameterNode).children.hmrc).to.equal(g(base, 'gov.hmrc'));
  });

  describe('and uprating', () => {
    it('uprates a reformed base like the baseline', () => {
      const r = base.withReform({ [PA]: { '2021-04-06': 20000 } });
      expect(r.at(PA, '2022-04-01')).to.equal(Math.ceil((20000 * (104 / 101.5)) / 10) * 10);
      expect(base.at(PA, '2022-04-01')).to.equal(12880);
    });

    it('a reform to a far end date stops uprating (as in PolicyEngine, whose uprating starts after the last entry)', () => {
      const r = base.withReform({ [PA]: { '2024-01-01.2100-12-31': 13000 } });
      expect(r.at(PA, '2027-04-30')).to.equal(13000);
      // The restored entry on 2101-01-01 is now the last one: no index date follows it, so the
      // uprated 2022 and 2023 values disappear too, exactly as PolicyEngine computes it.
      expect(r.at(PA, '2023-06-01')).to.equal(12570);
      expect(r.at(PA, '2101-01-01')).to.equal(12570);
    });

    it('a reformed index changes what it uprates in the reformed tree only', () => {
      const r = base.withReform({ 'gov.economy.cpi_index': { '2027-01-01': 130 } });
      expect(r.at(PA, '2027-01-01')).to.equal(Math.ceil((12570 * (130 / 101.5)) / 10) * 10);
      expect(base.at(PA, '2027-04-30')).to.equal(14530);
    });
  });

  describe('fingerprints', () => {
    it('is empty for the baseline and stable for the same reform', () => {
      expect(base.fingerprint()).to.equal('');
      const a = base.withReform({ [PA]: { '2025-01-01': 1 }, [BASIC]: { '2025-01-01': 0.3 } });
      const b = base.withReform({ [BASIC]: { '2025-01-01': 0.3 }, [PA]: { '2025-01-01': 1 } });
      expect(a.fingerprint()).to.match(/^[0-9a-f]{64}$/);
      expect(a.fingerprint()).to.equal(b.fingerprint());
      expect(base.withReform({ [PA]: { '2025-01-01': 2 } }).fingerprint()).to.not.equal(a.fingerprint());
    });

    it('chains reforms, and an empty reform changes nothing', () => {
      const one = base.withReform({ [PA]: { '2025-01-01': 1 } });
      const two = one.withReform({ [BASIC]: { '2025-01-01': 0.3 } });
      expect(two.fingerprint()).to.not.equal(one.fingerprint());
      expect(two.at(PA, '2025-01-01')).to.equal(1);
      expect(base.withReform({})).to.equal(base);
    });
  });

  describe('errors name the path', () => {
    const reform = (r: unknown): ParameterTree => base.withReform(r as Reform);

    it('an unknown path or bracket', () => {
      const err = expectParameterError(() => reform({ 'gov.hmrc.vat': { '2025-01-01': 1 } }), 'reform: unknown parameter gov.hmrc.vat');
      expect(err.path).to.equal('gov.hmrc.vat');
      expectParameterError(() => reform({ 'gov.hmrc.income_tax.rates.uk[7].rate': 0.1 }), 'unknown parameter gov.hmrc.income_tax.rates.uk[7].rate');
      expectParameterError(() => reform({ 'gov.hmrc.income_tax.rates.uk[0].bogus': 0.1 }), 'unknown parameter gov.hmrc.income_tax.rates.uk[0].bogus');
    });

    it('a path that is not a single series', () => {
      expectParameterError(() => reform({ 'gov.hmrc.income_tax.rates.uk': 0.1 }), 'reform: gov.hmrc.income_tax.rates.uk: is a scale, not a single series');
      expectParameterError(() => reform({ 'gov.flags': 0.1 }), 'reform: gov.flags: is a node');
    });

    it('a value of the wrong type', () => {
      expectParameterError(() => reform({ [PA]: { '2025-01-01': '13000' } }), `reform: ${PA}: expected a number, got "13000"`);
      expectParameterError(() => reform({ [PA]: { '2025-01-01': true } }), 'expected a number, got true');
      expectParameterError(() => reform({ 'gov.flags.winter_fuel.in_effect': 1 }), 'reform: gov.flags.winter_fuel.in_effect: expected true/false, got 1');
      expectParameterError(() => reform({ 'gov.flags.winter_fuel.qualifying_benefits': 'x' }), 'expected a list of text');
      expectParameterError(() => reform({ [PA]: { '2025-01-01': { value: 1 } } }), `reform: ${PA}: has a value of the wrong type or shape`);
    });

    it('a bad period key', () => {
      expectParameterError(() => reform({ [PA]: { '2025': 1 } }), `reform: ${PA}: bad period "2025"`);
      expectParameterError(() => reform({ [PA]: { '2025-01-01.2025-13-01': 1 } }), 'bad period "2025-01-01.2025-13-01"');
      expectParameterError(() => reform({ [PA]: { '2025-01-01.2024-01-01': 1 } }), 'period "2025-01-01.2024-01-01" ends before it starts');
    });

    it('a reform that is not an object', () => {
      expectParameterError(() => reform(null), 'reform: must be an object of parameter paths');
      expectParameterError(() => reform([1]), 'reform: must be an object of parameter paths');
    });
  });
});
