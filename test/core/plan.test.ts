import * as path from 'path';
import { expect } from 'chai';
import { CountryModel } from '../../core/model';
import { populationFromArrays } from '../../core/population';
import { Simulation } from '../../core/simulation';
import { EngineError } from '../../core/types';
import { runSteps } from '../../core/plan';
import { tableKeys } from '../../core/twins';
import type { Kernel } from '../../core/compiler/variable';
import { synthesize } from '../../bench/uk';
import { fixtureModel, miniModel, sim } from './helpers';

const VARS = {
  z: { entity: 'person', period: 'year', type: 'float' },
  unset: { entity: 'person', period: 'year', type: 'float', default: 3 },
  flag: { entity: 'person', period: 'year', type: 'bool' },
  a: { entity: 'person', period: 'year', type: 'float', formula: 'z + 1' },
  b: { entity: 'person', period: 'year', type: 'float', formula: 'a * 2 + unset' },
  shared: { entity: 'person', period: 'year', type: 'float', formula: 'z * 10' },
  r1: { entity: 'person', period: 'year', type: 'float', formula: 'shared + 1' },
  r2: { entity: 'person', period: 'year', type: 'float', formula: 'shared + 2' },
  fam_z: { entity: 'family', period: 'year', type: 'float', formula: 'sum(a)' },
  unset_sum: { entity: 'family', period: 'year', type: 'float', formula: 'sum(unset - 3) + count(flag)' },
  unset_cond_sum: { entity: 'family', period: 'year', type: 'float', formula: 'sum(unset - 3, z > 0) + max(unset - 3, z > 1) + min(unset - 3, z < 2)' },
  masked_in: { entity: 'person', period: 'year', type: 'float', formula: 'z / (z - 5)' },
  bounded: { entity: 'person', period: 'year', type: 'float', formula: 'min(0, max(0, z - 1)) + max(0, min(0, z)) + max(0, 0 - 2 * max(0, z)) + 0 / (z + 1)' },
  never_sum: { entity: 'family', period: 'year', type: 'float', formula: 'sum(z, unset > 5) + max(z, unset > 5)' },
  clipped: { entity: 'person', period: 'year', type: 'float', formula: 'min(1, max(0, z)) + max(-1, min(0, z))' },
  kind: { entity: 'person', period: 'year', type: 'enum', possible_values: ['A', 'B'], default: 'A' },
  kind_listed: { entity: 'person', period: 'year', type: 'bool', formula: 'isin(kind, gov.listed)' },
  floor_z: { entity: 'person', period: 'year', type: 'float', formula: 'max(0, z)' },
  capped_floor: { entity: 'person', period: 'year', type: 'float', formula: 'min(0, floor_z)' },
  floor_shared: { entity: 'person', period: 'year', type: 'float', formula: 'max(0, z - 1)' },
  capped_shared: { entity: 'person', period: 'year', type: 'float', formula: 'min(0, floor_shared)' },
  above_shared: { entity: 'person', period: 'year', type: 'float', formula: 'floor_shared + 1' },
  masked_zero: { entity: 'person', period: 'year', type: 'float', defined_for: 'positive', formula: 'part = z * 2; (unset - 3) * part' },
  masked_three: { entity: 'person', period: 'year', type: 'float', defined_for: 'positive', formula: 'part = z * 2; unset + 0 * part' },
  masked: { entity: 'person', period: 'year', type: 'float', default: -1, defined_for: 'positive', formula: 'masked_in * 2' },
  positive: { entity: 'person', period: 'year', type: 'bool', formula: 'z > 0' },
  int_part: { entity: 'person', period: 'year', type: 'int', formula: 'z * 1.5' },
  uses_int: { entity: 'person', period: 'year', type: 'float', formula: 'int_part + 0.25' },
  monthly: { entity: 'person', period: 'month', type: 'float' },
  yearly_from_months: { entity: 'person', period: 'year', type: 'float', formula: 'monthly * 1' },
  yearly_from_months_2: { entity: 'person', period: 'year', type: 'float', formula: 'monthly + z' },
  month_from_year: { entity: 'person', period: 'month', type: 'float', formula: 'z' },
  monthly_tax: { entity: 'person', period: 'month', type: 'float', formula: 'max(0, z - gov.threshold) * 0.1' },
  yearly_tax: { entity: 'person', period: 'year', type: 'float', formula: 'monthly_tax * 1' },
  eligible_amount: { entity: 'person', period: 'year', type: 'float', defined_for: 'positive', formula: 'z * 3' },
  passed_on: { entity: 'person', period: 'year', type: 'float', adds: ['eligible_amount'] },
  loop_a: { entity: 'person', period: 'year', type: 'float', formula: 'loop_b + 1' },
  loop_b: { entity: 'person', period: 'year', type: 'float', formula: 'loop_a + 1' },
};

