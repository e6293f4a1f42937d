import * as fs from 'fs';
import * as YAML from 'yaml';
import { ParameterError } from './types';

/**
 * Parameter files are read as PyYAML reads them (YAML 1.1: `12_570` is a number, `.inf` is
 * infinity), except that date-looking scalars stay strings: every consumer compares "YYYY-MM-DD" text.
 */
const OPTIONS = {
  version: '1.1' as const,
  schema: 'yaml-1.1',
  merge: true,
  uniqueKeys: true,
  customTags: (tags: YAML.Tags): YAML.Tags =>
    tags.filter((t) => (t as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp'),
};

export function parseParameterYaml(text: string, file: string): unknown {
  try {
    return YAML.parse(text, OPTIONS);
  } catch (err) {
    const first = (err as Error).message.split('\n')[0];
    throw new ParameterError(`${file}: invalid YAML: ${first}`, file);
  }
}

/**
 * Parsed files, by path, reused while the file's size and mtime are unchanged: the `yaml` parser is
 * the slowest part of loading (~0.2 ms a file), and tests and servers load the same trees repeatedly.
 * Parsed objects are never mutated by the loader, so sharing them is safe.
 */
const cache = new Map<string, { mtimeMs: number; size: number; data: unknown }>();

export function readParameterYaml(file: string): unknown {
  const st = fs.statSync(file);
  const hit = cache.get(file);
  if (hit && hit.mtimeMs === st.mtimeMs && hit.size === st.size) return hit.data;
  const data = parseParameterYaml(fs.readFileSync(file, 'utf8'), file);
  cache.set(file, { mtimeMs: st.mtimeMs, size: st.size, data });
  return data;
}
