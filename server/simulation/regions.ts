/**
 * Regions a simulation can be limited to: a row filter on households. UK: the four countries and
 * the twelve ITL 1 regions (the `region` household variable); US: the states and DC (`state_fips`
 * or `state_code` on the household). Names follow PolicyEngine's (`country/scotland`,
 * `region/london`, `state/ca`); the whole country is `uk` / `us`.
 */
import type { DatasetTables } from '../datasets/types';
import type { Region } from './types';

const UK_REGIONS: [string, string][] = [
  ['NORTH_EAST', 'North East'], ['NORTH_WEST', 'North West'], ['YORKSHIRE', 'Yorkshire and the Humber'],
  ['EAST_MIDLANDS', 'East Midlands'], ['WEST_MIDLANDS', 'West Midlands'], ['EAST_OF_ENGLAND', 'East of England'],
  ['LONDON', 'London'], ['SOUTH_EAST', 'South East'], ['SOUTH_WEST', 'South West'],
  ['WALES', 'Wales'], ['SCOTLAND', 'Scotland'], ['NORTHERN_IRELAND', 'Northern Ireland'],
];
const UK_COUNTRIES: [string, string, string[]][] = [
  ['england', 'England', UK_REGIONS.slice(0, 9).map(([r]) => r)],
  ['scotland', 'Scotland', ['SCOTLAND']],
  ['wales', 'Wales', ['WALES']],
  ['northern_ireland', 'Northern Ireland', ['NORTHERN_IRELAND']],
];

/** FIPS code, postal code, name (Census Bureau state FIPS codes). */
export const US_STATES: [number, string, string][] = [
  [1, 'AL', 'Alabama'], [2, 'AK', 'Alaska'], [4, 'AZ', 'Arizona'], [5, 'AR', 'Arkansas'], [6, 'CA', 'California'],
  [8, 'CO', 'Colorado'], [9, 'CT', 'Connecticut'], [10, 'DE', 'Delaware'], [11, 'DC', 'District of Columbia'],
  [12, 'FL', 'Florida'], [13, 'GA', 'Georgia'], [15, 'HI', 'Hawaii'], [16, 'ID', 'Idaho'], [17, 'IL', 'Illinois'],
  [18, 'IN', 'Indiana'], [19, 'IA', 'Iowa'], [20, 'KS', 'Kansas'], [21, 'KY', 'Kentucky'], [22, 'LA', 'Louisiana'],
  [23, 'ME', 'Maine'], [24, 'MD', 'Maryland'], [25, 'MA', 'Massachusetts'], [26, 'MI', 'Michigan'],
  [27, 'MN', 'Minnesota'], [28, 'MS', 'Mississippi'], [29, 'MO', 'Missouri'], [30, 'MT', 'Montana'],
  [31, 'NE', 'Nebraska'], [32, 'NV', 'Nevada'], [33, 'NH', 'New Hampshire'], [34, 'NJ', 'New Jersey'],
  [35, 'NM', 'New Mexico'], [36, 'NY', 'New York'], [37, 'NC', 'North Carolina'], [38, 'ND', 'North Dakota'],
  [39, 'OH', 'Ohio'], [40, 'OK', 'Oklahoma'], [41, 'OR', 'Oregon'], [42, 'PA', 'Pennsylvania'],
  [44, 'RI', 'Rhode Island'], [45, 'SC', 'South Carolina'], [46, 'SD', 'South Dakota'], [47, 'TN', 'Tennessee'],
  [48, 'TX', 'Texas'], [49, 'UT', 'Utah'], [50, 'VT', 'Vermont'], [51, 'VA', 'Virginia'], [53, 'WA', 'Washington'],
  [54, 'WV', 'West Virginia'], [55, 'WI', 'Wisconsin'], [56, 'WY', 'Wyoming'],
];

export function regions(country: string): Region[] {
  if (country === 'uk') {
    return [
      { name: 'uk', label: 'United Kingdom', type: 'national' },
      ...UK_COUNTRIES.map(([n, label]) => ({ name: `country/${n}`, label, type: 'country' })),
      ...UK_REGIONS.map(([code, label]) => ({ name: `region/${code.toLowerCase()}`, label, type: 'region' })),
    ];
  }
  if (country === 'us') {
    return [
      { name: 'us', label: 'United States', type: 'national' },
      ...US_STATES.map(([, code, label]) => ({ name: `state/${code.toLowerCase()}`, label, type: 'state' })),
    ];
  }
  return [];
}

export class UnknownRegionError extends Error {}

/**
 * The households of a region, as a keep-mask over the outermost table's rows (null: every
 * household). Households without the region column take the model's default, as the engine
 * would (`defaultValue`).
 */
export function regionFilter(country: string, name: string | null | undefined, defaultValue: (variable: string) => string | number | undefined): ((tables: DatasetTables, top: string) => Uint8Array) | null {
  if (!name || name === country) return null;
  if (!regions(country).some((r) => r.name === name)) throw new UnknownRegionError(`unknown region "${name}" for ${country} (see regions: ${regions(country).slice(0, 4).map((r) => r.name).join(', ')}, …)`);
  if (country === 'uk') {
    const [kind, key] = name.split('/');
    const wanted = new Set(kind === 'country' ? UK_COUNTRIES.find(([n]) => n === key)![2] : [key.toUpperCase()]);
    return (tables, top) => mask(tables, top, 'region', (v) => wanted.has(String(v)), defaultValue('region'));
  }
  const code = name.split('/')[1].toUpperCase();
  const fips = US_STATES.find(([, c]) => c === code)![0];
  return (tables, top) => {
    const t = tables.tables.get(top)!;
    if (t.columns.has('state_fips')) return mask(tables, top, 'state_fips', (v) => Number(v) === fips, undefined);
    if (t.columns.has('state_code')) return mask(tables, top, 'state_code', (v) => String(v).toUpperCase() === code, undefined);
    return mask(tables, top, 'state_code', (v) => String(v).toUpperCase() === code, defaultValue('state_code') ?? defaultValue('state_fips'));
  };
}

function mask(tables: DatasetTables, top: string, column: string, test: (v: string | number) => boolean, fallback: string | number | undefined): Uint8Array {
  const t = tables.tables.get(top)!;
  const col = t.columns.get(column);
  const keep = new Uint8Array(t.rows);
  if (!col) {
    if (fallback !== undefined && test(fallback)) keep.fill(1);
    return keep;
  }
  for (let r = 0; r < t.rows; r++) keep[r] = test(col[r]) ? 1 : 0;
  return keep;
}
