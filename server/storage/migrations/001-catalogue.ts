/**
 * Models, versions, parameters (with baseline values) and variables: the catalogue seeded from
 * the model bundles and the working tree; policies and dynamics (sets of parameter values); and
 * registered datasets. Ids are UUID strings; times ISO-8601 strings (the same text on SQLite and
 * PostgreSQL, so nothing drifts through a driver's time-zone handling); JSON as text.
 */
import type { Knex } from 'knex';

export const name = '001-catalogue';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('tax_benefit_models', (t) => {
    t.string('id', 36).primary();
    t.string('name').notNullable().unique();
    t.string('country').notNullable().unique();
    t.text('description');
    t.string('created_at').notNullable();
  });
  await db.schema.createTable('tax_benefit_model_versions', (t) => {
    t.string('id', 36).primary();
    t.string('model_id', 36).notNullable().references('id').inTable('tax_benefit_models');
    t.string('version').notNullable();
    // The content hash: a working tree edited without a version bump is a new row, never a rewrite.
    t.string('hash', 64).notNullable();
    t.string('source').notNullable();
    t.text('description');
    t.string('created_at').notNullable();
    t.unique(['model_id', 'version', 'hash']);
  });
  await db.schema.createTable('parameters', (t) => {
    t.string('id', 36).primary();
    t.string('tax_benefit_model_version_id', 36).notNullable().references('id').inTable('tax_benefit_model_versions');
    t.string('name').notNullable();
    t.text('label');
    t.text('description');
    t.string('unit');
    t.string('data_type');
    t.string('period');
    t.string('created_at').notNullable();
    t.unique(['tax_benefit_model_version_id', 'name']);
    t.index(['name']);
  });
  await db.schema.createTable('variables', (t) => {
    t.string('id', 36).primary();
    t.string('tax_benefit_model_version_id', 36).notNullable().references('id').inTable('tax_benefit_model_versions');
    t.string('name').notNullable();
    t.string('entity').notNullable();
    t.string('period').notNullable();
    t.string('data_type').notNullable();
    t.string('unit');
    t.text('label');
    t.text('description');
    t.text('possible_values');
    t.text('default_value');
    t.boolean('is_input').notNullable();
    t.string('defined_for');
    t.text('adds');
    t.text('subtracts');
    t.string('created_at').notNullable();
    t.unique(['tax_benefit_model_version_id', 'name']);
  });
  for (const table of ['policies', 'dynamics']) {
    await db.schema.createTable(table, (t) => {
      t.string('id', 36).primary();
      t.string('name').notNullable();
      t.text('description');
      t.string('tax_benefit_model_version_id', 36).references('id').inTable('tax_benefit_model_versions');
      t.string('created_at').notNullable();
      t.string('updated_at').notNullable();
    });
  }
  await db.schema.createTable('parameter_values', (t) => {
    t.string('id', 36).primary();
    t.string('parameter_id', 36).notNullable().references('id').inTable('parameters');
    // Baseline values have neither; a policy's or a dynamic's go when it is deleted.
    t.string('policy_id', 36).references('id').inTable('policies').onDelete('CASCADE');
    t.string('dynamic_id', 36).references('id').inTable('dynamics').onDelete('CASCADE');
    t.text('value_json').notNullable();
    t.string('start_date', 10).notNullable();
    t.string('end_date', 10);
    t.integer('position').notNullable().defaultTo(0);
    t.string('created_at').notNullable();
    t.index(['parameter_id']);
    t.index(['policy_id']);
    t.index(['dynamic_id']);
  });
  await db.schema.createTable('datasets', (t) => {
    t.string('id', 36).primary();
    t.string('name').notNullable();
    t.text('description');
    t.text('filepath').notNullable();
    t.integer('year');
    t.string('tax_benefit_model_id', 36).notNullable().references('id').inTable('tax_benefit_models');
    t.string('tax_benefit_model_version_id', 36).references('id').inTable('tax_benefit_model_versions');
    t.string('layout');
    t.text('counts');
    t.text('warnings');
    t.double('weighted_households');
    t.bigInteger('size_bytes');
    // The synthetic dataset registered on first start, one per country (unique when set).
    t.string('default_for');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.unique(['default_for']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of ['datasets', 'parameter_values', 'dynamics', 'policies', 'variables', 'parameters', 'tax_benefit_model_versions', 'tax_benefit_models']) {
    await db.schema.dropTableIfExists(table);
  }
}
