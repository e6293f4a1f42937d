/** The microsimulation API's part of the OpenAPI document, from the schemas that check requests. */
import type { ApiPart } from '../household/openapi';
import { pagingProperties } from '../http/paging';
import * as s from './schemas';

type Op = Record<string, unknown>;

export function microsimApi(options: { auth: boolean }): ApiPart {
  const json = (schema: object, description: string) => ({ description, content: { 'application/json': { schema } } });
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const list = (name: string) => json({ type: 'array', items: ref(name) }, `A page of ${name} records (a plain JSON array)`);
  const err = (description: string) => json(ref('DetailError'), description);
  const common = { ...(options.auth ? { 401: json(ref('OAuthError'), 'Missing or invalid bearer token') } : {}), 500: err('Internal error') };
  const query = (schema: { properties: Record<string, unknown> }) =>
    Object.entries(schema.properties).map(([name, sch]) => ({ name, in: 'query', required: false, schema: sch }));
  const idPath = [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }];
  const op = (summary: string, extra: Op): Op => ({ summary, tags: ['microsimulation'], ...(options.auth ? { security: [{ bearer: [] }] } : {}), ...extra, responses: { ...(extra.responses as object), ...common } });
  const getList = (summary: string, name: string, q: { properties: Record<string, unknown> }) => op(summary, { parameters: query(q), responses: { 200: list(name), 422: err('Invalid query (each problem with its path, e.g. query/limit)') } });
  const getOne = (summary: string, name: string) => op(summary, { parameters: idPath, responses: { 200: json(ref(name), name), 404: err('No such id') } });
  const post = (summary: string, body: object, name: string, more: Op = {}) =>
    op(summary, { requestBody: { required: true, content: { 'application/json': { schema: body } } }, responses: { 201: json(ref(name), `The new ${name}`), 400: err('Malformed JSON'), 404: err('A referenced id does not exist'), 413: err('The body is larger than the limit'), 422: err('Invalid body: every problem with its path (items of parameter_values with their index)'), ...more } });
  const del = (summary: string) => op(summary, { parameters: idPath, responses: { 204: { description: 'Deleted' }, 404: err('No such id'), 409: err('Used by a simulation (`used_by` lists them)') } });
  const paging = { properties: { ...pagingProperties } };

  const paths: Record<string, Op> = {
    '/tax-benefit-models': { get: getList('List the tax-benefit models', 'TaxBenefitModel', paging) },
    '/tax-benefit-models/{id}': { get: getOne('A model, with its versions', 'TaxBenefitModel') },
    '/tax-benefit-model-versions': { get: getList('List model versions', 'TaxBenefitModelVersion', s.versionsQuerySchema) },
    '/tax-benefit-model-versions/{id}': { get: getOne('A model version', 'TaxBenefitModelVersion') },
    '/parameters': { get: getList('List or search parameters', 'Parameter', s.catalogueQuerySchema) },
    '/parameters/{id}': { get: getOne('A parameter', 'Parameter') },
    '/parameter-values': { get: getList('List parameter values (baseline, or of a policy or dynamic)', 'ParameterValue', s.parameterValuesQuerySchema) },
    '/parameter-values/{id}': { get: getOne('A parameter value', 'ParameterValue') },
    '/variables': { get: getList('List or search variables', 'Variable', s.catalogueQuerySchema) },
    '/variables/{id}': { get: getOne('A variable', 'Variable') },
    '/policies': { post: post('Create a policy (a reform)', s.parameterSetInputSchema, 'ParameterSet'), get: getList('List policies', 'ParameterSet', paging) },
    '/policies/{id}': { get: getOne('A policy with its parameter values', 'ParameterSet'), delete: del('Delete a policy no simulation uses') },
    '/dynamics': { post: post('Create a dynamic (behavioural responses)', s.parameterSetInputSchema, 'ParameterSet'), get: getList('List dynamics', 'ParameterSet', paging) },
    '/dynamics/{id}': { get: getOne('A dynamic with its parameter values', 'ParameterSet'), delete: del('Delete a dynamic no simulation uses') },
    '/datasets': { post: post('Register an HDF5 file of the storage folder', s.datasetInputSchema, 'Dataset'), get: getList('List datasets', 'Dataset', s.datasetsQuerySchema) },
    '/datasets/upload': {
      post: op('Upload an HDF5 file and register it', {
        parameters: query(s.datasetInputSchema as unknown as { properties: Record<string, unknown> }).filter((p) => p.name !== 'filepath'),
        requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } } },
        responses: { 201: json(ref('Dataset'), 'The new dataset'), 413: err('The file is larger than the upload limit'), 422: err('The file is not a valid dataset for the model (table, column, row)') },
      }),
    },
    '/datasets/{id}': { get: getOne('A dataset', 'Dataset'), delete: del('Delete a dataset no simulation uses') },
    '/simulations': {
      post: post('Create (or find) a simulation; it runs on a worker', s.simulationInputSchema, 'Simulation', { 200: json(ref('Simulation'), 'The same inputs were simulated (or queued) before: the existing record') }),
      get: getList('List simulations', 'Simulation', s.simulationsQuerySchema),
    },
    '/simulations/{id}': { get: getOne('A simulation: status, progress, times, error', 'Simulation') },
    '/analysis/economic-impact': { post: post('Create (or find) an economic-impact report', s.economicImpactInputSchema, 'EconomicImpact', { 200: json(ref('EconomicImpact'), 'The report (deterministic id): poll GET /analysis/economic-impact/{id}') }) },
    '/analysis/economic-impact/{id}': { get: getOne('A report: status, and its results once completed', 'EconomicImpact') },
    '/regions': { get: op('Regions a simulation can be limited to', { parameters: query(s.regionsQuerySchema), responses: { 200: json({ type: 'array', items: ref('Region') }, 'Regions') } }) },
  };
  return { paths, schemas: { ...s.recordSchemas, DetailError: s.detailErrorSchema, ParameterSetInput: s.parameterSetInputSchema, DatasetInput: s.datasetInputSchema, SimulationInput: s.simulationInputSchema, EconomicImpactInput: s.economicImpactInputSchema } };
}
