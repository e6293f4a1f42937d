import * as fs from 'fs';
import * as path from 'path';
import { ParameterTree } from '../parameters/tree';
import type { Reform, ValueAt } from '../parameters/types';
import { loadCountry } from './country';
import { CompileEnv, Fusion } from './compiler/expr';
import { FusedKernelCache } from './compiler/fused-cache';
import { compileVariable, Kernel } from './compiler/variable';
import { instantOf } from './periods';
import { buildPlan, Plan, PlanSource } from './plan';
import { CountryDef, EngineError, EntityDef, VariableSpec } from './types';
import { loadVariables, resolveRead } from './variables';
import { applyRuleSet, BranchSpec, loadRuleSets, parseBranchKey, RuleSet } from './branches';

/**
 * A country's rules: entities, variable specs and the parameter tree. Immutable; compiled forms
 * (per reform) are cached on it.
 */
export class CountryModel {
  private readonly entityMap: Map<string, EntityDef>;
  private readonly compiledCache = new Map<string, CompiledModel>();
  /** Compiled reforms kept per model (the baseline is always kept): a bound on memory for servers. */
  static MAX_COMPILED_REFORMS = 64;

  constructor(
    readonly country: CountryDef,
    readonly variables: Map<string, VariableSpec>,
    readonly parameters: ParameterTree,
    /** Named rule sets for `branch(x, rules = "name")` (the country's `rule_sets/` folders). */
    readonly ruleSets: Map<string, RuleSet> = new Map(),
  ) {
    this.entityMap = new Map(country.entities.map((e) => [e.key, e]));
    for (const rule of country.coverage) {
      const v = variables.get(rule.variable);
      if (!v || v.type !== 'bool') throw new EngineError(`${country.folder}/country.yaml: coverage names ${rule.variable}, which is not a bool variable`);
      for (const [, name] of rule.message.matchAll(/\{([A-Za-z_][A-Za-z0-9_]*)\}/g)) {
        const other = variables.get(name);
        if (!other || (other.entity !== v.entity && !this.isWithin(v.entity, other.entity))) {
          throw new EngineError(`${country.folder}/country.yaml: coverage message for ${rule.variable} names {${name}}, not a variable of its ${v.entity} or a group containing it`);
        }
      }
    }
    for (const spec of variables.values()) {
      if (!this.entityMap.has(spec.entity)) {
        throw new EngineError(`${spec.file}: variable ${spec.name}: unknown entity "${spec.entity}" (entities: ${[...this.entityMap.keys()].join(', ')})`, spec.file, spec.name);
      }
    }
  }

  static load(folder: string): CountryModel {
    const country = loadCountry(folder);
    const parts = [folder, ...country.modules];
    const variables = loadVariables(parts.map((p) => path.join(p, 'variables')));
    const paramDirs = parts.map((p) => path.join(p, 'parameters')).filter((p) => fs.existsSync(p));
    const breakdownValues = (name: string) => variables.get(name)?.possible_values;
    const parameters = ParameterTree.loadFolders(paramDirs, { breakdownValues });
    return new CountryModel(country, variables, parameters, loadRuleSets(parts));
  }

  get entities(): Map<string, EntityDef> {
    return this.entityMap;
  }

  personEntity(): EntityDef {
    return this.country.entities.find((e) => e.isPerson)!;
  }

  entity(key: string): EntityDef {
    const e = this.entityMap.get(key);
    if (!e) throw new EngineError(`unknown entity "${key}" (entities: ${[...this.entityMap.keys()].join(', ')})`);
    return e;
  }

  entityByPlural(plural: string): EntityDef | undefined {
    return this.country.entities.find((e) => e.plural === plural);
  }

  variable(name: string): VariableSpec {
    const v = this.variables.get(name);
    if (!v) throw new EngineError(`unknown variable "${name}"`);
    return v;
  }

  /** True when every instance of `inner` lies inside one instance of `outer`. */
  isWithin(inner: string, outer: string): boolean {
    if (inner === outer) return false;
    const o = this.entityMap.get(outer);
    if (!o || o.isPerson) return false;
    const i = this.entityMap.get(inner);
    if (!i) return false;
    return i.isPerson || i.within.includes(outer);
  }

  /** Kernels compiled so far under current law and kept: how warm the model is. */
  compiledKernels(): number {
    return this.compiled().kernelCount();
  }

  /** The compiled model for a reform (cached by the reform's content). */
  compiled(reform?: Reform): CompiledModel {
    return this.compiledTree(reform && Object.keys(reform).length ? this.parameters.withReform(reform) : this.parameters);
  }

