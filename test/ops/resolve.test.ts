import { describe, expect, it } from 'vitest';
import { userError as failure } from '../helpers/user-error.js';
import { MONITOR_FIELD_DEFAULTS } from '../../src/model/fields.js';
import type { Alert, Monitor } from '../../src/model/live.js';
import { resolveAlertRef, resolveMonitor, suggestions } from '../../src/ops/resolve.js';

function monitor(id: string, label: string, type = 'smtp'): Monitor {
  return {
    ...MONITOR_FIELD_DEFAULTS, id, label, type, description: null, ip_address: 'mx', use_client_cert: false,
    test_account: 'probe@example.org', timer: 5, timeout: 30, time_zone: 'UTC', data_label: 'seconds', meta: {}, alerts: [], groups: [],
  };
}

function alert(id: string, monitorId: string, subject: string): Alert {
  return {
    id, type: 'up-down', monitor: monitorId, alert_destinations: [], subject_init: subject, subject_term: `${subject} (ok)`,
    message_init: '', message_term: '', down_only: false, repeat: false, timeout: 15, violations: null,
  };
}

const monitors = [
  monitor('1', 'mx-eu-1'),
  monitor('2', 'mx-eu-2'),
  monitor('3', 'mx-us-1'),
  monitor('4', 'twin'),
  monitor('5', 'twin', 'http'),
  monitor('6', 'site:eu'),
];
const alerts = [
  alert('a1', '1', 'mx-eu-1 is DOWN'),
  alert('a2', '1', 'mx-eu-1 is SLOW'),
  alert('a3', '3', 'mx-us-1: DOWN'),
  alert('a4', '6', 'eu down'),
  alert('a5', '2', 'same'),
  alert('a6', '2', 'same'),
];

describe('resolveMonitor', () => {
  it('finds a monitor by its exact label', () => {
    expect(resolveMonitor('mx-us-1', monitors).id).toBe('3');
  });

  it('an unknown label gets the closest labels as "did you mean"', () => {
    expect(failure(() => resolveMonitor('mx-eu1', monitors)).message).toBe('no monitor labelled "mx-eu1"; did you mean "mx-eu-1" or "mx-eu-2"?');
    // Case alone is not ignored: it is a suggestion, not a match.
    expect(failure(() => resolveMonitor('MX-US-1', monitors)).message).toBe('no monitor labelled "MX-US-1"; did you mean "mx-us-1"?');
  });

  it('with nothing close, the known labels are listed instead', () => {
    const err = failure(() => resolveMonitor('database', monitors));
    expect(err.message).toBe('no monitor labelled "database"');
    expect(err.details).toEqual(['Monitors of the account:', '  - "mx-eu-1"', '  - "mx-eu-2"', '  - "mx-us-1"', '  - "site:eu"', '  - "twin"']);
  });

  it('an ambiguous label is refused with every candidate (id and type), never guessed', () => {
    const err = failure(() => resolveMonitor('twin', monitors));
    expect(err.message).toMatch(/^2 monitors are labelled "twin"/);
    expect(err.details).toEqual(['  - id 4 (smtp, "mx")', '  - id 5 (http, "mx")']);
  });

  it('an empty account says so; control characters in labels are escaped in messages', () => {
    expect(failure(() => resolveMonitor('', monitors)).message).toMatch(/^give a monitor label/);
    expect(failure(() => resolveMonitor('x', [])).message).toBe('no monitor labelled "x": the account has no monitors');
    expect(failure(() => resolveMonitor('evil\u001b[2J', monitors)).message).toContain('"evil\\u001b[2J"');
  });

  it('suggestions: closest first, then labels containing the input', () => {
    expect(suggestions('eu', ['mx-eu-1', 'mx-eu-2', 'mx-us-1'])).toEqual(['mx-eu-1', 'mx-eu-2']);
    expect(suggestions('zzz', ['mx-eu-1'])).toEqual([]);
  });
});

describe('resolveAlertRef (MONITOR:SUBJECT)', () => {
  it('finds an alert by monitor label and trigger subject', () => {
    const r = resolveAlertRef('mx-eu-1:mx-eu-1 is SLOW', monitors, alerts);
    expect([r.monitor.id, r.alert.id]).toEqual(['1', 'a2']);
  });

  it('colons may appear in the subject and in the label', () => {
    expect(resolveAlertRef('mx-us-1:mx-us-1: DOWN', monitors, alerts).alert.id).toBe('a3');
    expect(resolveAlertRef('site:eu:eu down', monitors, alerts).alert.id).toBe('a4');
  });

  it('refuses a reference without a colon, with the expected form', () => {
    expect(failure(() => resolveAlertRef('mx-eu-1', monitors, alerts)).message).toMatch(/expected MONITOR:SUBJECT/);
  });

  it('an unknown monitor label is reported like --monitor', () => {
    expect(failure(() => resolveAlertRef('mx-eu-3:x', monitors, alerts)).message).toBe(
      'no monitor labelled "mx-eu-3"; did you mean "mx-eu-1" or "mx-eu-2"?',
    );
  });

  it('an unknown subject suggests and lists the subjects of that monitor', () => {
    const err = failure(() => resolveAlertRef('mx-eu-1:mx-eu-1 is DWON', monitors, alerts));
    expect(err.message).toBe('monitor "mx-eu-1" has no alert with subject "mx-eu-1 is DWON"; did you mean "mx-eu-1 is DOWN"?');
    expect(err.details).toEqual(['Alert subjects of "mx-eu-1":', '  - "mx-eu-1 is DOWN"', '  - "mx-eu-1 is SLOW"']);
  });

  it('a monitor without alerts, and two alerts with one subject, are refused', () => {
    expect(failure(() => resolveAlertRef('twin:x', [monitor('4', 'twin')], alerts)).message).toMatch(/"twin" has no alerts/);
    const err = failure(() => resolveAlertRef('mx-eu-2:same', monitors, alerts));
    expect(err.message).toMatch(/matches 2 alerts/);
    expect(err.details).toEqual(['  - alert id a5 of monitor "mx-eu-2" (id 2)', '  - alert id a6 of monitor "mx-eu-2" (id 2)']);
  });
});
