import { CountryModel } from '../core/model';
import { populationFromArrays } from '../core/population';
import { Simulation } from '../core/simulation';
import { CountryDef, VariableSpec } from '../core/types';
import { validateSpec } from '../core/variables';
import { ParameterTree } from '../parameters/tree';
import { flag, peakRssMb, seededRandom } from './util';

/** A synthetic country: 100 variables mixing every kind of kernel work over person and household. */
function syntheticModel(chain: number): { model: CountryModel; last: string } {
  const country: CountryDef = {
    id: 'bench', label: 'Bench', version: '0.0.0', currency: 'X', yearInstant: '01-01', modules: [], coverage: [], reference: { model: '', variables: new Map() },
    folder: '',
    entities: [
      { key: 'person', plural: 'people', isPerson: true, within: [] },
      { key: 'household', plural: 'households', isPerson: false, within: [] },
    ],
  };
  const raw: Record<string, object> = {
    age: { entity: 'person', period: 'year', type: 'int' },
    income: { entity: 'person', period: 'year', type: 'float' },
    region: { entity: 'household', period: 'year', type: 'enum', possible_values: ['A', 'B', 'C', 'D', 'E'] },
  };
  const v = (k: number) => (k < 0 ? 'income' : `v${k}`);
  for (let k = 0; k < chain; k++) {
    const prev = v(k - 1);
    switch (k % 6) {
      case 0: raw[v(k)] = { entity: 'person', period: 'year', type: 'float', formula: `${prev} * 0.97 + income * 0.01 - 3` }; break;
      case 1: raw[v(k)] = { entity: 'person', period: 'year', type: 'float', formula: `if(age >= 18 and ${prev} > 20000, ${prev} - 100, ${prev} + 50)` }; break;
      case 2: raw[v(k)] = { entity: 'person', period: 'year', type: 'float', formula: `${prev} - marginal(gov.tax, ${prev})` }; break;
      case 3: raw[v(k)] = { entity: 'person', period: 'year', type: 'float', formula: `${prev} + gov.amount[region]` }; break;
      case 4: raw[v(k)] = { entity: 'household', period: 'year', type: 'float', formula: `sum(${prev}, age >= 18)` }; break;
      case 5: raw[v(k)] = { entity: 'person', period: 'year', type: 'float', formula: `${v(k - 2)} + ${prev} * 0.001` }; break;
    }
  }
  const specs = new Map<string, VariableSpec>(Object.entries(raw).map(([n, r]) => [n, validateSpec(n, r, 'bench')]));
  const val = (x: number) => ({ values: { '2000-01-01': x } });
  const params = {
    gov: {
      tax: {
        brackets: [0, 10000, 30000, 60000, 150000].map((t, i) => ({ threshold: val(t), rate: val([0, 0.2, 0.3, 0.4, 0.45][i]) })),
      },
      amount: { metadata: { breakdown: ['region'] }, A: val(10), B: val(20), C: val(30), D: val(40), E: val(50) },
    },
  };
  const tree = ParameterTree.fromObject(params, '', 'bench', { breakdownValues: (n) => specs.get(n)?.possible_values });
  return { model: new CountryModel(country, specs, tree), last: v(chain - 1) };
}

export async function run(args: string[]): Promise<void> {
  const people = Number(flag(args, '--people', '1000000'));
  const households = Number(flag(args, '--households', '400000'));
  const chain = Number(flag(args, '--variables', '100'));
  const rand = seededRandom(42);
  const hh = new Int32Array(people);
  for (let i = 0; i < people; i++) hh[i] = Math.min(households - 1, Math.floor((i * households) / people));
  const age = Int32Array.from({ length: people }, () => Math.floor(rand() * 90));
  const income = Float64Array.from({ length: people }, () => rand() * 80000);
  const region = Array.from({ length: households }, () => 'ABCDE'[Math.floor(rand() * 5)]);

  const { model, last } = syntheticModel(chain);
  const names = [...Array(chain).keys()].map((k) => `v${k}`);
  const t0 = performance.now();
  const compiled = model.compiled();
  for (const n of names) compiled.kernel(n, '2025');
  const compileMs = performance.now() - t0;

  const pop = populationFromArrays(model, people, { household: hh });
  const inputBytes = age.byteLength + income.byteLength + households + hh.byteLength;
  const timings: number[] = [];
  global.gc?.();
  const baseRss = process.memoryUsage().rss / 2 ** 20;
  // Evaluation is synchronous, so RSS is read when each run ends; the pool still holds the
  // released buffers then, so this is the run's high-water mark of column memory.
  let afterRun = 0;
  for (let rep = 0; rep < 3; rep++) {
    const sim = new Simulation(model, pop);
    sim.setInput('age', '2025', age);
    sim.setInput('income', '2025', income);
    sim.setInput('region', '2025', region);
    global.gc?.();
    const t1 = performance.now();
    const out = sim.computeReleasing([last], '2025');
    afterRun = Math.max(afterRun, process.memoryUsage().rss / 2 ** 20);
    timings.push(performance.now() - t1);
    if (!Number.isFinite(out.get(last)![0])) throw new Error('non-finite result');
  }
  const best = Math.min(...timings);
  const evals = people * chain;
  // Live columns while evaluating: inputs plus the widest frontier (two person columns and a household column here).
  const liveMb = (inputBytes + 2 * people * 8 + households * 8) / 2 ** 20;
  console.log(`engine: ${people.toLocaleString('en')} people, ${households.toLocaleString('en')} households, ${chain} variables`);
  console.log(`compile: ${compileMs.toFixed(1)} ms for ${chain} kernels`);
  console.log(`evaluate: best ${best.toFixed(0)} ms of ${timings.map((t) => t.toFixed(0)).join(', ')} ms`);
  console.log(`throughput: ${(evals / (best / 1000) / 1e6).toFixed(0)} million person-variable evaluations per second`);
  console.log(`memory: live columns ${liveMb.toFixed(0)} MB (inputs ${(inputBytes / 2 ** 20).toFixed(0)} MB); RSS before evaluation ${baseRss.toFixed(0)} MB, ` +
    `growth by the end of evaluation ${(afterRun - baseRss).toFixed(0)} MB, process peak RSS ${peakRssMb().toFixed(0)} MB`);
}