  /** The compiled model under a rule set, on top of `base` (a simulation's own rules); `baseline` is the baseline law. */
  compiledRules(name: string, base: CompiledModel): CompiledModel {
    if (name === 'baseline') return this.compiled();
    const rules = this.ruleSets.get(name);
    if (!rules) throw new EngineError(`unknown rule set "${name}" (rule sets: ${[...this.ruleSets.keys()].join(', ') || 'none'})`);
    return this.compiledTree(applyRuleSet(base.parameters, rules));
  }

  private compiledTree(params: ParameterTree): CompiledModel {
    const key = params.fingerprint();
    let c = this.compiledCache.get(key);
    if (c) {
      // Most recently used last, so the oldest reform is the first evicted.
      this.compiledCache.delete(key);
      this.compiledCache.set(key, c);
      return c;
    }
    c = new CompiledModel(this, params);
    this.compiledCache.set(key, c);
    for (const old of this.compiledCache.keys()) {
      if (this.compiledCache.size <= CountryModel.MAX_COMPILED_REFORMS) break;
      if (old !== '') this.compiledCache.delete(old);
    }
    return c;
  }
}

/** Kernels of every variable, compiled lazily per period under one parameter tree (baseline or reform). */
export class CompiledModel implements PlanSource {
  static readonly MAX_PLANS = 16;
  /** Lazy evaluations of a computation before warmPlan builds it a plan. */
  static readonly WARM_AFTER = 2;
  private static readonly MAX_SHAPES = 256;
  private readonly shapes = new Map<string, number>();
  private readonly kernels = new Map<string, Map<string, Kernel | null>>();
  private readonly plans = new Map<string, Plan>();
  private readonly fused = new FusedKernelCache();
  private readonly populationReads = new Map<string, boolean>();
  private readonly envs = new Map<string, CompileEnv>();
  private paramRoots?: Set<string>;

  constructor(
    readonly model: CountryModel,
    readonly parameters: ParameterTree,
  ) {}

  private env(period: string, spec: VariableSpec): CompileEnv {
    const base = this.periodEnv(period);
    return spec.params ? { ...base, aliases: spec.params } : base;
  }

  private periodEnv(period: string): CompileEnv {
    let env = this.envs.get(period);
    if (!env) {
      const model = this.model;
      const params = this.parameters;
      const instant = period === 'eternity' ? null : instantOf(period, model.country.yearInstant);
      const cache = new Map<string, ValueAt>();
      const roots = this.roots();
      env = {
        variables: model.variables,
        entities: model.entities,
        isWithin: (a, b) => model.isWithin(a, b),
        hasParamRoot: (name) => roots.has(name),
        param: (p) => {
          if (instant === null) throw new EngineError(`parameters cannot be read in an eternity formula (${p})`);
          let v = cache.get(p);
          if (v === undefined) {
            v = params.at(p, instant);
            cache.set(p, v);
          }
          return v;
        },
        paramAt: (p, at) => params.at(p, at),
        hasRuleSet: (name) => name === 'baseline' || model.ruleSets.has(name),
        period,
        aliases: {},
        forPeriod: (other) => this.periodEnv(other),
      };
      this.envs.set(period, env);
    }
    return env;
  }

