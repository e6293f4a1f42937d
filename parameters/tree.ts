import { createHash } from 'crypto';
import * as fs from 'fs';
import { BreakdownValues, homogenizeBreakdowns } from './breakdown';
import { buildParameter } from './build';
import { isDate } from './dates';
import { loadDirectory } from './load';
import { propagateMetadata } from './metadata';
import { resolve, resolveParameter } from './paths';
import { applyReform } from './reform';
import { uprateSeries, valueAt } from './series';
import { expandTableNode, formulaSeries, tableSeries } from './derived';
import {
  DatedValue,
  NodeAt,
  Parameter,
  ParameterError,
  ParameterLeaf,
  ParameterNode,
  ParameterScale,
  Reform,
  ScaleAt,
  ValueAt,
} from './types';

export interface LoadOptions {
  /** Possible values (enum names) of a variable named in a `breakdown`; undefined skips the check. */
  breakdownValues?: BreakdownValues;
}

/** `[path, leaf]`: a series and its dotted path (bracket components as `scale[i].rate`). */
export type LeafEntry = [string, ParameterLeaf];

/** Merge `from` into `into` (both nodes at the same path). */
function mergeNodes(into: ParameterNode, from: ParameterNode): void {
  for (const [key, child] of Object.entries(from.children)) {
    const mine = into.children[key];
    if (mine === undefined) into.children[key] = child;
    else if (mine.kind === 'node' && child.kind === 'node') mergeNodes(mine, child);
    else throw new ParameterError(`${child.file}: ${child.path} is also defined by ${mine.file}`, child.file, child.path);
  }
  for (const [key, value] of Object.entries(from.metadata)) {
    if (into.metadata[key] === undefined) into.metadata[key] = value;
  }
}

/** Give every table-derived node its leaves, one per combination of its breakdown keys. */
function expandDerivedTables(param: Parameter, lookup: BreakdownValues | undefined): void {
  if (param.kind !== 'node') return;
  if (param.derivedTable) expandTableNode(param, param.derivedTable, lookup);
  else for (const child of Object.values(param.children)) expandDerivedTables(child, lookup);
}