// The monthly threshold changes in July 2025: the first six months are one computation, the last six another.
const PARAMS = { gov: { threshold: { values: { '2020-01-01': 10, '2025-07-01': 20 } }, listed: { values: { '2020-01-01': ['B'] } } } };

/** A monthly m1 = z * rate[region], where the south's rate rises from 0.1 to 0.2 in July 2025, with `vars` reading it. */
function regionModel(vars: Record<string, object>): CountryModel {
  const base = {
    z: { entity: 'person', period: 'year', type: 'float' },
    region: { entity: 'household', period: 'year', type: 'enum', possible_values: ['NORTH', 'SOUTH'], default: 'NORTH' },
    m1: { entity: 'person', period: 'month', type: 'float', formula: 'z * gov.rate[region]' },
  };
  const params = { gov: { rate: { NORTH: { values: { '2020-01-01': 0.1 } }, SOUTH: { values: { '2020-01-01': 0.1, '2025-07-01': 0.2 } } } } };
  return miniModel({ ...base, ...vars }, params);
}

/** The persons of the population each run of `kernel` gets while `f` runs, and what `f` returns. */
function personsPerRun<T>(kernel: Kernel, f: () => T): { sizes: number[]; result: T } {
  const sizes: number[] = [];
  const original = kernel.run;
  kernel.run = (cols, pop) => {
    sizes.push(pop.count('person'));
    return original(cols, pop);
  };
  try {
    return { sizes, result: f() };
  } finally {
    kernel.run = original;
  }
}

function planSim(z: number[]): Simulation {
  const s = sim(miniModel(VARS, PARAMS), z.map((_, i) => `p${i}`));
  s.setInput('z', '2025', z);
  return s;
}

function lazy(name: string, z: number[], period = '2025'): number[] {
  return Array.from(planSim(z).calculate(name, period));
}

