import { expect } from 'chai';
import { normalizeCase, OVERRIDE_SPAN } from '../../core/testing/normalize';
import { loaded, model } from './helpers';

const norm = (raw: Record<string, unknown>) => normalizeCase(model, loaded(raw));

describe('testing/normalize: situation', () => {
  it('flat form: one person and one instance of every group, inputs on their own entity', () => {
    const c = norm({ name: 'flat', period: 2024, input: { employment_income: '30_000 + 5', region: 'SCOTLAND' }, output: { income_tax: 100 } });
    expect(c.errors).to.deep.equal([]);
    expect(c.runnable).to.equal(true);
    expect(c.persons).to.deep.equal(['0']);
    expect(c.groups).to.deep.equal({ benunit: [{ id: '0', members: ['0'] }], household: [{ id: '0', members: ['0'] }] });
    expect(c.inputs).to.deep.equal([
      { entityKey: 'person', instanceIndex: 0, variable: 'employment_income', period: '2024', value: 30005 },
      { entityKey: 'household', instanceIndex: 0, variable: 'region', period: '2024', value: 'SCOTLAND' },
    ]);
    expect(c.reformKey).to.equal('');
    expect(c.margins).to.deep.equal({ absolute: 0.001 });
  });

  it('flat form with a list first: that many persons, each in their own groups', () => {
    const c = norm({ period: 2024, input: { employment_income: [10, 20], region: 'WALES' }, output: { income_tax: [1, 2] } });
    expect(c.errors).to.deep.equal([]);
    expect(c.persons).to.deep.equal(['0', '1']);
    expect(c.groups.household).to.deep.equal([{ id: '0', members: ['0'] }, { id: '1', members: ['1'] }]);
    expect(c.inputs.map((i) => [i.variable, i.instanceIndex, i.value])).to.deep.equal([
      ['employment_income', 0, 10], ['employment_income', 1, 20], ['region', 0, 'WALES'], ['region', 1, 'WALES'],
    ]);
    expect(c.outputs.map((o) => [o.instanceIndex, o.expected])).to.deep.equal([[0, 1], [1, 2]]);
  });

  it('entity form: the only instance of a group declared without members holds everyone', () => {
    const c = norm({
      period: 2024,
      input: { people: { a: { age: 30 }, b: { age: 4 } }, households: { home: { region: 'WALES' } } },
      output: { income_tax: 0 },
    });
    expect(c.errors).to.deep.equal([]);
    expect(c.groups.household).to.deep.equal([{ id: 'home', members: ['a', 'b'] }]);
  });

  it('entity form: people, plural groups, a missing group entity is one instance holding everyone', () => {
    const c = norm({
      period: 2024,
      input: {
        people: { adult: { age: 30 }, child: { age: 4, is_adult: false } },
        benunits: { family: { members: ['adult', 'child'], benunit_income: 100 } },
      },
      output: { income_tax: 0 },
    });
    expect(c.errors).to.deep.equal([]);
    expect(c.persons).to.deep.equal(['adult', 'child']);
    expect(c.groups).to.deep.equal({
      benunit: [{ id: 'family', members: ['adult', 'child'] }],
      household: [{ id: 'household', members: ['adult', 'child'] }],
    });
    expect(c.inputs).to.deep.include({ entityKey: 'benunit', instanceIndex: 0, variable: 'benunit_income', period: '2024', value: 100 });
    expect(c.inputs).to.deep.include({ entityKey: 'person', instanceIndex: 1, variable: 'is_adult', period: '2024', value: false });
  });

  it('a person left out of a mentioned group entity gets an instance of their own', () => {
    const c = norm({
      period: 2024,
      input: { people: { a: {}, b: {}, c: {} }, benunits: { bu: { members: ['b'] } } },
      output: { income_tax: 0 },
    });
    expect(c.groups.benunit).to.deep.equal([{ id: 'bu', members: ['b'] }, { id: 'a', members: ['a'] }, { id: 'c', members: ['c'] }]);
  });

  it('singular shortcut: household: {members, vars} is one instance named household; flat keys beside it are dropped', () => {
    const c = norm({
      period: 2024,
      input: { people: { p: { age: 40 } }, household: { members: ['p'], region: 'WALES' }, employment_income: 5 },
      output: { household: { household_net_income: 0 } },
    });
    expect(c.errors).to.deep.equal([]);
    expect(c.groups.household).to.deep.equal([{ id: 'household', members: ['p'] }]);
    expect(c.inputs.map((i) => i.variable)).to.deep.equal(['age', 'region']);
    expect(c.outputs).to.deep.equal([{ variable: 'household_net_income', entityKey: 'household', instanceIndex: null, period: '2024', expected: 0, path: 'output/household/household_net_income' }]);
  });

  it('members written as a single id or numbers are read as ids', () => {
    const c = norm({ period: 2024, input: { people: { 1: {}, 2: {} }, benunits: { b: { members: 1 }, c: { members: [2] } } }, output: { income_tax: 0 } });
    expect(c.groups.benunit).to.deep.equal([{ id: 'b', members: ['1'] }, { id: 'c', members: ['2'] }]);
  });

  it('inputs per period, including months and prefixed forms', () => {
    const c = norm({ period: '2024-01', input: { monthly_pay: { '2024-01': 100, 'month:2024-02': 50, 2023: '1_200' } }, output: { income_tax: 0 } });
    expect(c.period).to.equal('2024-01');
    expect(c.inputs.map((i) => [i.period, i.value])).to.have.deep.members([['2024-01', 100], ['2024-02', 50], ['2023', 1200]]);
  });

  it('null inputs are skipped, as if not given', () => {
    const c = norm({ period: 2024, input: { people: { p: { age: null, employment_income: { 2024: null } } } }, output: { income_tax: 0 } });
    expect(c.inputs).to.deep.equal([]);
  });

  it('typed values: ints truncated, bools from numbers, enums from index, strings kept', () => {
    const c = norm({ period: 2024, input: { people: { p: { age: 30.7, is_adult: 1, postcode: '02020', tax_band: 2 } } }, output: { income_tax: 0 } });
    expect(c.inputs.map((i) => i.value)).to.deep.equal([30, true, '02020', 'HIGHER']);
  });

  it('dotted input keys become a reform over 2000-2039 and a stable reform key', () => {
    const a = norm({ period: 2024, input: { 'gov.b.x': 1, 'gov.a.rates[0].rate': 0.25, employment_income: 5 }, output: { income_tax: 0 } });
    const b = norm({ period: 2024, input: { 'gov.a.rates[0].rate': 0.25, 'gov.b.x': 1 }, output: { income_tax: 0 } });
    expect(OVERRIDE_SPAN).to.equal('2000-01-01.2039-12-31');
    expect(a.reform).to.deep.equal({ 'gov.b.x': { [OVERRIDE_SPAN]: 1 }, 'gov.a.rates[0].rate': { [OVERRIDE_SPAN]: 0.25 } });
    expect(a.reformKey).to.equal(b.reformKey);
    expect(a.reformKey).to.not.equal('');
    expect(a.inputs.map((i) => i.variable)).to.deep.equal(['employment_income']);
  });

  it('a case without period uses the current year, as PolicyEngine does', () => {
    expect(norm({ input: { age: 3 }, output: { age: 3 } }).period).to.equal(String(new Date().getFullYear()));
  });
});

