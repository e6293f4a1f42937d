/**
 * Several plans over one population as one plan: a step that computes what an earlier step of any
 * of them computes (the same kernel signature over the same columns) is run once. A reform's plan
 * merged after its baseline's recomputes only what the reformed parameters reach: every other
 * kernel has the baseline's code and constants, reads the same columns, and so shares its column.
 */
import { type Plan, type PlanStep, scheduleReleases } from './plan';
import { kernelSignature } from './twins';

export interface MergedPlan {
  plan: Plan;
  /** For each plan given, where its targets are after the run (as `Plan.outputs`). */
  outputs: Plan['outputs'][];
}

/** Merge plans whose inputs are the same columns (same names and periods, same values). */
export function mergePlans(plans: Plan[]): MergedPlan {
  const inputs: Plan['inputs'] = [];
  const inputSlot = new Map<string, number>();
  const bySignature = new Map<string, number>();
  const steps: PlanStep[] = [];
  const branchIds = new Map<Plan, number>();
  let slotCount = 0;
  let kernels = 0;
  const outputs: Plan['outputs'][] = [];
  for (const plan of plans) {
    const slot = new Array<number>(plan.slotCount);
    for (const i of plan.inputs) {
      const key = `${i.name}@${i.period}`;
      let s = inputSlot.get(key);
      if (s === undefined) {
        inputSlot.set(key, (s = slotCount++));
        inputs.push({ name: i.name, period: i.period, slot: s });
      }
      slot[i.slot] = s;
    }
    for (const st of plan.steps) {
      const deps = st.deps.map((d) => slot[d]);
      const signature = stepSignature(st, deps, branchIds);
      let s = bySignature.get(signature);
      if (s === undefined) {
        bySignature.set(signature, (s = slotCount++));
        const step = { ...st, deps, slot: s, release: [] } as PlanStep;
        // A twin stays within its own plan: linking a reform's kernels to the baseline's would keep
        // the baseline's columns alive until the reform's ran (more memory for a report, little gain).
        if (step.kind === 'kernel' && step.twin) step.twin = { ...step.twin, slot: slot[step.twin.slot], deps: step.twin.deps.map((d) => slot[d]) };
        steps.push(step);
        if (st.kind === 'kernel') kernels++;
      }
      slot[st.slot] = s;
    }
    outputs.push(plan.outputs.map((o) => ({ name: o.name, slot: slot[o.slot] })));
  }
  // Free each intermediate column after the last step (of any plan) reading it.
  scheduleReleases(steps, new Set([...inputs.map((i) => i.slot), ...outputs.flat().map((o) => o.slot)]));
  const stats = {
    kernels,
    inlined: plans.reduce((n, p) => n + p.stats.inlined, 0),
    constants: plans.reduce((n, p) => n + p.stats.constants, 0),
  };
  return { plan: { inputs, steps, outputs: [], slotCount, stats, global: plans.some((p) => p.global) }, outputs };
}

function stepSignature(st: PlanStep, deps: number[], branchIds: Map<Plan, number>): string {
  switch (st.kind) {
    case 'kernel':
      return `k|${kernelSignature(st.kernel)}|${deps.join(',')}`;
    case 'times':
      return `times|${st.factor}|${deps.join(',')}`;
    case 'fill':
      return `fill|${st.entity}|${st.type}|${Object.is(st.value, -0) ? '-0' : st.value}`;
    case 'branch': {
      // A branch's nested plan is compared by identity (the same compiled rules built it).
      let id = branchIds.get(st.plan);
      if (id === undefined) branchIds.set(st.plan, (id = branchIds.size));
      return `branch|${id}|${st.name}|${deps.join(',')}`;
    }
    default:
      return `${st.kind}|${deps.join(',')}`;
  }
}
