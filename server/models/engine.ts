/** The engine as the household API uses it: the real core, behind the narrow EnginePort. */
import { CountryModel } from '../../core/model';
import { buildPopulation } from '../../core/population';
import { Simulation } from '../../core/simulation';
import type { EnginePort } from '../household/compute';

export const coreEngine: EnginePort<CountryModel> = {
  buildPopulation: (model, personIds, groups) => buildPopulation(model, personIds, groups),
  simulate: (model, population, reform) => new Simulation(model, population, { reform }),
};

export function loadCountryModel(folder: string): CountryModel {
  return CountryModel.load(folder);
}
