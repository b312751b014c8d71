/**
 * Canonical shapes of the service's resources, after src/api has normalised the wire quirks
 * (display-form types, upper-case destination types, `timer` as a string, `hostname`, `flag`,
 * the three shapes of group `monitors`). Everything past src/api sees only these.
 *
 * A field is `null` where the service may omit it or send null; consumers apply documented
 * defaults themselves (see DOCUMENTED_MONITOR_DEFAULTS) rather than guessing here.
 */

import { ALLOWED_TIMERS, ALLOWED_TTLS, MONITOR_FIELD_DEFAULTS, type MonitorFieldValue, type MonitorSpecField } from './fields.js';

export { ALLOWED_TIMERS, ALLOWED_TTLS };

export type UseTls = MonitorFieldValue<'use_tls'>;
export type Attachment = Exclude<MonitorFieldValue<'attachment'>, null>;
export type MessageFormat = MonitorFieldValue<'message_format'>;
export type DestinationType = 'email' | 'sms' | 'voice';

/** Canonical monitor types: lower case, words joined by '-' ("DNS Query" -> "dns-query"). */
export type MonitorType = 'smtp' | 'http' | 'ping' | 'dns-query' | 'tcp-port' | 'ssh-port' | (string & {});

/**
 * The SMTP fields of a monitor (one per row of MONITOR_FIELD_TABLE), null where the service left
 * them out or sent null. `ip_address` comes from `hostname` where the service sends the older field
 * name; an empty `attachment` on the wire is null here (both mean "no attachment"); `timer` is
 * always a number here, whatever the wire sent.
 */
export type LiveMonitorFields = { [F in MonitorSpecField]: MonitorFieldValue<F> | null };

export interface Monitor extends LiveMonitorFields {
  id: string;
  label: string;
  type: MonitorType;
  description: string | null;
  use_client_cert: boolean | null;
  timeout: number | null;
  data_label: string | null;
  meta: Record<string, string>;
  alerts: string[];
  /** Null when the service did not send the field (other monitor types): membership is then unknown. */
  groups: string[] | null;
}

export interface Alert {
  id: string;
  /** Canonical `up-down`; the list endpoint's display form `Up/Down Alert` is normalised. */
  type: string;
  monitor: string;
  alert_destinations: string[];
  subject_init: string;
  subject_term: string;
  /** Null or missing on the wire is normalised to '' (the service treats them alike). */
  message_init: string;
  message_term: string;
  down_only: boolean;
  repeat: boolean;
  timeout: number | null;
  violations: string | null;
}

export interface Destination {
  id: string;
  label: string;
  destination: string;
  /** Lower case; `EMAIL` on the wire becomes `email`. */
  type: DestinationType | (string & {});
  subscribed: boolean;
}

export interface GroupSummary {
  id: string;
  name: string;
}

export interface GroupMember {
  id: string;
  /** Null where the response gave only ids (the create response). */
  label: string | null;
}

export interface Group {
  id: string;
  name: string;
  members: GroupMember[];
}

/** Everything plan needs from the account, read in one consistent pass. */
export interface LiveState {
  monitors: Monitor[];
  alerts: Alert[];
  /** Membership is known for every group listed here. */
  groups: Group[];
  destinations: Destination[];
}

/** Documented defaults of the create body (API section 4.4): an omitted field means this value. */
export const DOCUMENTED_MONITOR_DEFAULTS = {
  ...MONITOR_FIELD_DEFAULTS,
  meta: {} as Record<string, string>,
};

export const OWNER_META_KEY = 'managed-by';
export const DEFAULT_OWNER = 'monsync';
