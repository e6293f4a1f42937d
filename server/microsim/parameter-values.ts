/**
 * Checks the parameter values of a policy or dynamic against the parameters of one model version:
 * the parameter exists (a bracket index within its scale), the value has the parameter's type,
 * the dates are real and ordered. Every bad item is reported with its index and reason, so a
 * client fixes them all in one go; nothing is stored unless every item is good.
 */
import { isDate } from '../../parameters/dates';
import { ApiError, type ProblemDetail } from '../http/errors';
import { newId, now } from '../storage/ids';
import type { ParameterRow, ParameterValueRow, VersionRow } from '../storage/rows';
import type { MicrosimContext } from './context';

export interface ParameterValueInput {
  parameter_id?: string;
  parameter_name?: string;
  value_json: unknown;
  start_date: string;
  end_date?: string | null;
}

export interface ItemProblem extends ProblemDetail {
  index: number;
}

/** Rows ready to insert for a set with id `owner` (policy or dynamic), or throws the 422. */
export async function checkParameterValues(
  ctx: MicrosimContext,
  items: ParameterValueInput[],
  version: VersionRow | undefined,
  owner: { policy_id: string | null; dynamic_id: string | null },
  options: { onlyUnder?: string },
): Promise<{ rows: ParameterValueRow[]; version: VersionRow | undefined }> {
  const store = ctx.storage.catalogue;
  const problems: ItemProblem[] = [];
  const byId = new Map((await store.parametersByIds(items.flatMap((i) => (i.parameter_id ? [i.parameter_id.toLowerCase()] : [])))).map((p) => [p.id, p]));
  // Items given by id fix the version when the request did not name one.
  if (!version) {
    const first = items.map((i) => i.parameter_id && byId.get(i.parameter_id.toLowerCase())).find((p) => p);
    if (first) version = await store.getVersion(first.tax_benefit_model_version_id);
  }
  const rows: ParameterValueRow[] = [];
  const created = now();
  for (const [index, item] of items.entries()) {
    const bad = (field: string, message: string) => problems.push({ index, path: `parameter_values/${index}${field ? `/${field}` : ''}`, message });
    const parameter = await findParameter(ctx, item, version, byId, bad);
    if (!parameter) continue;
    if (options.onlyUnder && !parameter.name.startsWith(options.onlyUnder)) {
      bad(item.parameter_id ? 'parameter_id' : 'parameter_name', `${parameter.name} is not a behavioural parameter: a dynamic holds parameters under ${options.onlyUnder}`);
      continue;
    }
    const typeProblem = valueProblem(parameter, item.value_json);
    if (typeProblem) bad('value_json', typeProblem);
    const start = dateOf(item.start_date);
    const end = item.end_date == null ? null : dateOf(item.end_date);
    if (!start) bad('start_date', `"${item.start_date}" is not a calendar date (YYYY-MM-DD)`);
    if (item.end_date != null && !end) bad('end_date', `"${item.end_date}" is not a calendar date (YYYY-MM-DD)`);
    if (start && end && end < start) bad('end_date', `ends (${end}) before it starts (${start})`);
    if (typeProblem || !start || (item.end_date != null && (!end || end < start))) continue;
    rows.push({ id: newId(), parameter_id: parameter.id, ...owner, value_json: JSON.stringify(item.value_json), start_date: start, end_date: end ?? null, position: index, created_at: created });
  }
  if (problems.length > 0) {
    const shown = problems.slice(0, 3).map((p) => `item ${p.index}: ${p.message}`).join('; ');
    throw new ApiError(422, `${problems.length} parameter value${problems.length === 1 ? ' is' : 's are'} invalid: ${shown}${problems.length > 3 ? ` (and ${problems.length - 3} more)` : ''}`, problems);
  }
  return { rows, version };
}

async function findParameter(
  ctx: MicrosimContext,
  item: ParameterValueInput,
  version: VersionRow | undefined,
  byId: Map<string, ParameterRow>,
  bad: (field: string, message: string) => void,
): Promise<ParameterRow | undefined> {
  if (item.parameter_id === undefined && item.parameter_name === undefined) {
    bad('', 'give parameter_id or parameter_name');
    return undefined;
  }
  let parameter: ParameterRow | undefined;
  if (item.parameter_id !== undefined) {
    parameter = byId.get(item.parameter_id.toLowerCase());
    if (!parameter) return void bad('parameter_id', `no parameter with id ${item.parameter_id}`);
    if (version && parameter.tax_benefit_model_version_id !== version.id) {
      return void bad('parameter_id', `parameter ${parameter.name} (${parameter.id}) belongs to another model version than ${version.id}`);
    }
  }
  if (item.parameter_name !== undefined) {
    if (!version) return void bad('parameter_name', 'names need a model: give tax_benefit_model_name or tax_benefit_model_version_id');
    if (parameter && parameter.name !== item.parameter_name) return void bad('parameter_name', `does not match parameter_id, which is ${parameter.name}`);
    parameter ??= await ctx.storage.catalogue.parameterByName(version.id, item.parameter_name);
    if (!parameter) return void bad('parameter_name', await unknownName(ctx, version, item.parameter_name));
  }
  return parameter;
}

/** Why a name is unknown: a bracket index past the end of its scale, a missing step, or a node. */
async function unknownName(ctx: MicrosimContext, version: VersionRow, name: string): Promise<string> {
  const bracket = /^(.*)\[(\d+)\]\.([a-z_]+)$/.exec(name);
  if (bracket) {
    const [, scale, index, component] = bracket;
    const brackets = await ctx.storage.catalogue.listParameters({ versionId: version.id, search: `${scale}[` }, { limit: 1000, offset: 0 });
    const count = new Set(brackets.filter((p) => p.name.startsWith(`${scale}[`)).map((p) => p.name.slice(scale.length).replace(/\].*$/, ''))).size;
    if (count > 0) return `bracket index ${index} is out of range: ${scale} has ${count} bracket${count === 1 ? '' : 's'} (0-${count - 1})`;
    const sameBracket = brackets.find((p) => p.name.startsWith(`${scale}[${index}].`));
    if (sameBracket) return `bracket ${index} of ${scale} has no "${component}"`;
  }
  const children = await ctx.storage.catalogue.listParameters({ versionId: version.id, search: `${name}.` }, { limit: 1, offset: 0 });
  if (children.some((p) => p.name.startsWith(`${name}.`) || p.name.startsWith(`${name}[`))) return `${name} is a group of parameters, not one: name one of its leaves (e.g. ${children[0].name})`;
  return `no parameter named ${name} in model version ${version.version}`;
}

function valueProblem(parameter: ParameterRow, value: unknown): string | undefined {
  const want = parameter.data_type ?? 'float';
  const ok =
    (want === 'float' && typeof value === 'number' && Number.isFinite(value)) ||
    (want === 'int' && Number.isInteger(value)) ||
    (want === 'bool' && typeof value === 'boolean') ||
    (want === 'str' && typeof value === 'string') ||
    (want === 'list' && Array.isArray(value) && value.every((v) => typeof v === 'string'));
  if (ok) return undefined;
  const names: Record<string, string> = { float: 'a number', int: 'a whole number', bool: 'true or false', str: 'text', list: 'a list of text' };
  return `${parameter.name} takes ${names[want] ?? want}, got ${JSON.stringify(value)}`;
}

/** `2026-01-01` or the date part of `2026-01-01T00:00:00Z`, when it is a real date. */
function dateOf(text: string): string | undefined {
  const date = text.slice(0, 10);
  return isDate(date) ? date : undefined;
}
