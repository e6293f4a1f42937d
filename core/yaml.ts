import * as fs from 'fs';
import { parseYaml11 } from '../parameters/yaml';
import { EngineError } from './types';

/** A rules file (country.yaml, variables): YAML as PyYAML reads it, repeated keys rejected. */
export function parseYaml(text: string, file: string): unknown {
  try {
    return parseYaml11(text);
  } catch (err) {
    throw new EngineError(`${file}: invalid YAML: ${(err as Error).message.split('\n')[0]}`, file);
  }
}

export function readYaml(file: string): unknown {
  return parseYaml(fs.readFileSync(file, 'utf8'), file);
}
