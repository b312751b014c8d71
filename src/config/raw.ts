/**
 * The shape of one configuration file after schema validation (schemas/monsync.schema.json):
 * what the later stages may rely on. Defaults are not merged yet.
 */
import { MONITOR_SPEC_FIELDS, type CheckLevel } from '../model/desired.js';
import type { Attachment, MessageFormat, UseTls } from '../model/live.js';

export interface RawMonitorFields {
  type?: 'smtp';
  timer?: number;
  time_zone?: string;
  ip_address?: string;
  test_account?: string;
  use_tls?: UseTls;
  attachment?: Attachment | null;
  custom_subject?: string;
  custom_body?: string;
  ttl?: number;
  ipv6?: boolean;
  message_format?: MessageFormat;
  port?: number;
  meta?: Record<string, string>;
}

export interface RawAlertFields {
  type?: 'up-down';
  timeout?: number;
  alert_destinations?: string[];
  message_init?: string;
  message_term?: string;
  down_only?: boolean;
  repeat?: boolean;
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
  disable_checks?: string[];
  alerts?: RawAlert[];
}

export interface RawGroup {
  name: string;
  previous_names?: string[];
  monitors?: string[];
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
}

export interface RawDefaults {
  monitor?: RawMonitorFields;
  alert?: RawAlertFields;
}

export interface RawFile {
  version: 1;
  settings?: RawSettings;
  defaults?: RawDefaults;
  monitors?: RawMonitor[];
  alerts?: RawAlert[];
  groups?: RawGroup[];
  maintenance?: RawMaintenance[];
}

/** Monitor fields copied into MonitorSpec (`type` is always smtp and is not part of the spec). */
export const SPEC_FIELDS = MONITOR_SPEC_FIELDS;
