/**
 * Canonical shapes of the service's resources, after src/api has normalised the wire quirks
 * (display-form types, upper-case destination types, `timer` as a string, `hostname`, `flag`,
 * the three shapes of group `monitors`). Everything past src/api sees only these.
 *
 * A field is `null` where the service may omit it or send null; consumers apply documented
 * defaults themselves (see DOCUMENTED_MONITOR_DEFAULTS) rather than guessing here.
 */

export type UseTls = 'on' | 'off' | 'auto';
export type Attachment = 'docx' | 'pdf';
export type MessageFormat = 'text/plain' | 'text/html';
export type DestinationType = 'email' | 'sms' | 'voice';

/** Canonical monitor types: lower case, words joined by '-' ("DNS Query" -> "dns-query"). */
export type MonitorType = 'smtp' | 'http' | 'ping' | 'dns-query' | 'tcp-port' | 'ssh-port' | (string & {});

export interface Monitor {
  id: string;
  label: string;
  type: MonitorType;
  description: string | null;
  /** From `ip_address`, or from `hostname` where the service sends the older field name. */
  ip_address: string | null;
  port: number | null;
  ipv6: boolean | null;
  use_tls: UseTls | null;
  use_client_cert: boolean | null;
  test_account: string | null;
  /** Empty string on the wire is normalised to null: both mean "no attachment". */
  attachment: Attachment | null;
  custom_subject: string | null;
  custom_body: string | null;
  message_format: MessageFormat | null;
  /** Always a number here, whatever the wire sent. */
  timer: number | null;
  ttl: number | null;
  timeout: number | null;
  time_zone: string | null;
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
  port: 25,
  use_tls: 'auto' as UseTls,
  ipv6: false,
  message_format: 'text/plain' as MessageFormat,
  attachment: null as Attachment | null,
  custom_subject: '',
  custom_body: '',
  ttl: 0,
  meta: {} as Record<string, string>,
};

export const ALLOWED_TIMERS = [3, 5, 10, 15, 20, 30] as const;
export const ALLOWED_TTLS = [0, 30, 60, 180, 300, 600, 1800] as const;
export const OWNER_META_KEY = 'managed-by';
export const DEFAULT_OWNER = 'monsync';