describe('testing/normalize: outputs', () => {
  const entityInput = { people: { a: {}, b: {} }, benunits: { bu1: { members: ['a'] }, bu2: { members: ['b'] } } };

  it('a scalar checks every instance; a list gives one value per instance in order', () => {
    const c = norm({ period: 2024, input: entityInput, output: { income_tax: '10 * 2', benunit_income: [1, 2] } });
    expect(c.outputs).to.deep.equal([
      { variable: 'income_tax', entityKey: 'person', instanceIndex: null, period: '2024', expected: 20, path: 'output/income_tax' },
      { variable: 'benunit_income', entityKey: 'benunit', instanceIndex: 0, period: '2024', expected: 1, path: 'output/benunit_income[0]' },
      { variable: 'benunit_income', entityKey: 'benunit', instanceIndex: 1, period: '2024', expected: 2, path: 'output/benunit_income[1]' },
    ]);
  });

  it('per-entity outputs name an instance by id; periods inside', () => {
    const c = norm({ period: 2024, input: entityInput, output: { people: { b: { age: 5, employment_income: { '2023': 7 } } }, benunits: { bu1: { benunit_income: 3 } } } });
    expect(c.errors).to.deep.equal([]);
    expect(c.outputs.map((o) => [o.variable, o.entityKey, o.instanceIndex, o.period, o.expected])).to.deep.equal([
      ['age', 'person', 1, '2024', 5], ['employment_income', 'person', 1, '2023', 7], ['benunit_income', 'benunit', 0, '2024', 3],
    ]);
  });

  it('bools and enums: booleans as 1/0, enum names kept', () => {
    const c = norm({ period: 2024, input: { age: 1 }, output: { is_adult: false, region: 'LONDON', tax_band: 'BASIC' } });
    expect(c.outputs.map((o) => o.expected)).to.deep.equal([0, 'LONDON', 'BASIC']);
  });

  it('margins: given absolute and relative are both kept, no default then', () => {
    expect(norm({ period: 2024, absolute_error_margin: 1, relative_error_margin: 0.1, output: { age: 1 } }).margins).to.deep.equal({ absolute: 1, relative: 0.1 });
    expect(norm({ period: 2024, relative_error_margin: 0.1, output: { age: 1 } }).margins).to.deep.equal({ relative: 0.1 });
  });

  it('ignore_variables and only_variables drop checks', () => {
    expect(norm({ period: 2024, ignore_variables: ['age'], output: { age: 1, income_tax: 2 } }).outputs.map((o) => o.variable)).to.deep.equal(['income_tax']);
    expect(norm({ period: 2024, only_variables: ['age'], output: { age: 1, income_tax: 2 } }).outputs.map((o) => o.variable)).to.deep.equal(['age']);
  });
});