function canonical(x: unknown): string {
  if (Array.isArray(x)) return `[${x.map(canonical).join(',')}]`;
  if (typeof x === 'object' && x !== null) {
    const obj = x as Record<string, unknown>;
    return `{${Object.keys(obj).sort().map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`).join(',')}}`;
  }
  return JSON.stringify(x);
}

/**
 * A parameter tree (the baseline, or the baseline under one or more reforms). Immutable: a reform
 * gives a new tree sharing every untouched object. Uprated series and values at an instant are
 * computed on demand and memoized per tree, since a reformed index changes what it uprates.
 */
export class ParameterTree {
  private readonly series = new Map<ParameterLeaf, readonly DatedValue[]>();
  private readonly upratingNow = new Set<ParameterLeaf>();
  private readonly atCache = new Map<string, Map<Parameter, ValueAt | undefined>>();
  private readonly paths = new Map<string, Parameter>();
  /** Work shared by the leaves of one table derivation (which year each year reads). */
  private readonly derivationMemo = new Map<object, unknown>();

  private constructor(readonly root: ParameterNode, private readonly reformHash: string) {}

  /** Loads a PolicyEngine-style parameter folder; paths are dotted from the folder (`gov.hmrc...`). */
  static loadFolder(folder: string, options: LoadOptions = {}): ParameterTree {
    if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
      throw new ParameterError(`${folder}: parameter folder not found`, folder);
    }
    return ParameterTree.finish(loadDirectory(folder, ''), options);
  }

  /**
   * Several parameter folders as one tree (a country and its modules): each folder holds full
   * paths from the root; nodes present in more than one folder are merged, and a parameter
   * defined twice is an error naming both files.
   */
  static loadFolders(folders: string[], options: LoadOptions = {}): ParameterTree {
    for (const folder of folders) {
      if (!fs.existsSync(folder) || !fs.statSync(folder).isDirectory()) {
        throw new ParameterError(`${folder}: parameter folder not found`, folder);
      }
    }
    if (folders.length === 0) return ParameterTree.finish({ kind: 'node', path: '', children: {}, metadata: {}, file: '' }, options);
    const [first, ...rest] = folders.map((f) => loadDirectory(f, ''));
    for (const other of rest) mergeNodes(first, other);
    return ParameterTree.finish(first, options);
  }

  /**
   * A tree from an in-memory object, as if it were the file `file` at `path` (dotted; '' for the
   * root, which must then be a node).
   */
  static fromObject(obj: unknown, path: string, file: string, options: LoadOptions = {}): ParameterTree {
    const param = buildParameter(obj, file, path);
    if (path === '') {
      if (param.kind !== 'node') throw new ParameterError(`${file}: the root of a tree must be a node`, file);
      return ParameterTree.finish(param, options);
    }
    const steps = path.split('.');
    let child: Parameter = param;
    for (let i = steps.length - 1; i >= 0; i--) {
      child = { kind: 'node', path: steps.slice(0, i).join('.'), children: { [steps[i]]: child }, metadata: {}, file };
    }
    return ParameterTree.finish(child as ParameterNode, options);
  }

  private static finish(root: ParameterNode, options: LoadOptions): ParameterTree {
    expandDerivedTables(root, options.breakdownValues);
    homogenizeBreakdowns(root, options.breakdownValues);
    propagateMetadata(root);
    const tree = new ParameterTree(root, '');
    tree.checkUpratingIndexes();
    return tree;
  }

  private checkUpratingIndexes(): void {
    for (const [path, leaf] of this.leaves()) {
      const spec = leaf.metadata.uprating;
      if (!spec) continue;
      let index: Parameter | undefined;
      try {
        index = this.get(spec.parameter);
      } catch {
        index = undefined;
      }
      if (index?.kind !== 'leaf') {
        const what = index ? `is a ${index.kind}, not a series` : 'does not exist';
        throw new ParameterError(`${leaf.file}: ${path}.metadata.uprating: index ${spec.parameter} ${what}`, leaf.file, path);
      }
    }
  }

  get(path: string): Parameter {
    let found = this.paths.get(path);
    if (!found) {
      found = resolveParameter(this.root, path);
      this.paths.set(path, found);
    }
    return found;
  }

  has(path: string): boolean {
    try {
      resolve(this.root, path);
      return true;
    } catch {
      return false;
    }
  }

  /** Every series (node leaves and scale components) with its path, in file order. */
  *leaves(): IterableIterator<LeafEntry> {
    const walk = function* (p: Parameter): IterableIterator<LeafEntry> {
      if (p.kind === 'leaf') {
        yield [p.path, p];
      } else if (p.kind === 'node') {
        for (const child of Object.values(p.children)) yield* walk(child);
      } else {
        for (const b of p.brackets) {
          for (const leaf of [b.threshold, b.rate, b.amount, b.average_rate, b.base]) if (leaf) yield [leaf.path, leaf];
        }
      }
    };
    yield* walk(this.root);
  }

  /** A leaf's series as the engine reads it: the written values extended by uprating. */
  seriesOf(path: string): readonly DatedValue[] {
    const p = this.get(path);
    if (p.kind !== 'leaf') throw new ParameterError(`${p.file}: ${path} is a ${p.kind}, not a series`, p.file, path);
    return this.effective(p);
  }

  private effective(leaf: ParameterLeaf): readonly DatedValue[] {
    const cached = this.series.get(leaf);
    if (cached) return cached;
    const spec = leaf.metadata.uprating;
    if (!spec && !leaf.derived) return leaf.values;
    if (this.upratingNow.has(leaf)) {
      const cycle = [...this.upratingNow].map((l) => l.path).join(' -> ');
      throw new ParameterError(`${leaf.file}: ${leaf.path}: uprating cycle ${cycle} -> ${leaf.path}`, leaf.file, leaf.path);
    }
    this.upratingNow.add(leaf);
    try {
      const own = leaf.derived ? this.derive(leaf) : leaf.values;
      const out = spec ? uprateSeries(own, this.effective(this.get(spec.parameter) as ParameterLeaf), spec, leaf.path) : own;
      this.series.set(leaf, out);
      return out;
    } catch (err) {
      if (err instanceof ParameterError && err.file === undefined) {
        throw new ParameterError(`${leaf.file}: ${err.message}`, leaf.file, leaf.path);
      }
      throw err;
    } finally {
      this.upratingNow.delete(leaf);
    }
  }

  /** A derived leaf's series, computed from this tree's parameters (so under this tree's reform). */
  private derive(leaf: ParameterLeaf): DatedValue[] {
    const d = leaf.derived!;
    const src = { at: (p: string, instant: string) => this.at(p, instant) };
    return d.kind === 'formula' ? formulaSeries(d, src, leaf) : tableSeries(d.spec, d.keys, src, this.derivationMemo);
  }

  /**
   * The value at an instant ("YYYY-MM-DD"): a leaf's value, a ScaleAt or a NodeAt. Throws a
   * ParameterError naming the path and instant when there is none (before the first date, after a
   * null). Inside a NodeAt, a child without a value at the instant is null.
   */
  at(path: string, instant: string): ValueAt {
    if (!isDate(instant)) throw new ParameterError(`${path}: bad instant "${instant}" (expected YYYY-MM-DD)`, undefined, path);
    const p = this.get(path);
    const v = this.valueOf(p, instant);
    if (v === undefined || v === null) {
      const why = v === null ? 'the series has ended' : 'it starts later';
      throw new ParameterError(`${p.file}: ${path}: no value at ${instant} (${why})`, p.file, path);
    }
    return v;
  }

  private valueOf(p: Parameter, instant: string): ValueAt | undefined {
    if (p.kind === 'leaf') return valueAt(this.effective(p), instant);
    let memo = this.atCache.get(instant);
    if (!memo) {
      memo = new Map();
      this.atCache.set(instant, memo);
    }
    if (memo.has(p)) return memo.get(p);
    const v = p.kind === 'scale' ? this.scaleAt(p, instant) : this.nodeAt(p, instant);
    memo.set(p, v);
    return v;
  }

  private nodeAt(node: ParameterNode, instant: string): NodeAt {
    const children: Record<string, ValueAt> = {};
    for (const [key, child] of Object.entries(node.children)) {
      const v = this.valueOf(child, instant);
      children[key] = v === undefined ? null : v;
    }
    const out: NodeAt = { kind: 'node', children };
    if (node.metadata.breakdown) out.breakdown = node.metadata.breakdown;
    return out;
  }

  /** Brackets without a threshold or value at the instant (not yet in force, or ended) are left out. */
  private scaleAt(scale: ParameterScale, instant: string): ScaleAt | undefined {
    const thresholds: number[] = [];
    const values: number[] = [];
    let bools = false;
    for (const b of scale.brackets) {
      const t = valueAt(this.effective(b.threshold), instant);
      const leaf = b.rate ?? b.amount ?? b.average_rate;
      const v = leaf ? valueAt(this.effective(leaf), instant) : undefined;
      if (typeof t !== 'number' || (typeof v !== 'number' && typeof v !== 'boolean')) continue;
      const base = b.base ? valueAt(this.effective(b.base), instant) : undefined;
      if (typeof v === 'boolean') bools = true;
      thresholds.push(t);
      values.push(Number(v) * (typeof base === 'number' ? base : 1));
    }
    if (thresholds.length === 0) return undefined;
    const out: ScaleAt = { kind: 'scale', scaleKind: scale.scaleKind, thresholds, values };
    if (bools) out.boolValues = true;
    return out;
  }

  /** A new tree with the reform applied (before uprating, as PolicyEngine does); this one is unchanged. */
  withReform(reform: Reform): ParameterTree {
    const root = applyReform(this.root, reform);
    if (Object.keys(reform).length === 0) return this;
    const hash = createHash('sha256').update(`${this.reformHash}\n${canonical(reform)}`).digest('hex');
    return new ParameterTree(root, hash);
  }

  /** '' for the baseline; otherwise a stable hash of the reforms applied, in order. */
  fingerprint(): string {
    return this.reformHash;
  }
}
