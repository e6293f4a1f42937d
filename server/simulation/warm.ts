/**
 * Warming a simulation thread: besides loading the model, run the report's plan once on a small
 * synthetic population of the country, so that kernels are compiled, parameter tables read and
 * the plan built before the first real job (a thread's first UK job otherwise spends about a
 * second on them), and run it a few times so that V8 has optimised the kernels (its optimising
 * compiler otherwise works beside the first large simulation). The plan is the one a dataset with
 * the synthetic population's columns will use.
 */
import type { CountryModel } from '../../core/model';
import { h5 } from '../datasets/h5';
import { toMicrodata } from '../datasets/microdata';
import { synthCountries, synthesize } from '../datasets/synth';
import { runJob } from './job';
import { reportSpec, simulationTargets, splitTargets } from './targets';

export async function warmModel(model: CountryModel, year: number): Promise<void> {
  // h5wasm too: threads read shares of datasets and write output files.
  await h5();
  const country = model.country.id;
  if (!synthCountries().includes(country)) return;
  const tables = await synthesize(country, { households: 3000, year, seed: 1 });
  const md = toMicrodata(tables, model);
  if (!md.top) return;
  const targets = simulationTargets(reportSpec(model, year), model);
  const { computed } = splitTargets(model, targets, new Set(md.inputs.map((i) => i.name)), false);
  const data = { person: md.person, top: md.top, counts: md.counts, membership: md.membership, inputs: md.inputs, starts: md.starts };
  for (let i = 0; i < 4; i++) runJob(model, data, { year, targets: computed, outputs: {}, lo: 0, hi: md.counts[md.top] });
}