describe('testing/normalize: errors name the place', () => {
  const err = (raw: Record<string, unknown>) => {
    const c = norm(raw);
    return { errors: c.errors, runnable: c.runnable };
  };

  it('unknown input variable makes the case unrunnable', () => {
    expect(err({ period: 2024, input: { salary: 1 }, output: { age: 1 } })).to.deep.equal({ errors: ['input/salary: unknown variable salary'], runnable: false });
  });

  it('unknown output variable fails the case but the case still runs', () => {
    expect(err({ period: 2024, input: { age: 1 }, output: { wealth: 1, age: 1 } })).to.deep.equal({ errors: ['output/wealth: unknown variable wealth'], runnable: true });
  });

  it('a variable given on the wrong entity', () => {
    expect(err({ period: 2024, input: { people: { p: { region: 'WALES' } } }, output: { age: 1 } }).errors)
      .to.deep.equal(['input/people/p/region: region is a household variable, it cannot be given for a person']);
  });

  it('unknown and duplicate members', () => {
    expect(err({ period: 2024, input: { people: { p: {} }, benunits: { b: { members: ['p', 'q'] }, c: { members: ['p'] } } }, output: { age: 1 } }).errors).to.deep.equal([
      'input/benunits/b/members: q is not declared in people',
      'input/benunits/c/members: p is declared more than once in benunits',
    ]);
  });

  it('entity form without people, and a flat key beside plural entities', () => {
    expect(err({ period: 2024, input: { benunits: { b: { members: [] } } }, output: { age: 1 } }).errors).to.deep.equal(['input/people: at least one person must be defined']);
    expect(err({ period: 2024, input: { people: { p: {} }, age: 3 }, output: { age: 1 } }).errors[0])
      .to.equal("input/age: 'age' is neither an entity (people, benunits, households) nor allowed next to them; give variables inside an entity");
  });

  it('bad values: enum names, numbers, booleans, list lengths', () => {
    expect(err({ period: 2024, input: { region: 'MARS' }, output: { age: 1 } }).errors)
      .to.deep.equal(["input/region: 'MARS' is not a possible value of region (possible values: LONDON, SCOTLAND, WALES)"]);
    expect(err({ period: 2024, input: { age: 'ten' }, output: { age: 1 } }).errors)
      .to.deep.equal(["input/age: cannot read 'ten' as a number for age (int): unknown name 'ten'"]);
    expect(err({ period: 2024, input: { is_adult: 'maybe' }, output: { age: 1 } }).errors)
      .to.deep.equal(['input/is_adult: is_adult (bool) expects true or false, got "maybe"']);
    expect(err({ period: 2024, input: { age: [1, 2], region: ['WALES'] }, output: { age: 1 } }).errors)
      .to.deep.equal(['input/region: 1 values given for 2 instances']);
  });

  it('bad periods in the case, in inputs and in outputs', () => {
    expect(err({ period: '2024-13', output: { age: 1 } }).errors).to.deep.equal(["period: period '2024-13' has no month 13"]);
    expect(err({ period: 2024, input: { age: { '2024-01-05': 1 } }, output: { age: 1 } }).errors)
      .to.deep.equal(['input/age/2024-01-05: period \'2024-01-05\' is a day: tests use a year ("2024") or a month ("2024-01")']);
    expect(err({ period: 2024, output: { age: { soon: 1 } } }).errors)
      .to.deep.equal(['output/age/soon: cannot read \'soon\' as a period: use a year ("2024") or a month ("2024-01")']);
  });

  it('bad expected values and list lengths', () => {
    expect(err({ period: 2024, output: { region: 'MARS' } }).errors)
      .to.deep.equal(["output/region: 'MARS' is not a possible value of region (possible values: LONDON, SCOTLAND, WALES)"]);
    expect(err({ period: 2024, output: { region: 3 } }).errors)
      .to.deep.equal(['output/region: region is an enum: expected a name (LONDON, SCOTLAND, WALES), got 3']);
    expect(err({ period: 2024, output: { age: null } }).errors).to.deep.equal(['output/age: no expected value']);
    expect(err({ period: 2024, output: { age: [1, 2, 3] } }).errors).to.deep.equal(['output/age: 3 expected values given for 1 person instance']);
  });

  it('per-entity outputs: unknown instance, wrong entity, not a mapping, unknown key', () => {
    const input = { people: { a: {} } };
    expect(err({ period: 2024, input, output: { people: { z: { age: 1 } } } }).errors).to.deep.equal(["output/people/z: no person 'z' in the input (there are: a)"]);
    expect(err({ period: 2024, input, output: { people: { a: { region: 'WALES' } } } }).errors)
      .to.deep.equal(['output/people/a/region: region is a household variable, it cannot be checked for a person']);
    expect(err({ period: 2024, input, output: { people: 3 } }).errors).to.deep.equal(['output/people: expected a mapping of people ids']);
    expect(err({ period: 2024, input, output: { household: 3 } }).errors).to.deep.equal(['output/household: expected a mapping of variables']);
  });

  it('Python reforms and extensions cannot run', () => {
    expect(err({ period: 2024, reforms: 'policyengine_uk.reforms.x', output: { age: 1 } })).to.deep.equal({
      errors: ['reforms: Python reform classes cannot run here (policyengine_uk.reforms.x); write the change as inline parameter overrides'],
      runnable: false,
    });
    expect(err({ period: 2024, extensions: ['ext'], output: { age: 1 } }).errors).to.deep.equal(['extensions: not supported (ext)']);
  });
});
