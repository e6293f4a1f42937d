/**
 * One calculate request, from raw body to filled household: parse, validate against the schema,
 * pick the model version, check the household and policy against that model, compute.
 */
import type { Reform } from '../../parameters/types';
import { parseJson } from '../http/body';
import { ApiError, invalidRequest } from '../http/errors';
import { makeValidator } from '../http/validate';
import type { ModelRegistry } from '../models/registry';
import { planAxes, type Axis } from './axes';
import { computeHousehold, type CoverageWarning, type EnginePort } from './compute';
import type { ModelView } from './model-view';
import { planHousehold } from './plan';
import { checkPolicy, type ParameterLookup } from './policy';
import { calculateRequestSchema } from './schema';

export interface HouseholdLimits {
  maxBodyBytes: number;
  maxPeople: number;
  /** Grid points (copies of the household) an axes request may ask for. */
  maxAxisPoints: number;
  /** People simulated in total (people × points). */
  maxRows: number;
}

export const DEFAULT_LIMITS: HouseholdLimits = { maxBodyBytes: 1024 * 1024, maxPeople: 100, maxAxisPoints: 1001, maxRows: 20000 };

export type CalculableModel = ModelView & { readonly parameters: ParameterLookup };

const validateRequest = makeValidator(calculateRequestSchema, '/household');

interface CalculateBody {
  household: Record<string, Record<string, Record<string, Record<string, unknown>>>> & { axes?: Axis[][] };
  policy?: Record<string, Record<string, unknown>>;
  version?: string;
}

export interface CalculateAnswer {
  status: 'ok';
  message: null;
  result: unknown;
  service_bundle: { model_version: string; data_version: null; dataset: null };
  /** Parts of the result the rules do not cover (absent when there are none). */
  warnings?: CoverageWarning[];
}

export class HouseholdCalculator<M extends CalculableModel> {
  // Checked policies per (model version, policy text): clients repeat the same reform many times.
  private readonly reforms = new Map<string, Reform>();

  constructor(
    private readonly registry: ModelRegistry<M>,
    private readonly engine: EnginePort<M>,
    private readonly limits: HouseholdLimits,
  ) {}

  calculate(country: string, text: string): CalculateAnswer {
    const body = parseJson(text);
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'Request body must be a JSON object like {"household": {...}}');
    if (!('household' in body)) throw new ApiError(400, 'Request body has no "household": send {"household": {...}, "policy"?: {...}, "version"?: "current"}', [{ path: 'household', message: 'is required' }]);
    const problems = validateRequest(body);
    if (problems.length > 0) throw invalidRequest('Invalid request', problems);
    const request = body as CalculateBody;
    const resolved = this.registry.resolve(country, request.version ?? 'current');
    const model = resolved.model;

    const { axes: axesPayload, ...groups } = request.household;
    const { plan, problems: householdProblems } = planHousehold(model, groups, this.limits);
    const axesResult = axesPayload && axesPayload.length > 0 ? planAxes(model, axesPayload, plan, this.limits) : undefined;
    const allProblems = [...householdProblems, ...(axesResult?.problems ?? [])];
    if (allProblems.length > 0) throw invalidRequest('Invalid household', allProblems);

    const reform = request.policy && Object.keys(request.policy).length > 0 ? this.reformFor(resolved.version, country, model, request.policy) : undefined;
    let warnings: CoverageWarning[];
    try {
      warnings = computeHousehold(this.engine, model, groups, plan, axesResult?.axes, reform);
    } catch (error) {
      throw new ApiError(500, `Error calculating household: ${(error as Error).message}`);
    }
    return {
      status: 'ok',
      message: null,
      result: request.household,
      service_bundle: { model_version: resolved.version, data_version: null, dataset: null },
      ...(warnings.length + plan.notModelled.length > 0 ? { warnings: [...plan.notModelled, ...warnings] } : {}),
    };
  }

  private reformFor(version: string, country: string, model: M, policy: Record<string, Record<string, unknown>>): Reform {
    const key = `${country}@${version}\u0000${JSON.stringify(policy)}`;
    const cached = this.reforms.get(key);
    if (cached) return cached;
    const { reform, problems } = checkPolicy(model.parameters, policy);
    if (problems.length > 0) throw invalidRequest('Invalid policy', problems);
    if (this.reforms.size >= 256) this.reforms.delete(this.reforms.keys().next().value!);
    this.reforms.set(key, reform);
    return reform;
  }
}
