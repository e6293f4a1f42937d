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
