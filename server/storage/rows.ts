/**
 * Rows as stored. JSON columns are text here; the repositories decode them into the records the
 * API serves (`server/microsim/records.ts`).
 */

export interface ModelRow {
  id: string;
  name: string;
  country: string;
  description: string | null;
  created_at: string;
}

export interface VersionRow {
  id: string;
  model_id: string;
  version: string;
  hash: string;
  /** `bundle` (a released bundle file) or `working tree` (the country folder as it was). */
  source: string;
  description: string | null;
  created_at: string;
}

export interface ParameterRow {
  id: string;
  tax_benefit_model_version_id: string;
  name: string;
  label: string | null;
  description: string | null;
  unit: string | null;
  data_type: string | null;
  period: string | null;
  created_at: string;
}

export interface ParameterValueRow {
  id: string;
  parameter_id: string;
  policy_id: string | null;
  dynamic_id: string | null;
  value_json: string;
  start_date: string;
  end_date: string | null;
  position: number;
  created_at: string;
}

export interface VariableRow {
  id: string;
  tax_benefit_model_version_id: string;
  name: string;
  entity: string;
  period: string;
  data_type: string;
  unit: string | null;
  label: string | null;
  description: string | null;
  possible_values: string | null;
  default_value: string | null;
  is_input: boolean | number;
  defined_for: string | null;
  adds: string | null;
  subtracts: string | null;
  created_at: string;
}

export interface ParameterSetRow {
  id: string;
  name: string;
  description: string | null;
  tax_benefit_model_version_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface DatasetRow {
  id: string;
  name: string;
  description: string | null;
  filepath: string;
  year: number | null;
  tax_benefit_model_id: string;
  tax_benefit_model_version_id: string | null;
  layout: string | null;
  counts: string | null;
  warnings: string | null;
  weighted_households: number | null;
  size_bytes: number | string | null;
  default_for: string | null;
  created_at: string;
  updated_at: string;
}

export type SimulationStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface SimulationRow {
  id: string;
  dataset_id: string;
  tax_benefit_model_version_id: string;
  policy_id: string | null;
  dynamic_id: string | null;
  region: string | null;
  year: number;
  status: SimulationStatus;
  progress: number;
  error_message: string | null;
  attempts: number;
  owner: string | null;
  heartbeat_at: string | null;
  summary: string | null;
  output_file: string | null;
  created_at: string;
  updated_at: string;
  started_at: string | null;
  completed_at: string | null;
}

export interface ReportRow {
  id: string;
  kind: string;
  baseline_simulation_id: string;
  reform_simulation_id: string;
  status: SimulationStatus;
  error_message: string | null;
  result: string | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface Page {
  limit: number;
  offset: number;
}
