/** Builders of canonical live state for export tests. */
import { MONITOR_FIELD_DEFAULTS } from '../../src/model/fields.js';
import type { Alert, Destination, Group, LiveState, Monitor } from '../../src/model/live.js';

export function monitor(p: Partial<Monitor> & { id: string; label: string }): Monitor {
  return {
    // The optional SMTP fields at their documented defaults: a new row of the table needs no change here.
    ...MONITOR_FIELD_DEFAULTS,
    type: 'smtp',
    description: null,
    ip_address: 'mx.example.com',
    use_client_cert: false,
    test_account: 'probe@example.com',
    timer: 5,
    timeout: 30,
    time_zone: 'Europe/London',
    data_label: 'seconds',
    meta: {},
    alerts: [],
    groups: [],
    ...p,
  };
}

export function alert(p: Partial<Alert> & { id: string; monitor: string; subject_init: string }): Alert {
  return {
    type: 'up-down',
    alert_destinations: [],
    subject_term: `${p.subject_init} (resolved)`,
    message_init: '',
    message_term: '',
    down_only: false,
    repeat: false,
    timeout: 15,
    violations: null,
    ...p,
  };
}

export function destination(id: string, label: string, type = 'email'): Destination {
  return { id, label, destination: `${label}@example.com`, type, subscribed: true };
}

export function group(id: string, name: string, members: Array<[string, string | null]>): Group {
  return { id, name, members: members.map(([mid, label]) => ({ id: mid, label })) };
}

export function live(p: Partial<LiveState>): LiveState {
  return { monitors: [], alerts: [], groups: [], destinations: [], ...p };
}