describe('core: execution plans', () => {
  const z = [0, 5, 8, -2];

  it('folds variables nobody gave and no formula computes into the kernels reading them', () => {
    const s = planSim(z);
    const plan = s.plan(['b'], '2025');
    const b = plan.steps.find((st) => st.kind === 'kernel' && st.kernel.variable === 'b');
    expect(b && b.kind === 'kernel' && b.kernel.deps.map((d) => d.name)).to.deep.equal(['z']);
    expect(Array.from(s.computeReleasing(['b'], '2025').get('b')!)).to.deep.equal([5, 15, 21, 1]);
  });

  it('computes a single-reader variable of the same entity inline, in its reader', () => {
    const plan = planSim(z).plan(['b'], '2025');
    expect(plan.steps.filter((st) => st.kind === 'kernel').map((st) => st.kind === 'kernel' && st.kernel.variable)).to.deep.equal(['b']);
    expect(plan.stats.inlined).to.equal(1);
  });

  it('keeps a variable read by two formulas, or from another entity, in a column of its own', () => {
    const s = planSim(z);
    const plan = s.plan(['r1', 'r2', 'fam_z'], '2025');
    const kernels = plan.steps.flatMap((st) => (st.kind === 'kernel' ? [st.kernel.variable] : []));
    expect(kernels).to.include.members(['shared', 'a', 'r1', 'r2', 'fam_z']);
    const out = s.computeReleasing(['r1', 'r2', 'fam_z'], '2025');
    expect(Array.from(out.get('r1')!)).to.deep.equal(lazy('r1', z));
    expect(Array.from(out.get('fam_z')!)).to.deep.equal(lazy('fam_z', z));
  });

  it('folds aggregates of constants and gives constant targets as columns', () => {
    const s = planSim(z);
    const plan = s.plan(['unset_sum', 'unset', 'unset_cond_sum'], '2025');
    // Zeros summed (or their max or min) under a condition are zero whatever the condition.
    expect(plan.steps.map((st) => st.kind)).to.deep.equal(['fill', 'fill', 'fill']);
    const out = s.computeReleasing(['unset_sum', 'unset', 'unset_cond_sum'], '2025');
    expect(Array.from(out.get('unset_sum')!)).to.deep.equal([0, 0, 0, 0]); // each person in a family of their own
    expect(Array.from(out.get('unset_cond_sum')!)).to.deep.equal(Array.from(lazy('unset_cond_sum', z)));
    expect(Array.from(out.get('unset')!)).to.deep.equal([3, 3, 3, 3]);
  });

  it('folds what bounds decide (min(0, max(0, x)), a share of nothing) and aggregates under a condition no member meets', () => {
    const s = planSim(z);
    const plan = s.plan(['bounded', 'never_sum', 'clipped'], '2025');
    // clipped's bounds do not decide it: it is computed.
    expect(plan.steps.map((st) => (st.kind === 'kernel' ? st.kernel.variable : st.kind))).to.deep.equal(['fill', 'fill', 'clipped']);
    const out = s.computeReleasing(['bounded', 'never_sum', 'clipped'], '2025');
    for (const name of ['bounded', 'never_sum', 'clipped']) expect(Array.from(out.get(name)!)).to.deep.equal(lazy(name, z));
    expect(Array.from(out.get('bounded')!)).to.deep.equal([0, 0, 0, 0]);
    expect(Array.from(out.get('clipped')!)).to.deep.equal([0, 1, 1, -1]);
  });

  it("keeps a kernel's bounds in the columns other kernels read", () => {
    // capped_shared reads floor_shared's column (a probe inlines nothing), which is at least 0: it folds,
    // and floor_shared, left with one reader, is computed inside it.
    const s = planSim(z);
    const names = ['capped_shared', 'above_shared'];
    expect(s.plan(names, '2025').steps.map((st) => (st.kind === 'kernel' ? st.kernel.variable : st.kind))).to.deep.equal(['fill', 'above_shared']);
    const out = s.computeReleasing(names, '2025');
    for (const name of names) expect(Array.from(out.get(name)!)).to.deep.equal(lazy(name, z));
  });

  it('folds isin() of an enum nobody gave (its default) against a list', () => {
    const s = planSim(z);
    expect(s.plan(['kind_listed'], '2025').steps.map((st) => st.kind)).to.deep.equal(['fill']);
    expect(Array.from(s.computeReleasing(['kind_listed'], '2025').get('kind_listed')!)).to.deep.equal(lazy('kind_listed', z));
  });

  it('fills a variable that folds only once its single-reader dependency is inlined', () => {
    // Read from a column, floor_z has no known bounds; inlined, it is at least 0, so min(0, floor_z) is 0.
    const s = planSim(z);
    expect(s.plan(['capped_floor'], '2025').steps.map((st) => st.kind)).to.deep.equal(['fill']);
    expect(Array.from(s.computeReleasing(['capped_floor'], '2025').get('capped_floor')!)).to.deep.equal(lazy('capped_floor', z));
  });

  it('fills a masked variable whose value folds to its default, and computes one whose value differs from it', () => {
    const s = planSim(z);
    // (unset - 3) * part is 0 inside the mask and the default 0 outside it, whatever part computes.
    const plan = s.plan(['masked_zero', 'masked_three'], '2025');
    expect(plan.steps.map((st) => (st.kind === 'kernel' ? st.kernel.variable : st.kind))).to.deep.equal(['fill', 'positive', 'masked_three']);
    const out = s.computeReleasing(['masked_zero', 'masked_three'], '2025');
    expect(Array.from(out.get('masked_zero')!)).to.deep.equal(lazy('masked_zero', z));
    expect(Array.from(out.get('masked_three')!)).to.deep.equal([0, 3, 3, 0]);
    expect(lazy('masked_three', z)).to.deep.equal([0, 3, 3, 0]);
  });

  it('skips an inlined formula on rows outside its reader mask (no division results leak)', () => {
    const out = planSim(z).computeReleasing(['masked'], '2025').get('masked')!;
    expect(Array.from(out)).to.deep.equal([-1, Infinity, (8 / 3) * 2, -1]);
    expect(Array.from(out)).to.deep.equal(lazy('masked', z));
  });

  it("a formula that only passes on one inlined variable visits the rows of that variable's mask; not when the variable is an input", () => {
    const s = planSim(z);
    const plan = s.plan(['passed_on'], '2025');
    const step = plan.steps.find((st) => st.kind === 'kernel' && st.kernel.variable === 'passed_on');
    expect(step && step.kind === 'kernel' && step.kernel.source).to.be.a('string').and.match(/rowsWhere/);
    expect(Array.from(s.computeReleasing(['passed_on'], '2025').get('passed_on')!)).to.deep.equal([0, 15, 24, 0]);
    expect(lazy('passed_on', z)).to.deep.equal([0, 15, 24, 0]);
    // Given as an input, the amount is what it is on every row, the mask's or not.
    const given = planSim(z);
    given.setInput('eligible_amount', '2025', [7, 1, 2, 9]);
    const kernel = given.plan(['passed_on'], '2025').steps.find((st) => st.kind === 'kernel' && st.kernel.variable === 'passed_on');
    expect(kernel && kernel.kind === 'kernel' && kernel.kernel.source).to.be.a('string').and.not.match(/rowsWhere/);
    expect(Array.from(given.computeReleasing(['passed_on'], '2025').get('passed_on')!)).to.deep.equal([7, 1, 2, 9]);
  });

  it('stores inlined int formulas as a column would (truncated to 32-bit integers)', () => {
    expect(Array.from(planSim([1, 3, -3, 0]).computeReleasing(['uses_int'], '2025').get('uses_int')!)).to.deep.equal([1.25, 4.25, -3.75, 0.25]);
  });

  it('converts periods as calculate does: months summed for a year, a year split into months', () => {
    const s = planSim(z);
    for (let m = 1; m <= 12; m++) s.setInput('monthly', `2025-${String(m).padStart(2, '0')}`, [m, 0, 1, 0]);
    const out = s.computeReleasing(['yearly_from_months', 'monthly'], '2025');
    expect(Array.from(out.get('yearly_from_months')!)).to.deep.equal([78, 0, 12, 0]);
    expect(Array.from(out.get('monthly')!)).to.deep.equal([78, 0, 12, 0]);
    expect(Array.from(planSim(z).computeReleasing(['month_from_year'], '2025-03').get('month_from_year')!)).to.deep.equal([0, 5 / 12, 8 / 12, -2 / 12]);
  });

  it("adds up a flow's months once when several kernels read its year, in each reader's loop when one does", () => {
    const run = (targets: string[]) => {
      const s = planSim(z);
      s.setInput('monthly', '2025', [12, 24, -36, 0]);
      const plan = s.plan(targets, '2025');
      const out = s.computeReleasing(targets, '2025', { chunkPeople: 0 });
      for (const t of targets) expect(Array.from(out.get(t)!), t).to.deep.equal(Array.from(s.calculate(t, '2025')));
      const readers = plan.steps.flatMap((st) => (st.kind === 'kernel' ? [st.kernel.deps.filter((d) => d.name === 'monthly').map((d) => d.period)] : []));
      return { sums: plan.steps.filter((st) => st.kind === 'sum').length, readers };
    };
    const two = run(['yearly_from_months', 'yearly_from_months_2']);
    expect(two.sums).to.equal(1);
    expect(two.readers).to.deep.equal([['2025'], ['2025']]);
    const one = run(['yearly_from_months']);
    expect(one.sums).to.equal(0);
    expect(one.readers[0]).to.have.length(12);
  });

  it('computes months that read the same columns under the same parameters once', () => {
    const s = planSim([60, 300, 0]);
    const plan = s.plan(['yearly_tax'], '2025');
    expect(plan.steps.filter((st) => st.kind === 'kernel' && st.kernel.variable === 'monthly_tax')).to.have.length(2);
    expect(Array.from(s.computeReleasing(['yearly_tax'], '2025', { chunkPeople: 0 }).get('yearly_tax')!)).to.deep.equal(lazy('yearly_tax', [60, 300, 0]));
    // z / 12 = 5 and 25: (25 - 10) * 0.1 * 6 + (25 - 20) * 0.1 * 6 = 12.
    expect(lazy('yearly_tax', [60, 300, 0])[1]).to.be.closeTo(12, 1e-9);
  });

  it("copies a month's column from the month before where the columns it reads turned out the same (plan twins)", () => {
    // The rate changes in July for the south only: July's m1 kernel has other tables than June's.
    const model = regionModel({
      m2: { entity: 'person', period: 'month', type: 'float', formula: 'm1 * 2 + 1' },
      m3: { entity: 'person', period: 'month', type: 'float', formula: 'm1 + 5' },
      y2: { entity: 'person', period: 'year', type: 'float', formula: 'm2 * 1' },
      y3: { entity: 'person', period: 'year', type: 'float', formula: 'm3 * 1' },
    });
    const run = (regions: string[]) => {
      const s = sim(model, ['a', 'b'], { household: regions.map((_, i) => ({ id: `h${i}`, members: [['a', 'b'][i]] })) });
      s.setInput('z', '2025', [120, 240]);
      s.setInput('region', '2025', regions);
      const plan = s.plan(['y2', 'y3'], '2025');
      const m2 = plan.steps.flatMap((st) => (st.kind === 'kernel' && st.kernel.variable === 'm2' ? [st] : []));
      expect(m2).to.have.length(2);
      expect(m2[1].twin && m2[1].twin.sameRules).to.equal(true);
      let runs = 0;
      const kernel = m2[1].kernel;
      const original = kernel.run;
      kernel.run = (cols, pop) => {
        runs++;
        return original(cols, pop);
      };
      try {
        const out = s.computeReleasing(['y2', 'y3'], '2025', { chunkPeople: 0 });
        return { runs, y2: Array.from(out.get('y2')!), lazy: Array.from(s.calculate('y2', '2025')) };
      } finally {
        kernel.run = original;
      }
    };
    // Nobody in the south: July's m1 comes out as June's, so July's m2 is June's copied, not run.
    const north = run(['NORTH', 'NORTH']);
    expect(north.runs).to.equal(0);
    expect(north.y2).to.deep.equal(north.lazy);
    expect(north.y2[0]).to.be.closeTo(12 * (1 * 2 + 1), 1e-9);
    // Someone in the south: July's m1 differs, so July's m2 runs.
    const south = run(['NORTH', 'SOUTH']);
    expect(south.runs).to.equal(1);
    expect(south.y2).to.deep.equal(south.lazy);
    expect(south.y2[1]).to.be.closeTo(6 * (2 * 2 + 1) + 6 * (4 * 2 + 1), 1e-9);
  });

  it("computes a month again only on the households where what it reads differs from the month before (changed blocks)", () => {
    // The rate changes in July for the south only; one household in twenty is in the south.
    const model = regionModel({
      fam: { entity: 'family', period: 'month', type: 'float', formula: 'sum(m1) + count(m1 > 1)' },
      m2: { entity: 'person', period: 'month', type: 'float', formula: 'fam * 2 + m1' },
      y2: { entity: 'person', period: 'year', type: 'float', formula: 'm2 * 1' },
    });
    const people = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const households = Array.from({ length: 20 }, (_, h) => ({ id: `h${h}`, members: [`p${2 * h}`, `p${2 * h + 1}`] }));
    const s = sim(model, people, { household: households, family: households.map((h) => ({ ...h, id: `f${h.id}` })) });
    s.setInput('z', '2025', people.map((_, i) => 12 * (i + 1)));
    s.setInput('region', '2025', households.map((_, h) => (h === 7 ? 'SOUTH' : 'NORTH')));
    const plan = s.plan(['y2'], '2025');
    const july = plan.steps.flatMap((st) => (st.kind === 'kernel' && st.kernel.variable === 'm2' ? [st] : []))[1];
    expect(july.twin && july.twin.sameRules).to.equal(true);
    const { sizes, result: planned } = personsPerRun(july.kernel, () => Array.from(s.computeReleasing(['y2'], '2025', { chunkPeople: 0 }).get('y2')!));
    // Run on the south household's two people only, with the values lazy evaluation gives.
    expect(sizes).to.deep.equal([2]);
    expect(planned).to.deep.equal(Array.from(s.calculate('y2', '2025')));
    // A month of the yearly z is a twelfth: 15 and 16 for the south household's two people.
    const [a, b] = [15, 16];
    const month = (rate: number) => (rate * a + rate * b + 2) * 2 + rate * a;
    expect(planned[14]).to.be.closeTo(6 * month(0.1) + 6 * month(0.2), 1e-9);
  });

  it("computes a month whose tables differ from the month before's only where a row's key selects an entry that changed (table twins)", () => {
    // m1 reads the rate by region: July's table differs from June's for the south only.
    const model = regionModel({ y1: { entity: 'person', period: 'year', type: 'float', formula: 'm1 * 1' } });
    const people = Array.from({ length: 40 }, (_, i) => `p${i}`);
    const households = Array.from({ length: 20 }, (_, h) => ({ id: `h${h}`, members: [`p${2 * h}`, `p${2 * h + 1}`] }));
    const run = (south: number[]) => {
      const s = sim(model, people, { household: households });
      s.setInput('z', '2025', people.map((_, i) => 12 * (i + 1)));
      s.setInput('region', '2025', households.map((_, h) => (south.includes(h) ? 'SOUTH' : 'NORTH')));
      const m1 = s.plan(['y1'], '2025').steps.flatMap((st) => (st.kind === 'kernel' && st.kernel.variable === 'm1' ? [st] : []));
      expect(m1).to.have.length(2);
      const july = m1[1];
      expect(july.twin?.sameRules).to.equal(false);
      expect(july.twin?.tables?.map((t) => ({ k: t.k, differs: Array.from(t.differs) }))).to.deep.equal([{ k: july.kernel.deps.findIndex((d) => d.name === 'region'), differs: [0, 1] }]);
      const { sizes, result: planned } = personsPerRun(july.kernel, () => Array.from(s.computeReleasing(['y1'], '2025', { chunkPeople: 0 }).get('y1')!));
      expect(planned).to.deep.equal(Array.from(s.calculate('y1', '2025')));
      return { sizes, planned };
    };
    // Nobody in the south: July is June's column, the kernel never runs.
    expect(run([]).sizes).to.deep.equal([]);
    // One household in the south: July runs on its two people only.
    const one = run([7]);
    expect(one.sizes).to.deep.equal([2]);
    expect(one.planned[14]).to.be.closeTo(6 * 15 * 0.1 + 6 * 15 * 0.2, 1e-9);
    expect(one.planned[0]).to.be.closeTo(12 * 1 * 0.1, 1e-9);
  });

  it('finds the tables a kernel reads only at the value of one column (tableKeys)', () => {
    const kernel = (source: string, consts: unknown[]) => ({ source, consts } as unknown as Kernel);
    const decl = 'const k0 = K[0];\nconst k1 = K[1];\nconst k2 = K[2];\nconst k3 = K[3];\n';
    const src = `${decl}out[i] = k0[c1[m_person_household[i]]] + k0[(c1[j])] + k1[(c2[i]) + 1] + k2[c0[i]] * k2[c3[i]] + H.f(k3, c0[i]);`;
    expect(tableKeys(kernel(src, [1, 2, 3, 4]))).to.deep.equal([1, -1, -1, -1]);
  });

  it('hands back columns that own their buffers when months share one (a month equal to the month before)', () => {
    const model = regionModel({ y1: { entity: 'person', period: 'year', type: 'float', formula: 'm1 * 1' } });
    const s = sim(model, ['a', 'b'], { household: [{ id: 'h0', members: ['a'] }, { id: 'h1', members: ['b'] }] });
    s.setInput('z', '2025', [120, 240]);
    s.setInput('region', '2025', ['NORTH', 'NORTH']);
    const plan = s.plan(['y1'], '2025');
    // Nothing released: every month's m1 is still held when the run ends.
    const kept = { ...plan, steps: plan.steps.map((st) => ({ ...st, release: [] })) };
    const slots = runSteps(kept, s.index, plan.inputs.map((i) => s.input(i.name, i.period)!));
    const m1 = plan.steps.flatMap((st) => (st.kind === 'kernel' && st.kernel.variable === 'm1' ? [st.slot] : []));
    const [june, july] = m1.map((k) => slots[k]!);
    expect(Array.from(july)).to.deep.equal(Array.from(june));
    expect(july.buffer).to.not.equal(june.buffer);
  });

  it('runs a computation through a plan once it has been seen before, with the values lazy evaluation gives', () => {
    const model = miniModel(VARS, PARAMS);
    const run = () => {
      const s = sim(model, ['a', 'b']);
      s.setInput('z', '2025', [60, 300]);
      return s.calculateMany(['yearly_tax', 'b', 'fam_z'], '2025');
    };
    const lazyRuns = [run(), run()];
    expect(model.compiled().warmPlan(['yearly_tax', 'b', 'fam_z'], '2025', ['z@2025'])).to.not.equal(null);
    const planned = run();
    for (const name of ['yearly_tax', 'b', 'fam_z']) {
      expect(Array.from(planned.get(name)!), name).to.deep.equal(Array.from(lazyRuns[0].get(name)!));
      expect(Array.from(lazyRuns[1].get(name)!), name).to.deep.equal(Array.from(lazyRuns[0].get(name)!));
    }
  });

  it('names the chain of a dependency cycle', () => {
    expect(() => planSim(z).computeReleasing(['loop_a'], '2025')).to.throw(EngineError, 'dependency cycle: loop_a -> loop_b -> loop_a');
  });

  it('is built once per target set, period and input set', () => {
    const s = planSim(z);
    expect(s.plan(['b'], '2025')).to.equal(s.plan(['b'], '2025'));
    s.setInput('unset', '2025', [1, 1, 1, 1]);
    const other = s.plan(['b'], '2025');
    expect(other).to.not.equal(planSim(z).plan(['b'], '2025'));
    expect(Array.from(s.computeReleasing(['b'], '2025').get('b')!)).to.deep.equal([3, 13, 19, -1]);
  });

  it("reuses a kernel in another plan when the plan facts its compilation looked up agree, and compiles it again when they do not", () => {
    const kernelOf = (plan: ReturnType<Simulation['plan']>, name: string) => plan.steps.flatMap((st) => (st.kind === 'kernel' && st.kernel.variable === name ? [st.kernel] : []))[0];
    const model = miniModel(VARS, PARAMS);
    const people = z.map((_, i) => `p${i}`);
    const given = sim(model, people);
    given.setInput('z', '2025', z);
    const first = given.plan(['b', 'r1'], '2025');
    const s = sim(model, people);
    s.setInput('z', '2025', z);
    s.setInput('unset', '2025', [1, 1, 1, 1]);
    const second = s.plan(['b', 'r1'], '2025');
    expect(second).to.not.equal(first);
    // r1 reads nothing the new input changes; b had folded unset's default (3) into its code.
    expect(kernelOf(second, 'r1')).to.equal(kernelOf(first, 'r1'));
    expect(kernelOf(second, 'b')).to.not.equal(kernelOf(first, 'b'));
    const out = s.computeReleasing(['b', 'r1'], '2025');
    expect(Array.from(out.get('b')!)).to.deep.equal([3, 13, 19, -1]);
    expect(Array.from(out.get('r1')!)).to.deep.equal(lazy('r1', z));
  });

  it('gives every fixture variable the values lazy evaluation gives', () => {
    const m = fixtureModel();
    const pop = populationFromArrays(m, 7, { household: Int32Array.of(0, 0, 0, 1, 2, 2, 2), family: Int32Array.of(0, 0, 1, 2, 3, 3, 3) });
    const make = () => {
      const s = new Simulation(m, pop);
      s.setInput('age', '2025', Int32Array.of(40, 38, 5, 30, 50, 12, 9));
      s.setInput('employment_income', '2025', Float64Array.of(50000, 5000, 0, 15000, 80000, 0, 0));
      return s;
    };
    const names = [...m.variables.values()].filter((v) => v.period === 'year' && v.type !== 'string').map((v) => v.name);
    const lazySim = make();
    for (const name of names) {
      const planned = make().computeReleasing([name], '2025').get(name)!;
      expect(Array.from(planned), name).to.deep.equal(Array.from(lazySim.calculate(name, '2025')));
    }
  });
});

