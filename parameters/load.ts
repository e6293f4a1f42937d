import * as fs from 'fs';
import * as nodePath from 'path';
import { buildParameter, checkChildName } from './build';
import { normalizeMetadata } from './metadata';
import { validate } from './schema';
import { ParameterError, ParameterNode } from './types';
import { readParameterYaml } from './yaml';

/**
 * Reads a parameter folder: each sub-folder is a node, each `*.yaml` file a leaf, scale or node
 * named after the file, `index.yaml` the folder's own metadata and a README.md its label
 * (first line) and description (the rest), as PolicyEngine reads them.
 */

const YAML_EXT = new Set(['.yaml', '.yml']);
/** Names PolicyEngine never treats as parameters. */
const SKIPPED = new Set(['reference', '__pycache__']);

function readme(file: string): { label: string; description: string } {
  const lines = fs.readFileSync(file, 'utf8').split(/\r?\n/);
  return { label: lines[0].replace(/^#+\s*/, '').trim(), description: lines.slice(1).join('\n').trim() };
}

export function loadDirectory(dir: string, path: string): ParameterNode {
  const node: ParameterNode = { kind: 'node', path, children: {}, metadata: {}, file: dir };
  const entries = fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  const origin: Record<string, string> = {};
  const add = (name: string, file: string, load: () => ParameterNode['children'][string]): void => {
    if (SKIPPED.has(name) || name.startsWith('.')) return;
    checkChildName(name, file, path);
    if (origin[name] !== undefined) {
      throw new ParameterError(`${file}: ${path ? `${path}.` : ''}${name} is also defined by ${origin[name]}`, file, name);
    }
    origin[name] = file;
    node.children[name] = load();
  };
  for (const entry of entries) {
    const file = nodePath.join(dir, entry.name);
    const ext = nodePath.extname(entry.name);
    const name = entry.name.slice(0, entry.name.length - ext.length);
    const childPath = path ? `${path}.${name}` : name;
    if (entry.isDirectory()) {
      add(entry.name, file, () => loadDirectory(file, path ? `${path}.${entry.name}` : entry.name));
    } else if (entry.isFile() && name.toUpperCase() === 'README' && ext.toLowerCase() === '.md') {
      Object.assign(node.metadata, readme(file));
    } else if (entry.isFile() && YAML_EXT.has(ext) && name !== 'index') {
      add(name, file, () => buildParameter(readParameterYaml(file), file, childPath));
    }
  }
  for (const ext of YAML_EXT) {
    const file = nodePath.join(dir, `index${ext}`);
    if (!fs.existsSync(file)) continue;
    const raw = readParameterYaml(file) as Record<string, unknown> | null;
    validate('index', raw, file, path);
    Object.assign(node.metadata, normalizeMetadata(raw?.metadata, raw?.description, file, path));
    if (typeof raw?.description === 'string') node.metadata.description = raw.description;
    node.file = file;
  }
  return node;
}