  /** First steps of every parameter path (`gov`): names a formula may start a parameter path with. */
  private roots(): Set<string> {
    if (!this.paramRoots) {
      this.paramRoots = new Set();
      for (const [p] of this.parameters.leaves()) this.paramRoots.add(p.split(/[.[]/)[0]);
    }
    return this.paramRoots;
  }

  /** The kernel computing `name` at `period` (its definition period), or null for an input. */
  kernel(name: string, period: string): Kernel | null {
    let byPeriod = this.kernels.get(name);
    if (!byPeriod) {
      byPeriod = new Map();
      this.kernels.set(name, byPeriod);
    }
    let k = byPeriod.get(period);
    if (k === undefined) {
      const spec = this.model.variable(name);
      k = compileVariable(spec, period, this.env(period, spec));
      byPeriod.set(period, k);
    }
    return k;
  }

  /** Kernels kept: by kernel() (inputs, which have none, not counted) and for plans. */
  kernelCount(): number {
    let n = this.fused.size;
    for (const byPeriod of this.kernels.values()) for (const k of byPeriod.values()) if (k) n++;
    return n;
  }

  /** A kernel compiled with an execution plan's facts (kept for plans whose facts agree). */
  fusedKernel(name: string, period: string, fusion: Fusion): Kernel {
    return this.fused.get(name, period, fusion, (facts) => {
      const spec = this.model.variable(name);
      const k = compileVariable(spec, period, this.env(period, spec), facts);
      if (!k) throw new EngineError(`${name} has no formula at ${period}`);
      return k;
    });
  }

  variable(name: string): VariableSpec {
    return this.model.variable(name);
  }

  /** Whether computing `name` at `period` runs a formula over statistics of the whole population. */
  readsPopulation(name: string, period: string): boolean {
    const memo = this.populationReads;
    const visit = (n: string, p: string): boolean => {
      const key = `${n}@${p}`;
      const known = memo.get(key);
      if (known !== undefined) return known;
      memo.set(key, false);
      const spec = this.model.variable(n);
      let found = false;
      for (const ep of resolveRead(spec, p).periods) {
        const k = this.kernel(n, ep);
        if (!k) continue;
        found = k.global || k.deps.some((d) => visit(d.name, d.period));
        if (found) break;
      }
      memo.set(key, found);
      return found;
    };
    return visit(name, period);
  }

  /** What a branch computes with: the compiled rules and the variables it fixes. */
  branch(key: string): { source: CompiledModel; spec: BranchSpec } {
    const spec = parseBranchKey(key);
    return { source: spec.rules === null ? this : this.model.compiledRules(spec.rules, this), spec };
  }

  /**
   * The execution plan computing `targets` at `period` when exactly the columns in `inputs`
   * (`name@period` keys) are given. Plans are cached: building one compiles its kernels.
   */
  plan(targets: string[], period: string, inputs: string[]): Plan {
    return this.planFor(CompiledModel.planKey(targets, period, inputs), targets, period, inputs);
  }

  private static planKey(targets: string[], period: string, inputs: string[]): string {
    return `${period}|${targets.join(',')}|${[...new Set(inputs)].sort().join(',')}`;
  }

  /**
   * The plan for a computation seen at least `WARM_AFTER` times before (the same targets, period and
   * given inputs), else null: a repeated request shape (an app sending the same household form) is
   * worth a plan, whose building costs more than one lazy evaluation.
   */
  warmPlan(targets: string[], period: string, inputs: string[]): Plan | null {
    const key = CompiledModel.planKey(targets, period, inputs);
    if (this.plans.has(key)) return this.planFor(key, targets, period, inputs);
    const seen = (this.shapes.get(key) ?? 0) + 1;
    this.shapes.delete(key);
    if (seen <= CompiledModel.WARM_AFTER) {
      this.shapes.set(key, seen);
      if (this.shapes.size > CompiledModel.MAX_SHAPES) this.shapes.delete(this.shapes.keys().next().value!);
      return null;
    }
    return this.planFor(key, targets, period, inputs);
  }

  private planFor(key: string, targets: string[], period: string, inputs: string[]): Plan {
    const given = new Set(inputs);
    let plan = this.plans.get(key);
    if (plan) {
      this.plans.delete(key);
    } else {
      plan = buildPlan(this, targets, period, (n, p) => given.has(`${n}@${p}`));
      if (this.plans.size >= CompiledModel.MAX_PLANS) this.plans.delete(this.plans.keys().next().value!);
    }
    this.plans.set(key, plan);
    return plan;
  }

  /**
   * Compile every variable for a period and check the same-period dependency graph for cycles.
   * Errors name the file and variable; a cycle names the whole chain.
   */
  check(period: string): void {
    const visiting = new Set<string>();
    const done = new Set<string>();
    const stack: string[] = [];
    const visit = (name: string, p: string) => {
      const key = `${name}@${p}`;
      if (done.has(key)) return;
      if (visiting.has(key)) {
        const chain = [...stack.slice(stack.indexOf(key)), key].map((k) => k.split('@')[0]);
        const spec = this.model.variable(name);
        throw new EngineError(`${spec.file}: dependency cycle: ${chain.join(' -> ')}`, spec.file, name);
      }
      visiting.add(key);
      stack.push(key);
      const spec = this.model.variable(name);
      const own = spec.period === 'eternity' ? ['eternity'] : convertPeriodFor(spec.period, p);
      for (const ownP of own) {
        const k = this.kernel(name, ownP);
        // Other periods (last_year) cannot close a same-period cycle.
        // A branch is another evaluation of its variable, checked when it runs (Simulation.branch).
        if (k) for (const d of k.deps) if (!d.branch && (d.period === ownP || samePeriodFamily(d.period, ownP))) visit(d.name, d.period);
      }
      stack.pop();
      visiting.delete(key);
      done.add(key);
    };
    for (const name of this.model.variables.keys()) visit(name, period);
  }
}

function convertPeriodFor(unit: string, period: string): string[] {
  if (unit === 'year') return [period.slice(0, 4)];
  if (unit === 'month') return period.length === 4 ? [`${period}-01`] : [period];
  return ['eternity'];
}

function samePeriodFamily(a: string, b: string): boolean {
  return a.slice(0, 4) === b.slice(0, 4);
}
