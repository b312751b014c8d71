/**
 * The shape of one configuration file after schema validation (schemas/monsync.schema.json):
 * what the later stages may rely on. Defaults are not merged yet.
 */
import type { CheckLevel } from '../model/desired.js';
import type { AlertBodyValues, MonitorSpecValues, RawServiceLevel } from '../model/fields.js';

/** What a monitor (or `defaults.monitor`) may give: any field of MONITOR_FIELD_TABLE, `type` and `meta`. */
export interface RawMonitorFields extends Partial<MonitorSpecValues> {
  type?: 'smtp';
  meta?: Record<string, string>;
  /** Repository-only (model/fields.ts SLO_FIELD): never part of the spec the service gets. */
  slo?: RawServiceLevel | null;
}

/** What an alert (or `defaults.alert`) may give besides its subjects: the body rows of ALERT_FIELD_TABLE and `type`. */
export interface RawAlertFields extends AlertBodyValues {
  type?: 'up-down';
}

export interface RawAlert extends RawAlertFields {
  subject_init: string;
  subject_term: string;
  previous_subjects?: string[];
  /** Top-level alerts only. */
  monitor?: string;
  disable_checks?: string[];
}

export interface RawMonitor extends RawMonitorFields {
  label: string;
  previous_labels?: string[];
  /** templates.monitors name (resolve.ts). */
  template?: string;
  /** templates.alert_sets name (resolve.ts). */
  alert_set?: string;
  disable_checks?: string[];
  alerts?: RawAlert[];
}

export interface RawGroup {
  name: string;
  previous_names?: string[];
  monitors?: string[];
  slo?: RawServiceLevel | null;
  disable_checks?: string[];
}

export interface RawMaintenance {
  name: string;
  monitors?: string[];
  groups?: string[];
  cron?: string;
  weekly?: { days: string[]; at: string };
  duration?: string;
  start?: string;
  end?: string;
  /** Required: checkMaintenance reports a window without one (the schema leaves it to fmt's order). */
  time_zone?: string;
}

export interface RawSettings {
  owner?: string;
  ignore?: string[];
  prune?: boolean;
  /** Severities by check name (the schema lists the names). */
  checks?: Record<string, CheckLevel>;
  /** Secret-looking variable names `${VAR}` may read (interpolate.ts, secretLooking). */
  allowed_secret_variables?: string[];
}

export interface RawDefaults {
  monitor?: RawMonitorFields;
  alert?: RawAlertFields;
}

export interface RawTemplates {
  monitors?: Record<string, RawMonitorFields>;
  alert_sets?: Record<string, RawAlert[]>;
}

export interface RawFile {
  version: 1;
  settings?: RawSettings;
  defaults?: RawDefaults;
  templates?: RawTemplates;
  monitors?: RawMonitor[];
  alerts?: RawAlert[];
  groups?: RawGroup[];
  maintenance?: RawMaintenance[];
}
