import { expect } from 'chai';
import { EngineError } from '../../core/types';
import { fixtureModel, miniModel, sim } from './helpers';

const f = (formula: string, extra: object = {}) => ({ entity: 'person', period: 'year', type: 'float', formula, ...extra });
const input = (type = 'float', entity = 'person', extra: object = {}) => ({ entity, period: 'year', type, ...extra });

function values(model: ReturnType<typeof miniModel>, people: string[], inputs: Record<string, unknown[]>, out: string, period = '2025', groups = {}) {
  const s = sim(model, people, groups);
  for (const [k, v] of Object.entries(inputs)) s.setInput(k, period, v as number[]);
  return s.decode(out, s.calculate(out, period));
}

describe('core: expression compiler', () => {
  it('evaluates arithmetic, comparisons, logic and functions row by row', () => {
    const m = miniModel({
      x: input(),
      y: input(),
      z: f('max(0, x - y) * 2 + abs(y) / 4 - min(x, y, 3) + clip(x, 1, 2) + (x > y and not (y > 5) ? 100 : 0)'),
      r: f('round(x / 3, 2) + floor(y / 4) + ceil(0.2) + sqrt(16) + 2 ^ 3 + x % 3'),
      i: f('if(x > 1, where(y > 1, 1, 2), select(y == 0, 3, y == 1, 4, 5))'),
    });
    expect(values(m, ['a', 'b'], { x: [10, -1], y: [2, 8] }, 'z')).to.deep.equal([
      16 + 0.5 - 2 + 2 + 100,
      0 + 2 - (-1) + 1 + 0,
    ]);
    expect(values(m, ['a', 'b'], { x: [10, -1], y: [2, 8] }, 'r')).to.deep.equal([3.33 + 0 + 1 + 4 + 8 + 1, -0.33 + 2 + 1 + 4 + 8 + 2]);
    expect(values(m, ['a', 'b', 'c', 'd'], { x: [2, 2, 0, 0], y: [2, 0, 0, 1] }, 'i')).to.deep.equal([1, 2, 3, 4]);
  });

  it('rounds half to even like numpy and takes floor modulo', () => {
    const m = miniModel({ x: input(), r: f('round(x)'), md: f('x % 3') });
    expect(values(m, ['a', 'b', 'c'], { x: [2.5, 3.5, -2.5] }, 'r')).to.deep.equal([2, 4, -2]);
    expect(values(m, ['a'], { x: [-1] }, 'md')).to.deep.equal([2]);
  });

  it('binds local names in multi-statement bodies, also across aggregation loops', () => {
    const m = miniModel({
      x: input(),
      a: f('excess = max(0, x - 100); half = excess / 2; 50 - min(50, half)'),
      g: { entity: 'family', period: 'year', type: 'float', formula: 'cap = 10; s = sum(min(x, cap)); s * 2' },
      h: f('limit = 5; family.count(x > limit)'),
    });
    expect(values(m, ['a', 'b'], { x: [120, 300] }, 'a')).to.deep.equal([40, 0]);
    expect(values(m, ['a', 'b'], { x: [120, 3] }, 'g', '2025', { family: [{ id: 'f', members: ['a', 'b'] }] })).to.deep.equal([26]);
    expect(values(m, ['a', 'b'], { x: [120, 3] }, 'h', '2025', { family: [{ id: 'f', members: ['a', 'b'] }] })).to.deep.equal([1, 1]);
  });

  it('computes the fixture country end to end', () => {
    const m = fixtureModel();
    const s = sim(m, ['a', 'b', 'c', 'd'], {
      family: [{ id: 'f1', members: ['a', 'b', 'c'] }],
      household: [{ id: 'h', members: ['a', 'b', 'c', 'd'] }],
    });
    s.setInput('age', '2025', [40, 38, 5, 20]);
    s.setInput('employment_income', '2025', [50000, 5000, 0, 15000]);
    s.setInput('region', '2025', ['CAPITAL']);
    const get = (v: string, p = '2025') => s.decode(v, s.calculate(v, p));
    expect(get('partner_income')).to.deep.equal([5000, 50000, 55000, 0]);
    expect(get('is_eldest_child')).to.deep.equal([false, false, true, false]);
    expect(get('lives_in_capital')).to.deep.equal([true, true, true, true]);
    // 2025 allowance: 12,000 uprated by CPI 110/100 = 13,200.
    expect((get('taxable_income')[0] as number)).to.be.closeTo(36800, 1e-6);
    // 20% of 35,000 + 40% of 1,800.
    expect(get('income_tax')[0] as number).to.be.closeTo(7000 + 720, 1e-6);
    expect(get('tax_band')).to.deep.equal(['HIGHER', 'NONE', 'NONE', 'BASIC']);
    expect(get('family_type')).to.deep.equal(['COUPLE', 'SINGLE']);
    expect(get('basic_benefit')).to.deep.equal([0, 1000]);
    expect(get('child_benefit')).to.deep.equal([800, 0]);
    expect(get('benefits')).to.deep.equal([800, 1000]);
    expect(get('oldest_age')).to.deep.equal([40, 20]);
    expect(get('household_benefits')).to.deep.equal([1800]);
    expect(get('household_net_income')[0] as number).to.be.closeTo(70000 - 7720 - 360 + 1800, 1e-6);
  });

  it('reads parameters at the year instant and picks dated formula variants', () => {
    const m = fixtureModel();
    const s = sim(m, ['a']);
    s.setInput('employment_income', '2024', [50000]);
    s.setInput('employment_income', '2030', [50000]);
    // 2024 (read at 30 April 2024): allowance 12,000 and the higher threshold 35,000.
    expect(s.calculate('income_tax', '2024')[0]).to.be.closeTo(35000 * 0.2 + 3000 * 0.4, 1e-6);
    expect(s.calculate('income_tax', '2030')[0]).to.equal(0);
  });

  it('indexes breakdowns by integer columns, clamping to the nearest key', () => {
    const m = fixtureModel();
    const s = sim(m, ['p', 'c1', 'c2', 'c3'], { family: [{ id: 'f', members: ['p', 'c1', 'c2', 'c3'] }] });
    s.setInput('age', '2025', [40, 1, 2, 3]);
    expect(s.decode('child_benefit', s.calculate('child_benefit', '2025'))).to.deep.equal([1400]);
  });

  it('masks rows with defined_for and gives them the default', () => {
    const m = miniModel({
      x: input(),
      ok: f('x > 0', { type: 'bool' }),
      y: f('1 / x', { defined_for: 'ok', default: -1 }),
    });
    expect(values(m, ['a', 'b'], { x: [4, 0] }, 'y')).to.deep.equal([0.25, -1]);
  });

  it('turns a final "condition ? value : literal" into a mask when the condition reads no local', () => {
    const m = miniModel({
      x: input(),
      kind: { entity: 'person', period: 'year', type: 'enum', possible_values: ['NONE', 'SOME'], default: 'NONE' },
      guarded: f('r = 1 / x; if(x > 0, r * 2, -1)'),
      guarded_enum: f('x > 1 ? "SOME" : "NONE"', { type: 'enum', possible_values: ['NONE', 'SOME'], default: 'SOME' }),
      local_cond: f('c = x > 0; c ? 1 / x : 0'),
    });
    expect(values(m, ['a', 'b', 'c'], { x: [4, 0, -2] }, 'guarded')).to.deep.equal([0.5, -1, -1]);
    expect(values(m, ['a', 'b', 'c'], { x: [4, 0, -2] }, 'guarded_enum')).to.deep.equal(['SOME', 'NONE', 'NONE']);
    expect(values(m, ['a', 'b', 'c'], { x: [4, 0, -2] }, 'local_cond')).to.deep.equal([0.25, 0, 0]);
    const source = (name: string) => m.compiled().kernel(name, '2025')!.source;
    expect(source('guarded')).to.match(/if \(!\(\(c0\[i\] > 0\)\)\) \{ out\[i\] = -1; continue; \}/);
    expect(source('guarded_enum')).to.match(/out\[i\] = 0; continue;/);
    expect(source('local_cond')).to.not.match(/continue/);
  });
  it('aggregates with conditions, any/all/first/min/max and projects group values to members', () => {
    const m = miniModel({
      x: input(),
      fam_sum: { entity: 'family', period: 'year', type: 'float', formula: 'sum(x, x > 1)' },
      fam_any: { entity: 'family', period: 'year', type: 'bool', formula: 'any(x > 5)' },
      fam_all: { entity: 'family', period: 'year', type: 'bool', formula: 'all(x > 0)' },
      fam_first: { entity: 'family', period: 'year', type: 'float', formula: 'first(x)' },
      fam_min: { entity: 'family', period: 'year', type: 'float', formula: 'min(x, x > 1)' },
      hh_total: { entity: 'household', period: 'year', type: 'float', formula: 'sum(fam_sum)' },
      share: f('x / fam_sum'),
      hh_from_family: { entity: 'family', period: 'year', type: 'float', formula: 'hh_total' },
    });
    const groups = { family: [{ id: 'f1', members: ['a', 'b'] }, { id: 'f2', members: ['c'] }], household: [{ id: 'h', members: ['a', 'b', 'c'] }] };
    const v = (out: string) => values(m, ['a', 'b', 'c'], { x: [2, 6, 1] }, out, '2025', groups);
    expect(v('fam_sum')).to.deep.equal([8, 0]);
    expect(v('fam_any')).to.deep.equal([true, false]);
    expect(v('fam_all')).to.deep.equal([true, true]);
    expect(v('fam_first')).to.deep.equal([2, 1]);
    expect(v('fam_min')).to.deep.equal([2, 0]);
    expect(v('hh_total')).to.deep.equal([8]);
    expect(v('share')).to.deep.equal([0.25, 0.75, Infinity]);
    expect(v('hh_from_family')).to.deep.equal([8, 8]);
  });

  it('converts periods: yearly flows read monthly are divided by 12, monthly flows summed over a year', () => {
    const m = miniModel({
      yearly: input(),
      flag: input('bool'),
      monthly: { entity: 'person', period: 'month', type: 'float', formula: 'yearly + flag' },
      annual: f('monthly'),
      stock: { entity: 'person', period: 'month', type: 'int' },
    });
    const s = sim(m, ['a']);
    s.setInput('yearly', '2025', [1200]);
    s.setInput('flag', '2025', [true]);
    expect(s.calculate('monthly', '2025-02')[0]).to.equal(101);
    expect(s.calculate('annual', '2025')[0]).to.be.closeTo(1212, 1e-9);
    s.setInput('monthly', '2025', [2400]);
    expect(s.calculate('monthly', '2025-07')[0]).to.equal(200);
    s.setInput('stock', '2025', [3]);
    expect(s.calculate('stock', '2025-07')[0]).to.equal(3);
    expect(s.calculate('stock', '2025')[0]).to.equal(3);
  });

  it('reads last year', () => {
    const m = fixtureModel();
    const s = sim(m, ['a']);
    s.setInput('employment_income', '2024', [123]);
    expect(s.calculate('income_last_year', '2025')[0]).to.equal(123);
  });

  it('lets an input override a formula and never computes what only that formula needed', () => {
    const m = miniModel({ x: input(), boom: f('1 / unknown_value_never_compiled'), y: f('boom + x') });
    const s = sim(m, ['a']);
    s.setInput('boom', '2025', [5]);
    s.setInput('x', '2025', [1]);
    expect(s.calculate('y', '2025')[0]).to.equal(6);
  });

  it('compares enums by name and gives enum results from other enums', () => {
    const m = miniModel({
      region: input('enum', 'household', { possible_values: ['A', 'B'], default: 'A' }),
      zone: { entity: 'person', period: 'year', type: 'enum', possible_values: ['A', 'B'], formula: 'region' },
      in_b: f('isin(region, "B")', { type: 'bool' }),
      not_a: f('"A" != region', { type: 'bool' }),
    });
    const s = sim(m, ['a', 'b'], { household: [{ id: 'h1', members: ['a'] }, { id: 'h2', members: ['b'] }] });
    s.setInput('region', '2025', ['A', 'B']);
    expect(s.decode('zone', s.calculate('zone', '2025'))).to.deep.equal(['A', 'B']);
    expect(s.decode('in_b', s.calculate('in_b', '2025'))).to.deep.equal([false, true]);
    expect(s.decode('not_a', s.calculate('not_a', '2025'))).to.deep.equal([false, true]);
  });

  it('serves a scale broken down by an enum column', () => {
    const params = {
      gov: {
        sched: {
          metadata: { breakdown: ['status'] },
          S: { brackets: [{ threshold: { values: { '2000-01-01': 0 } }, rate: { values: { '2000-01-01': 0.1 } } }] },
          J: { brackets: [{ threshold: { values: { '2000-01-01': 0 } }, rate: { values: { '2000-01-01': 0.2 } } }] },
        },
      },
    };
    const m = miniModel({ status: input('enum', 'person', { possible_values: ['S', 'J'] }), x: input(), t: f('marginal(gov.sched, x, status)') }, params);
    const s = sim(m, ['a', 'b']);
    s.setInput('status', '2025', ['S', 'J']);
    s.setInput('x', '2025', [100, 100]);
    expect(Array.from(s.calculate('t', '2025'))).to.deep.equal([10, 20]);
  });
});

