import * as fs from 'fs';
import * as YAML from 'yaml';
import { EngineError } from './types';

/**
 * Rules and tests are YAML 1.1 (PyYAML's reading): `12_570` is a number. Date-like keys and
 * scalars are kept as strings (no timestamp tag in the 1.1 schema we use), which is what every
 * consumer here wants.
 */
export const YAML_OPTIONS = {
  version: '1.1' as const,
  schema: 'yaml-1.1',
  merge: true,
  uniqueKeys: true,
  maxAliasCount: 10000,
  // Dates stay strings: parameter and test keys are compared as "YYYY-MM-DD" text.
  customTags: (tags: YAML.Tags) => tags.filter((t) => (t as { tag?: string }).tag !== 'tag:yaml.org,2002:timestamp'),
};

export function parseYaml(text: string, file: string): unknown {
  try {
    return YAML.parse(text, YAML_OPTIONS);
  } catch (err) {
    throw new EngineError(`${file}: invalid YAML: ${(err as Error).message.split('\n')[0]}`, file);
  }
}

export function readYaml(file: string): unknown {
  return parseYaml(fs.readFileSync(file, 'utf8'), file);
}
