/**
 * The desired state, as src/config produces it from YAML: config `defaults:` already merged in,
 * references still by label (monitors, destinations) or name (groups). Documented API defaults are
 * NOT filled in here, so renderers can show what the user wrote; src/plan applies them when diffing.
 */
import type { Attachment, MessageFormat, UseTls } from './live.js';

/**
 * The SMTP monitor fields a configuration sets (API section 4.4 minus `type`, `label` and `meta`), in
 * the order plans show them, and whether every monitor must have one (the service requires it on
 * create: the loader demands it, a create always sends it). The one table the loader, the planner and
 * export derive their field lists from. The emulator keeps its own list, as an independent
 * implementation of the service; test/model/monitor-fields.test.ts holds the two together.
 */
export const MONITOR_SPEC_TABLE = [
  { field: 'ip_address', required: true },
  { field: 'test_account', required: true },
  { field: 'timer', required: true },
  { field: 'time_zone', required: true },
  { field: 'port', required: false },
  { field: 'ipv6', required: false },
  { field: 'use_tls', required: false },
  { field: 'attachment', required: false },
  { field: 'custom_subject', required: false },
  { field: 'custom_body', required: false },
  { field: 'message_format', required: false },
  { field: 'ttl', required: false },
] as const;

type SpecRow = (typeof MONITOR_SPEC_TABLE)[number];
export type MonitorSpecField = SpecRow['field'];
export type RequiredMonitorField = Extract<SpecRow, { required: true }>['field'];
export type OptionalMonitorField = Extract<SpecRow, { required: false }>['field'];

/** Every field of the table, in plan order. */
export const MONITOR_SPEC_FIELDS: readonly MonitorSpecField[] = MONITOR_SPEC_TABLE.map((r) => r.field);
/** The fields every monitor has: `ip_address`, `test_account`, `timer`, `time_zone`. */
export const REQUIRED_MONITOR_FIELDS = MONITOR_SPEC_TABLE.filter((r): r is Extract<SpecRow, { required: true }> => r.required).map((r) => r.field);
/** The fields a monitor may leave to the service's documented defaults. */
export const OPTIONAL_MONITOR_FIELDS = MONITOR_SPEC_TABLE.filter((r): r is Extract<SpecRow, { required: false }> => !r.required).map((r) => r.field);

/** Alert fields besides the two subjects: what `defaults.alert` may supply and export may factor out. */
export const ALERT_BODY_FIELDS = ['timeout', 'alert_destinations', 'message_init', 'message_term', 'down_only', 'repeat'] as const;

/** Where a value came from, for diagnostics and for plans that point back at the YAML. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

/** The SMTP create fields of API section 4.4 (type is always `smtp`), all optional but the required four. */
export interface MonitorSpec {
  ip_address: string;
  test_account: string;
  timer: number;
  time_zone: string;
  port?: number;
  ipv6?: boolean;
  use_tls?: UseTls;
  attachment?: Attachment | null;
  custom_subject?: string;
  custom_body?: string;
  message_format?: MessageFormat;
  ttl?: number;
  /** User meta only: the ownership marker is added by plan, never written by the user. */
  meta?: Record<string, string>;
}

export interface DesiredAlert {
  /** Label of the monitor the alert is on (managed here, or any live monitor for top-level `alerts`). */
  monitor: string;
  subject_init: string;
  subject_term: string;
  /**
   * Minutes (SMTP alerts require it; config defaults usually supply it). Null only on a top-level
   * alert that gives none: the service accepts alerts of other monitor types without one.
   */
  timeout: number | null;
  /** Destination labels. */
  alert_destinations: string[];
  message_init?: string;
  message_term?: string;
  down_only?: boolean;
  repeat?: boolean;
  /** Earlier subjects of this alert: lets a subject change plan as an update, never a delete + create. */
  previous_subjects?: string[];
  /** Names of checks (src/checks) silenced for this alert; absent when none. */
  disable_checks?: string[];
  source: SourceRef;
}

export interface DesiredMonitor {
  label: string;
  previous_labels: string[];
  spec: MonitorSpec;
  alerts: DesiredAlert[];
  /** Names of checks silenced for this monitor and the alerts under it; absent when none. */
  disable_checks?: string[];
  source: SourceRef;
}

export interface DesiredGroup {
  name: string;
  previous_names: string[];
  /**
   * Monitor labels, managed here or not: the group's whole membership (but for ignored monitors).
   * Null when the configuration leaves `monitors` out: the membership is not managed then.
   */
  monitors: string[] | null;
  /** Names of checks silenced for this group; absent when none. */
  disable_checks?: string[];
  source: SourceRef;
}

/**
 * A maintenance window (`maintenance:`): while it is open, `monsync maintain` pauses the alerts of
 * the monitors it covers until its end. Coverage is resolved against the account when it runs.
 */
export interface DesiredMaintenance {
  name: string;
  /** Monitor labels or globs, as written. */
  monitors: string[];
  /** Group names, as written. */
  groups: string[];
  time_zone: string;
  /** One-off: local times `YYYY-MM-DDTHH:MM[:SS]` in time_zone. */
  start?: string;
  end?: string;
  /** Recurring: five-field cron in time_zone (the weekly form is turned into one). */
  cron?: string;
  /** Recurring: elapsed seconds each occurrence lasts. */
  duration_seconds?: number;
  source: SourceRef;
}

export interface Settings {
  /** Value of the `managed-by` meta marker on monitors monsync owns. */
  owner: string;
  /** Label and group-name globs monsync never reads into a plan. */
  ignore: string[];
  prune: boolean;
  /** `settings.checks`: severities by check name, over the catalogue's defaults; absent when not set. */
  checks?: Record<string, CheckLevel>;
}

/** What a check reports as (src/checks): `off` runs it not at all. */
export type CheckLevel = 'error' | 'warning' | 'off';

export interface DesiredState {
  settings: Settings;
  monitors: DesiredMonitor[];
  /** Alerts on monitors this config does not manage (top-level `alerts:`). */
  alerts: DesiredAlert[];
  groups: DesiredGroup[];
  /** Maintenance windows; absent when the configuration declares none. */
  maintenance?: DesiredMaintenance[];
  /** The files the state was read from, for plan headers. */
  files: string[];
  /**
   * Where values inside the items were written, for problems the plan finds (the items' own
   * `source` says only where each item starts). Set by the loader, not enumerable (states compare
   * and copy as plain data without it); absent for a state built otherwise.
   */
  readonly positions?: StatePositions;
}

/** A value's place, and whether it was written under `defaults` rather than in the item. */
export interface ValueRef extends SourceRef {
  fromDefaults: boolean;
}

/** Found on demand (a configuration of thousands of items rarely has a problem to point at). */
export interface StatePositions {
  /** `monitors[index]` of a declared group. */
  groupMember(g: DesiredGroup, index: number): ValueRef | undefined;
  /** `alert_destinations[index]` of an alert: its own list, or the `defaults.alert` list it took. */
  alertDestination(a: DesiredAlert, index: number): ValueRef | undefined;
  /** `monitor` of a top-level alert. */
  alertMonitor(a: DesiredAlert): ValueRef | undefined;
}
