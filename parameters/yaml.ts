import * as fs from 'fs';
import * as YAML from 'yaml';
import { ParameterError } from './types';

const BOOL_TAG = 'tag:yaml.org,2002:bool';
// PyYAML reads only these words as booleans; the YAML 1.1 spec (and the yaml package) also take y/n.
const PYYAML_TRUE = /^(?:[Yy]es|YES|[Tt]rue|TRUE|[Oo]n|ON)$/;
const PYYAML_FALSE = /^(?:[Nn]o|NO|[Ff]alse|FALSE|[Oo]ff|OFF)$/;

const pyyamlTags = (tags: YAML.Tags): YAML.Tags =>
  tags.flatMap((tag): YAML.Tags => {
    if (typeof tag === 'string') return [tag];
    if (tag.tag === 'tag:yaml.org,2002:timestamp') return [];
    if (tag.tag === BOOL_TAG && 'test' in tag && tag.test) return [{ ...tag, test: tag.test.test('true') ? PYYAML_TRUE : PYYAML_FALSE }];
    return [tag];
  });

/**
 * Every YAML file of the project (rules and tests) is read as PyYAML reads it: YAML 1.1, so
 * `12_570` is a number, `.inf` is infinity and only PyYAML's words are booleans; date-looking
 * scalars stay strings, since every consumer compares "YYYY-MM-DD" text. Rules reject repeated
 * keys; PolicyEngine's test files keep the last one, as PyYAML does.
 */
export function parseYaml11(text: string, options: { uniqueKeys?: boolean } = {}): unknown {
  return YAML.parse(text, { version: '1.1', schema: 'yaml-1.1', merge: true, uniqueKeys: options.uniqueKeys ?? true, maxAliasCount: 10000, customTags: pyyamlTags });
}

const OPTIONS = { uniqueKeys: true };

export function parseParameterYaml(text: string, file: string): unknown {
  try {
    return parseYaml11(text, OPTIONS);
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
