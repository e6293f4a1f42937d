import { EngineError, Population } from './types';
import type { CountryModel } from './model';

export interface GroupInstance {
  id: string;
  members: string[];
}

/**
 * Build a population from named persons and group instances. A person who is in no instance of a
 * group entity gets an instance of their own, so every person belongs to exactly one of each.
 */
export function buildPopulation(
  model: CountryModel,
  personIds: string[],
  groups: Record<string, GroupInstance[]>,
): Population {
  const person = model.personEntity();
  const index = new Map<string, number>();
  personIds.forEach((id, i) => {
    if (index.has(id)) throw new EngineError(`person "${id}" is declared twice`);
    index.set(id, i);
  });
  const n = personIds.length;
  const count: Record<string, number> = { [person.key]: n };
  const membership: Record<string, Int32Array> = {};
  const ids: Record<string, string[]> = { [person.key]: [...personIds] };
  for (const key of Object.keys(groups)) model.entity(key); // throws for unknown entities
  for (const entity of model.country.entities) {
    if (entity.isPerson) continue;
    const m = new Int32Array(n).fill(-1);
    const names: string[] = [];
    for (const g of groups[entity.key] ?? []) {
      const gi = names.length;
      names.push(g.id);
      for (const member of g.members) {
        const pi = index.get(member);
        if (pi === undefined) throw new EngineError(`${entity.plural}/${g.id}/members: unknown person "${member}"`);
        if (m[pi] !== -1) throw new EngineError(`${entity.plural}/${g.id}/members: person "${member}" is already in ${entity.key} "${names[m[pi]]}"`);
        m[pi] = gi;
      }
    }
    for (let i = 0; i < n; i++) {
      if (m[i] === -1) {
        m[i] = names.length;
        names.push(`${personIds[i]}_${entity.key}`);
      }
    }
    count[entity.key] = names.length;
    membership[entity.key] = m;
    ids[entity.key] = names;
  }
  return { count, membership, ids };
}

/** A population from plain membership arrays (synthetic data, microdata): validates shapes. */
export function populationFromArrays(
  model: CountryModel,
  personCount: number,
  membership: Record<string, Int32Array>,
): Population {
  const count: Record<string, number> = { [model.personEntity().key]: personCount };
  for (const entity of model.country.entities) {
    if (entity.isPerson) continue;
    const m = membership[entity.key];
    if (!m) throw new EngineError(`membership for entity ${entity.key} is missing`);
    if (m.length !== personCount) throw new EngineError(`membership for ${entity.key} has ${m.length} rows, expected ${personCount}`);
    let max = -1;
    for (let i = 0; i < m.length; i++) {
      if (m[i] < 0) throw new EngineError(`membership for ${entity.key}: person ${i} has no group`);
      if (m[i] > max) max = m[i];
    }
    count[entity.key] = max + 1;
  }
  return { count, membership };
}
