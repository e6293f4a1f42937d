import { expect } from 'chai';
import { ParameterTree } from '../../parameters/tree';
import { expectParameterError, fixture } from './helpers';

/** Builds `obj` as the file f.yaml at gov.p; errors must name the file and the key. */
function build(obj: unknown): ParameterTree {
  return ParameterTree.fromObject(obj, 'gov.p', 'f.yaml');
}

const rate = (v: unknown): unknown => ({ '2020-01-01': v });

describe('parameters: file validation', () => {
  describe('leaves', () => {
    it('rejects an unknown top-level key', () => {
      const err = expectParameterError(() => build({ values: rate(1), unit: 'x' }), 'f.yaml: gov.p.unit: unknown key "unit"');
      expect(err.file).to.equal('f.yaml');
    });

    it('rejects an unknown metadata key but accepts PolicyEngine metadata keys', () => {
      expectParameterError(() => build({ values: rate(1), metadata: { labl: 'x' } }), 'f.yaml: gov.p.metadata.labl: unknown key "labl"');
      const meta = {
        unit: 'currency-GBP', label: 'x', period: 'year', name: 'x', economy: true, household: false,
        reference: [{ title: 't', href: 'https://example.org' }], tests: [{ period: 2022 }],
        breakdown_labels: ['Status'], documentation: 'd', description: 'd',
      };
      expect(build({ values: rate(1), metadata: meta }).get('gov.p').metadata.economy).to.equal(true);
    });

    it('rejects a metadata key of the wrong type', () => {
      expectParameterError(() => build({ values: rate(1), metadata: { economy: 'yes please' } }), 'gov.p.metadata.economy: must be boolean');
    });

    it('rejects dates that are not calendar dates or not YYYY-MM-DD', () => {
      expectParameterError(() => build({ values: { '2021-13-01': 1 } }), 'f.yaml: gov.p.values.2021-13-01: bad date key "2021-13-01" (not a calendar date)');
      expectParameterError(() => build({ values: { '2021-02-29': 1 } }), 'bad date key "2021-02-29"');
      expectParameterError(() => build({ values: { '2021-4-6': 1 } }), 'f.yaml: gov.p.values.2021-4-6: bad date key "2021-4-6" (expected YYYY-MM-DD)');
    });

    it('accepts 29 February in a leap year and the year 0000', () => {
      const t = build({ values: { '0000-01-01': 1, '2024-02-29': 2 } });
      expect(t.at('gov.p', '1990-01-01')).to.equal(1);
      expect(t.at('gov.p', '2024-03-01')).to.equal(2);
    });

    it('rejects a dated shorthand mixed with other keys', () => {
      expectParameterError(() => build({ '2021-01-01': 1, foo: 2 }), 'f.yaml: gov.p.foo: bad date key "foo"');
      expectParameterError(() => build({ '2021-01-01': 1, metadata: {} }), 'gov.p.metadata: dated values must go under "values:"');
    });

    it('rejects values of a type parameters cannot hold', () => {
      expectParameterError(() => build({ values: { '2020-01-01': { value: { x: 1 } } } }), 'gov.p.values.2020-01-01.value: must be a number');
      expectParameterError(() => build({ values: { '2020-01-01': [1, true] } }), 'gov.p.values.2020-01-01[1]: must be text or number');
      expectParameterError(() => build({ values: { '2020-01-01': { a: 1 } } }), 'gov.p.values.2020-01-01.a: unknown key "a"');
      expectParameterError(() => build({ values: { '2020-01-01': { metadata: {} } } }), 'gov.p.values.2020-01-01: missing key "value"');
    });

    it('rejects a series mixing kinds of values', () => {
      expectParameterError(
        () => build({ values: { '2020-01-01': 1, '2021-01-01': true } }),
        'f.yaml: gov.p.values.2021-01-01: mixes number and bool values in one series',
      );
    });
  });

  describe('scales', () => {
    const bracket = (t: unknown, r: unknown): unknown => ({ threshold: rate(t), rate: rate(r) });

    it('rejects a threshold that is not a number', () => {
      expectParameterError(
        () => build({ brackets: [{ threshold: { values: rate('abc') }, rate: { values: rate(0.1) } }] }),
        'f.yaml: gov.p.brackets[0].threshold.values.2020-01-01: must be a number',
      );
      expectParameterError(() => build({ brackets: [bracket(0, '10%')] }), 'gov.p.brackets[0].rate.2020-01-01: must be a number');
    });

    it('accepts -.inf and .inf thresholds', () => {
      const t = build({ brackets: [bracket(-Infinity, 0.1), bracket(Infinity, 0.2)] });
      expect(t.at('gov.p', '2021-01-01')).to.deep.include({ thresholds: [-Infinity, Infinity] });
    });

    it('rejects unknown bracket keys and a bracket without threshold', () => {
      expectParameterError(() => build({ brackets: [{ ...(bracket(0, 0.1) as object), foo: 1 }] }), 'gov.p.brackets[0].foo: unknown key "foo"');
      expectParameterError(() => build({ brackets: [{ rate: rate(0.1) }] }), 'gov.p.brackets[0]: missing key "threshold"');
      expectParameterError(() => build({ brackets: [] }), 'gov.p.brackets: a scale needs at least one bracket');
    });

    it('rejects inconsistent brackets', () => {
      expectParameterError(
        () => build({ brackets: [bracket(0, 0.1), { threshold: rate(10), amount: rate(5) }] }),
        'f.yaml: gov.p: inconsistent brackets: the scale has both rate and amount',
      );
      expectParameterError(() => build({ brackets: [bracket(0, 0.1), { threshold: rate(10) }] }), 'gov.p[1]: inconsistent brackets: missing "rate"');
      expectParameterError(() => build({ brackets: [{ threshold: rate(10) }] }), 'the scale has no rate, amount or average_rate');
    });

    it('rejects a declared type that does not fit the brackets, or an unknown type', () => {
      expectParameterError(
        () => build({ metadata: { type: 'single_amount' }, brackets: [bracket(0, 0.1)] }),
        'gov.p.metadata.type: type single_amount needs "amount" in every bracket, not "rate"',
      );
      expectParameterError(() => build({ metadata: { type: 'flat' }, brackets: [bracket(0, 0.1)] }), 'gov.p.metadata.type: must be one of "marginal_rate"');
    });

    it('rejects thresholds that decrease at some date', () => {
      expectParameterError(
        () => build({ brackets: [bracket(100, 0.1), { threshold: { '2020-01-01': 200, '2022-01-01': 50 }, rate: rate(0.2) }] }),
        'f.yaml: gov.p[1].threshold: thresholds are not ascending at 2022-01-01: 50 after 100 in bracket [0]',
      );
    });

    it('accepts true/false amounts only in single_amount scales', () => {
      expectParameterError(
        () => build({ brackets: [{ threshold: rate(0), amount: rate(true) }] }),
        'gov.p[0].amount: true/false amounts need type single_amount (this scale is marginal_amount)',
      );
      const t = build({ metadata: { type: 'single_amount' }, brackets: [{ threshold: rate(0), amount: rate(false) }, { threshold: rate(18), amount: rate(true) }] });
      expect(t.at('gov.p', '2021-01-01')).to.deep.equal({
        kind: 'scale', scaleKind: 'single_amount', thresholds: [0, 18], values: [0, 1], boolValues: true,
      });
    });

    it('defaults the scale type from the brackets as PolicyEngine does', () => {
      expect((build({ brackets: [bracket(0, 0.1)] }).get('gov.p') as { scaleKind: string }).scaleKind).to.equal('marginal_rate');
      expect((build({ brackets: [{ threshold: rate(0), amount: rate(5) }] }).get('gov.p') as { scaleKind: string }).scaleKind).to.equal('marginal_amount');
      const avg = build({ brackets: [{ threshold: rate(0), average_rate: rate(0.1), base: rate(2) }] });
      expect(avg.at('gov.p', '2021-01-01')).to.deep.equal({ kind: 'scale', scaleKind: 'average_rate', thresholds: [0], values: [0.2] });
    });

    it('leaves out brackets that are not in force at the instant', () => {
      const t = build({ brackets: [bracket(0, 0.1), { threshold: { '2022-01-01': 10 }, rate: rate(0.2) }] });
      expect(t.at('gov.p', '2021-01-01')).to.deep.include({ thresholds: [0], values: [0.1] });
      expect(t.at('gov.p', '2022-01-01')).to.deep.include({ thresholds: [0, 10], values: [0.1, 0.2] });
      expectParameterError(() => t.at('gov.p', '2019-01-01'), 'gov.p: no value at 2019-01-01');
    });
  });

  describe('nodes and uprating references', () => {
    it('rejects a child that is not a mapping, or a bad child name', () => {
      expectParameterError(() => build({ a: 5 }), 'f.yaml: gov.p.a: must be a mapping');
      expectParameterError(() => build({ 'a b': rate(1) }), 'gov.p.a b: "a b" cannot be a parameter name');
    });

    it('rejects uprating forms it does not support', () => {
      expectParameterError(() => build({ values: rate(1), metadata: { uprating: 'self' } }), 'gov.p.metadata.uprating: "self" uprating is not supported');
      expectParameterError(
        () => build({ values: rate(1), metadata: { uprating: { parameter: 'x', at_defined_interval: {} } } }),
        'gov.p.metadata.uprating: at_defined_interval is not supported',
      );
      expectParameterError(
        () => build({ values: rate(1), metadata: { uprating: { parameter: 'x', rounding: { type: 'sideways', interval: 1 } } } }),
        'gov.p.metadata.uprating.rounding.type: must be one of "downwards", "upwards", "nearest"',
      );
    });

    it('rejects an uprating index that does not exist or is not a series', () => {
      const leaf = (index: string): unknown => ({ p: { values: rate(1), metadata: { uprating: index } } });
      expectParameterError(() => ParameterTree.fromObject(leaf('gov.nothing'), 'gov', 'f.yaml'), 'f.yaml: gov.p.metadata.uprating: index gov.nothing does not exist');
      expectParameterError(() => ParameterTree.fromObject(leaf('gov'), 'gov', 'f.yaml'), 'index gov is a node, not a series');
    });
  });

  describe('folders', () => {
    const load = (name: string): ParameterTree => ParameterTree.loadFolder(fixture('errors', name));

    it('rejects a name defined both by a file and a folder', () => {
      expectParameterError(() => load('duplicate'), 'gov.tax is also defined by');
    });

    it('reports invalid YAML with the file', () => {
      expectParameterError(() => load('bad_yaml'), 'bad_yaml/gov/rate.yaml: invalid YAML');
    });

    it('rejects an empty file', () => {
      expectParameterError(() => load('empty_file'), 'empty_file/gov/rate.yaml: gov.rate: is empty');
    });

    it('rejects unknown keys in index.yaml', () => {
      expectParameterError(() => load('bad_index'), 'bad_index/gov/index.yaml: gov.label: unknown key "label"');
    });

    it('rejects a file name that cannot be a path step', () => {
      expectParameterError(() => load('bad_name'), 'gov/my.rate.yaml', '"my.rate" cannot be a parameter name');
    });

    it('rejects a missing folder', () => {
      expectParameterError(() => load('nope'), 'parameter folder not found');
    });
  });
});

describe('parameters: PolicyEngine metadata keys', () => {
  it('accepts references, breakdowns and breakdown_label as notes and still rejects typos', () => {
    const ok = { metadata: { unit: 'USD', references: [{ title: 'x', href: 'https://example.org' }], breakdowns: ['filing_status'], breakdown_label: ['Filing status'] }, values: { '2020-01-01': 1 } };
    expect(() => ParameterTree.fromObject(ok, 'gov.x', 'x.yaml')).not.to.throw();
    const typo = { metadata: { refrence: 'x' }, values: { '2020-01-01': 1 } };
    expect(() => ParameterTree.fromObject(typo, 'gov.x', 'x.yaml')).to.throw(/refrence/);
  });
});
