/**
 * Simulations and economic-impact reports. A simulation's id is a UUID v5 of its inputs and the
 * primary key, so two identical POSTs racing insert one row (the loser's insert is ignored).
 * `owner` and `heartbeat_at` say which process runs it and that it is alive.
 */
import type { Knex } from 'knex';

export const name = '002-simulations';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('simulations', (t) => {
    t.string('id', 36).primary();
    t.string('dataset_id', 36).notNullable().references('id').inTable('datasets');
    t.string('tax_benefit_model_version_id', 36).notNullable().references('id').inTable('tax_benefit_model_versions');
    t.string('policy_id', 36).references('id').inTable('policies');
    t.string('dynamic_id', 36).references('id').inTable('dynamics');
    t.string('region');
    t.integer('year').notNullable();
    t.string('status').notNullable();
    t.double('progress').notNullable().defaultTo(0);
    t.text('error_message');
    t.integer('attempts').notNullable().defaultTo(0);
    t.string('owner');
    t.string('heartbeat_at');
    t.text('summary');
    t.text('output_file');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.string('started_at');
    t.string('completed_at');
    t.index(['status']);
    t.index(['dataset_id']);
    t.index(['policy_id']);
    t.index(['dynamic_id']);
  });
  await db.schema.createTable('reports', (t) => {
    t.string('id', 36).primary();
    t.string('kind').notNullable();
    t.string('baseline_simulation_id', 36).notNullable().references('id').inTable('simulations');
    t.string('reform_simulation_id', 36).notNullable().references('id').inTable('simulations');
    t.string('status').notNullable();
    t.text('error_message');
    t.text('result');
    t.string('created_at').notNullable();
    t.string('updated_at').notNullable();
    t.string('completed_at');
    t.index(['baseline_simulation_id']);
    t.index(['reform_simulation_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('reports');
  await db.schema.dropTableIfExists('simulations');
}