describe('core: compile errors name the file, variable and problem', () => {
  const compileError = (vars: Record<string, object>, name: string, params: object = {}) => {
    const m = miniModel(vars, params);
    try {
      m.compiled().kernel(name, '2025');
    } catch (err) {
      expect(err).to.be.instanceOf(EngineError);
      return (err as Error).message;
    }
    throw new Error('expected a compile error');
  };

  it('unknown names', () => {
    expect(compileError({ y: f('x + 1') }, 'y')).to.equal('mini.yaml: variable y (2025): unknown name "x"');
  });
  it('unknown functions and wrong arity', () => {
    expect(compileError({ y: f('foo(1)') }, 'y')).to.contain('unknown function "foo"');
    expect(compileError({ y: f('clip(1, 2)') }, 'y')).to.contain('clip() takes 3 arguments, got 2');
  });
  it('implicit multiplication and numbers with underscores', () => {
    expect(compileError({ x: input(), y: f('2 x') }, 'y')).to.contain('implicit multiplication in "2 x"');
    expect(compileError({ y: f('12_570') }, 'y')).to.contain('implicit multiplication');
  });
  it('parse errors', () => {
    expect(compileError({ y: f('1 +') }, 'y')).to.match(/variable y \(2025\): cannot parse "1 \+"/);
  });
  it('a person value read in a group formula without aggregation', () => {
    expect(compileError({ x: input(), g: { entity: 'family', period: 'year', type: 'float', formula: 'x * 2' } }, 'g')).to.contain(
      'x is a person value, read in a family context: aggregate it',
    );
  });
  it('a group aggregation the entity is not inside', () => {
    expect(compileError({ x: input(), h: { entity: 'household', period: 'year', type: 'float', formula: 'family.sum(x)' } }, 'h')).to.contain(
      'family.sum() cannot be used in a household formula',
    );
    expect(compileError({ x: input(), p: f('sum(x)') }, 'p')).to.contain('in a person formula name the group');
  });
  it('enum names that do not exist and enums in arithmetic', () => {
    const e = input('enum', 'person', { possible_values: ['A', 'B'] });
    expect(compileError({ e, y: f('e == "C"', { type: 'bool' }) }, 'y')).to.contain('"C" is not a value of e (A, B)');
    expect(compileError({ e, y: f('e + 1') }, 'y')).to.contain('an enum cannot be used in arithmetic');
    expect(compileError({ e, y: { ...e, formula: '1' } }, 'y')).to.contain('an enum formula must give a value name');
  });
  it('unknown parameter keys and bad breakdown keys', () => {
    const params = { gov: { a: { values: { '2000-01-01': 1 } }, node: { X: { values: { '2000-01-01': 1 } }, metadata: {} } } };
    expect(compileError({ y: f('gov.b') }, 'y', params)).to.contain('gov');
    expect(compileError({ y: f('gov.node.Y') }, 'y', params)).to.contain('parameter gov.node has no key "Y" (keys: X)');
    const e = input('enum', 'person', { possible_values: ['X', 'Z'] });
    expect(compileError({ e, y: f('gov.node[e]') }, 'y', params)).to.contain('parameter gov.node has no value for "Z" (indexed by e)');
    expect(compileError({ y: f('gov.node + 1') }, 'y', params)).to.contain('parameter gov.node is a node');
  });
  it('same-period cycles, naming the chain', () => {
    const m = miniModel({ a: f('b + 1'), b: f('c'), c: f('a') });
    expect(() => m.compiled().check('2025')).to.throw(EngineError, 'mini.yaml: dependency cycle: a -> b -> c -> a');
    const s = sim(m, ['p']);
    expect(() => s.calculate('a', '2025')).to.throw(EngineError, 'dependency cycle: a -> b -> c -> a');
  });
  it('accepts a cycle through last year', () => {
    const m = miniModel({ a: f('last_year(a) + 1', { formula: { '2024-01-01': 'last_year(a) + 1' } }) });
    const s = sim(m, ['p']);
    expect(s.calculate('a', '2026')[0]).to.equal(3);
  });
  it('defined_for that is not a bool', () => {
    expect(compileError({ x: input(), y: f('1', { defined_for: 'x' }) }, 'y')).to.contain('defined_for variable x must be bool');
  });
  it('adds naming unknown variables', () => {
    expect(compileError({ y: { ...input(), adds: ['nope'] } }, 'y')).to.contain('adds/subtracts names unknown variable "nope"');
  });
});

