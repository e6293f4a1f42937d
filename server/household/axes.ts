/**
 * Axes as PolicyEngine clients send them (`household.axes`): a list of perpendicular sets, each a
 * list of parallel axes `{name, count, min, max, period?, index?}`. The household is copied once
 * per grid point; the first set varies fastest, and copies are laid out copy-major so instance
 * `i` of copy `c` is row `c * declared + i`, the layout PolicyEngine's answers are sliced by.
 */
import type { ProblemDetail } from '../http/errors';
import type { ModelView } from './model-view';
import type { HouseholdPlan } from './plan';

export interface Axis {
  name: string;
  count: number;
  min: number;
  max: number;
  period?: string | number;
  index?: number;
}

/** The values one axis gives its variable's instance `index`, one per copy. */
export interface AxisOverride {
  variable: string;
  period: string;
  entityKey: string;
  index: number;
  values: Float64Array;
}

export interface AxesPlan {
  copies: number;
  overrides: AxisOverride[];
}

export interface AxesLimits {
  maxAxisPoints: number;
  maxRows: number;
}

export function planAxes(model: ModelView, axes: Axis[][], plan: HouseholdPlan, limits: AxesLimits): { axes: AxesPlan; problems: ProblemDetail[] } {
  const problems: ProblemDetail[] = [];
  let copies = 1;
  for (const set of axes) copies *= set[0].count;
  if (copies > limits.maxAxisPoints) {
    problems.push({ path: 'axes', message: `ask for ${copies} points; the limit is ${limits.maxAxisPoints}` });
    return { axes: { copies: 1, overrides: [] }, problems };
  }
  const rows = copies * plan.personIds.length;
  if (rows > limits.maxRows) {
    problems.push({ path: 'axes', message: `would simulate ${rows} people (${plan.personIds.length} × ${copies} points); the limit is ${limits.maxRows}` });
    return { axes: { copies: 1, overrides: [] }, problems };
  }
  const overrides: AxisOverride[] = [];
  let stride = 1;
  axes.forEach((set, s) => {
    const count = set[0].count;
    set.forEach((axis, a) => {
      const where = `axes/${s}/${a}`;
      if (axis.count !== count) {
        problems.push({ path: `${where}/count`, message: `axes in one set vary together and need the same count (${count})` });
        return;
      }
      const spec = model.variables.get(axis.name);
      if (!spec) {
        problems.push({ path: `${where}/name`, message: `unknown variable "${axis.name}" in ${model.country.id}` });
        return;
      }
      if (spec.type !== 'float' && spec.type !== 'int') {
        problems.push({ path: `${where}/name`, message: `${axis.name} is ${spec.type === 'enum' ? 'an' : 'a'} ${spec.type} variable; only numeric variables can vary along an axis` });
        return;
      }
      const periodKey = axis.period === undefined ? plan.firstPeriod : String(axis.period);
      if (periodKey === undefined || !/^\d{4}(-(0[1-9]|1[0-2]))?$/.test(periodKey)) {
        problems.push({ path: `${where}/period`, message: periodKey === undefined ? 'is required when the household names no period' : `"${periodKey}" is not a period (YYYY or YYYY-MM)` });
        return;
      }
      if (spec.period === 'year' && periodKey.length !== 4) {
        problems.push({ path: `${where}/period`, message: `${axis.name} is defined per year: use a year like ${periodKey.slice(0, 4)}` });
        return;
      }
      const index = axis.index ?? 0;
      const declared = plan.declared[spec.entity] ?? 0;
      if (index >= declared) {
        problems.push({ path: `${where}/index`, message: `${axis.name} belongs to ${spec.entity} and the household declares ${declared} of them; index ${index} is out of range` });
        return;
      }
      const values = new Float64Array(copies);
      for (let c = 0; c < copies; c++) {
        const step = Math.floor(c / stride) % count;
        values[c] = count === 1 ? axis.min : axis.min + ((axis.max - axis.min) * step) / (count - 1);
      }
      overrides.push({ variable: axis.name, period: spec.period === 'eternity' ? 'eternity' : periodKey, entityKey: spec.entity, index, values });
    });
    stride *= count;
  });
  return { axes: { copies, overrides }, problems };
}