describe('core: execution plans on the UK model', () => {
  it('give the lazy values for every variable, whole and in chunks (synthetic population)', function () {
    this.timeout(60000);
    const m = CountryModel.load(path.resolve(__dirname, '../../../countries/uk'));
    const d = synthesize(m, 3000, 11);
    const pop = populationFromArrays(m, d.people, { household: d.personHousehold, benunit: d.personBenunit });
    const make = () => {
      const s = new Simulation(m, pop);
      for (const [name, values] of [...Object.entries(d.person), ...Object.entries(d.household)]) s.setInput(name, '2025', values);
      return s;
    };
    const lazySim = make();
    const names = [...m.variables.values()].filter((v) => v.period === 'year' && v.type !== 'string').map((v) => v.name);
    const all = make().computeReleasing(names, '2025', { chunkPeople: 0 });
    for (const name of names) expect(Array.from(all.get(name)!), name).to.deep.equal(Array.from(lazySim.calculate(name, '2025')));
    // One target: most of the graph is inlined into a few kernels.
    const targets = ['household_net_income', 'income_tax', 'universal_credit'];
    const chunked = make().computeReleasing(targets, '2025', { chunkPeople: 500 });
    for (const name of targets) expect(Array.from(chunked.get(name)!), name).to.deep.equal(Array.from(lazySim.calculate(name, '2025')));
    expect(make().plan(['household_net_income'], '2025').stats.inlined).to.be.greaterThan(50);
  });
});
