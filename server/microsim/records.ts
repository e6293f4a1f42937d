/**
 * What the microsimulation API answers: one record type per resource, decoded from the stored
 * rows (JSON columns parsed, SQLite's 0/1 booleans made booleans). The JSON Schemas of these
 * records in `schemas.ts` are what `/specification` publishes.
 */
import type { DatasetRow, ModelRow, ParameterRow, ParameterSetRow, ParameterValueRow, ReportRow, SimulationRow, VariableRow, VersionRow } from '../storage/rows';

export type ModelRecord = ModelRow;
export type VersionRecord = VersionRow;
export type ParameterRecord = ParameterRow;

export interface ParameterValueRecord {
  id: string;
  parameter_id: string;
  parameter_name?: string;
  policy_id: string | null;
  dynamic_id: string | null;
  value_json: unknown;
  start_date: string;
  end_date: string | null;
  created_at: string;
}

export interface VariableRecord extends Omit<VariableRow, 'possible_values' | 'default_value' | 'is_input' | 'adds' | 'subtracts'> {
  possible_values: string[] | null;
  default_value: unknown;
  is_input: boolean;
  adds: string[] | string | null;
  subtracts: string[] | string | null;
}

export interface ParameterSetRecord extends ParameterSetRow {
  parameter_values: ParameterValueRecord[];
}

export interface DatasetRecord extends Omit<DatasetRow, 'counts' | 'warnings' | 'default_for' | 'size_bytes'> {
  tax_benefit_model_name: string | null;
  counts: Record<string, number> | null;
  warnings: unknown[];
  size_bytes: number | null;
  is_default: boolean;
}

export type SimulationRecord = Omit<SimulationRow, 'summary' | 'owner' | 'heartbeat_at' | 'attempts'> & { attempts: number };

export interface ReportRecord {
  report_id: string;
  status: string;
  error_message: string | null;
  baseline_simulation: SimulationRecord;
  reform_simulation: SimulationRecord;
  created_at: string;
  completed_at: string | null;
}

export function valueRecord(row: ParameterValueRow & { parameter_name?: string }): ParameterValueRecord {
  const record: ParameterValueRecord = {
    id: row.id,
    parameter_id: row.parameter_id,
    policy_id: row.policy_id,
    dynamic_id: row.dynamic_id,
    value_json: JSON.parse(row.value_json),
    start_date: row.start_date,
    end_date: row.end_date,
    created_at: row.created_at,
  };
  if (row.parameter_name !== undefined) record.parameter_name = row.parameter_name;
  return record;
}

export function variableRecord(row: VariableRow): VariableRecord {
  return {
    ...row,
    possible_values: parse(row.possible_values) as string[] | null,
    default_value: parse(row.default_value),
    is_input: Boolean(row.is_input),
    adds: parse(row.adds) as string[] | string | null,
    subtracts: parse(row.subtracts) as string[] | string | null,
  };
}

export function datasetRecord(row: DatasetRow, modelName: string | null): DatasetRecord {
  const { default_for, counts, warnings, size_bytes, ...rest } = row;
  return {
    ...rest,
    tax_benefit_model_name: modelName,
    counts: parse(counts) as Record<string, number> | null,
    warnings: (parse(warnings) as unknown[] | null) ?? [],
    size_bytes: size_bytes === null ? null : Number(size_bytes),
    is_default: default_for !== null,
  };
}

export function simulationRecord(row: SimulationRow): SimulationRecord {
  const { summary, owner, heartbeat_at, ...rest } = row;
  return { ...rest, progress: Number(row.progress) };
}

/**
 * A report's status as clients see it: stored `pending` shows `running` once either simulation
 * runs, and a failed simulation fails the report (with its reason) even before a worker wrote it.
 */
export function reportStatus(report: ReportRow, baseline: SimulationRow, reform: SimulationRow): { status: string; error_message: string | null } {
  if (report.status !== 'pending') return { status: report.status, error_message: report.error_message };
  const failed = [baseline, reform].find((s) => s.status === 'failed');
  if (failed) return { status: 'failed', error_message: `${failed === baseline ? 'baseline' : 'reform'} simulation ${failed.id} failed: ${failed.error_message ?? 'no reason recorded'}` };
  if (baseline.status !== 'pending' || reform.status !== 'pending') return { status: 'running', error_message: null };
  return { status: 'pending', error_message: null };
}

function parse(text: string | null): unknown {
  return text === null || text === undefined ? null : JSON.parse(text);
}
