import type { Region } from './types';
export function regions(country: string): Region[] { void country; return []; }