describe('core: formula text', () => {
  it('treats line breaks as spaces and strips # comments', () => {
    const m = miniModel({ x: { entity: 'person', period: 'year', type: 'float' }, y: { entity: 'person', period: 'year', type: 'float', formula: 'a = x * 2; # double\n  a\n  - 1 # minus one' } });
    const s = sim(m, ['p']);
    s.setInput('x', '2025', [5]);
    expect(s.calculate('y', '2025')[0]).to.equal(9);
  });
});

describe('core: the year symbol', () => {
  it('is the year of the period computed', () => {
    const m = miniModel({ age: { entity: 'person', period: 'year', type: 'int' }, birth_year: { entity: 'person', period: 'year', type: 'int', formula: 'year - age' } });
    const s = sim(m, ['p']);
    s.setInput('age', '2025', [40]);
    expect(s.calculate('birth_year', '2025')[0]).to.equal(1985);
  });
});

describe('core: rank', () => {
  it('orders members within each group, whether or not groups are contiguous', () => {
    const { rank } = require('../../core/compiler/runtime') as typeof import('../../core/compiler/runtime');
    const key = Float64Array.of(5, 1, 3, 3, 9, 2);
    const cond = Uint8Array.of(1, 1, 1, 1, 0, 1);
    // Contiguous: groups 0,0,0,1,1,1.
    expect(Array.from(rank(key, cond, Int32Array.of(0, 0, 0, 1, 1, 1), true))).to.deep.equal([2, 0, 1, 1, -1, 0]);
    // Interleaved: groups 0,1,0,1,0,1 (ties broken by row order).
    expect(Array.from(rank(key, null, Int32Array.of(0, 1, 0, 1, 0, 1), false))).to.deep.equal([1, 0, 0, 2, 2, 1]);
  });
});
