/**
 * The desired state, as src/config produces it from YAML: config `defaults:` already merged in,
 * references still by label (monitors, destinations) or name (groups). Documented API defaults are
 * NOT filled in here, so renderers can show what the user wrote; src/plan applies them when diffing.
 */
import type { MonitorSpecValues, ServiceLevel } from './fields.js';

export type { ServiceLevel } from './fields.js';

export {
  ALERT_BODY_FIELDS,
  MONITOR_SPEC_FIELDS,
  OPTIONAL_MONITOR_FIELDS,
  REQUIRED_MONITOR_FIELDS,
  type MonitorSpecField,
  type OptionalMonitorField,
  type RequiredMonitorField,
} from './fields.js';

/** Where a value came from, for diagnostics and for plans that point back at the YAML. */
export interface SourceRef {
  file: string;
  line: number;
  column: number;
}

/**
 * The SMTP create fields of API section 4.4 (type is always `smtp`): the required four, the others
 * optional; one per row of MONITOR_FIELD_TABLE (model/fields.ts).
 */
export interface MonitorSpec extends MonitorSpecValues {
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
  /** Its service-level objective (`slo`, inherited like a field), repository-only; absent when none. */
  slo?: ServiceLevel;
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
  /** Its service-level objective over all its members' tests, repository-only; absent when none. */
  slo?: ServiceLevel;
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
