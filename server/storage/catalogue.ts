/**
 * The model catalogue in the database: models, versions, parameters with their baseline values,
 * variables. Written once per model version (seeding), read by the API. A version's rows are
 * inserted in one transaction, so a reader never sees half a version.
 */
import type { Knex } from 'knex';
import type { Database } from './db';
import type { ModelRow, Page, ParameterRow, ParameterValueRow, VariableRow, VersionRow } from './rows';

export interface VersionContent {
  version: VersionRow;
  parameters: ParameterRow[];
  values: ParameterValueRow[];
  variables: VariableRow[];
}

export interface CatalogueFilter {
  versionId?: string;
  country?: string;
  search?: string;
}

const CHUNK = 100; // rows per INSERT: well under SQLite's bound-variable limit

export class CatalogueStore {
  constructor(private readonly db: Database) {}

  private get k(): Knex {
    return this.db.knex;
  }

  /** Inserts the model when missing (racing processes: the loser's insert is ignored). */
  async ensureModel(row: ModelRow): Promise<void> {
    await this.k('tax_benefit_models').insert(row).onConflict('id').ignore();
  }

  async hasVersion(id: string): Promise<boolean> {
    return (await this.k('tax_benefit_model_versions').where({ id }).first('id')) !== undefined;
  }

  /** Inserts a whole version; a version that exists already is left as it is (rows are never rewritten). */
  async insertVersion(content: VersionContent): Promise<boolean> {
    const id = content.version.id;
    try {
      return await this.k.transaction(async (trx) => {
        if (await trx('tax_benefit_model_versions').where({ id }).first('id')) return false;
        await trx('tax_benefit_model_versions').insert(content.version);
        await trx.batchInsert('parameters', content.parameters, CHUNK);
        await trx.batchInsert('parameter_values', content.values, CHUNK);
        await trx.batchInsert('variables', content.variables, CHUNK);
        return true;
      });
    } catch (error) {
      // Another process seeded the same version at the same moment: theirs is identical.
      if (await this.hasVersion(id)) return false;
      throw error;
    }
  }

  listModels(): Promise<ModelRow[]> {
    return this.k('tax_benefit_models').select('*').orderBy('name');
  }

  getModel(id: string): Promise<ModelRow | undefined> {
    return this.k('tax_benefit_models').where({ id }).first();
  }

  modelByCountry(country: string): Promise<ModelRow | undefined> {
    return this.k('tax_benefit_models').where({ country }).first();
  }

  listVersions(filter: { modelId?: string }, page: Page): Promise<VersionRow[]> {
    const q = this.k('tax_benefit_model_versions').select('*');
    if (filter.modelId) q.where({ model_id: filter.modelId });
    return q.orderBy([{ column: 'model_id' }, { column: 'created_at' }, { column: 'id' }]).limit(page.limit).offset(page.offset);
  }

  getVersion(id: string): Promise<VersionRow | undefined> {
    return this.k('tax_benefit_model_versions').where({ id }).first();
  }

  versionsOfModel(modelId: string): Promise<VersionRow[]> {
    return this.k('tax_benefit_model_versions').where({ model_id: modelId }).orderBy('created_at');
  }

  listParameters(filter: CatalogueFilter, page: Page): Promise<ParameterRow[]> {
    const q = this.k('parameters as p').select('p.*');
    this.scope(q, 'p', filter);
    if (filter.search) searchIn(q, ['p.name', 'p.label', 'p.description'], filter.search);
    return q.orderBy([{ column: 'p.name' }, { column: 'p.tax_benefit_model_version_id' }]).limit(page.limit).offset(page.offset);
  }

  getParameter(id: string): Promise<ParameterRow | undefined> {
    return this.k('parameters').where({ id }).first();
  }

  parameterByName(versionId: string, name: string): Promise<ParameterRow | undefined> {
    return this.k('parameters').where({ tax_benefit_model_version_id: versionId, name }).first();
  }

  parametersByIds(ids: string[]): Promise<ParameterRow[]> {
    return ids.length === 0 ? Promise.resolve([]) : this.k('parameters').whereIn('id', ids);
  }

  /** `baseline`: only values of no policy and no dynamic. */
  listParameterValues(filter: { parameterId?: string; policyId?: string; dynamicId?: string; baseline?: boolean }, page: Page): Promise<ParameterValueRow[]> {
    const q = this.k('parameter_values').select('*');
    if (filter.parameterId) q.where({ parameter_id: filter.parameterId });
    if (filter.policyId) q.where({ policy_id: filter.policyId });
    if (filter.dynamicId) q.where({ dynamic_id: filter.dynamicId });
    if (filter.baseline) q.whereNull('policy_id').whereNull('dynamic_id');
    return q.orderBy([{ column: 'parameter_id' }, { column: 'start_date' }, { column: 'position' }, { column: 'id' }]).limit(page.limit).offset(page.offset);
  }

  getParameterValue(id: string): Promise<ParameterValueRow | undefined> {
    return this.k('parameter_values').where({ id }).first();
  }

  listVariables(filter: CatalogueFilter & { entity?: string }, page: Page): Promise<VariableRow[]> {
    const q = this.k('variables as v').select('v.*');
    this.scope(q, 'v', filter);
    if (filter.entity) q.where('v.entity', filter.entity);
    if (filter.search) searchIn(q, ['v.name', 'v.label', 'v.description'], filter.search);
    return q.orderBy([{ column: 'v.name' }, { column: 'v.tax_benefit_model_version_id' }]).limit(page.limit).offset(page.offset);
  }

  getVariable(id: string): Promise<VariableRow | undefined> {
    return this.k('variables').where({ id }).first();
  }

  private scope(q: Knex.QueryBuilder, alias: string, filter: CatalogueFilter): void {
    if (filter.versionId) q.where(`${alias}.tax_benefit_model_version_id`, filter.versionId);
    if (filter.country) {
      q.join('tax_benefit_model_versions as mv', 'mv.id', `${alias}.tax_benefit_model_version_id`)
        .join('tax_benefit_models as m', 'm.id', 'mv.model_id')
        .where('m.country', filter.country);
    }
  }
}

/** Case-insensitive substring search over columns, the same on SQLite and PostgreSQL. */
export function searchIn(q: Knex.QueryBuilder, columns: string[], text: string): void {
  const pattern = `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  q.where((w) => {
    for (const column of columns) w.orWhereRaw(`lower(coalesce(??, '')) like ? escape '\\'`, [column, pattern]);
  });
}
