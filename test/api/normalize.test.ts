import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/api/errors.js';
import {
  normalizeEach,
  canonicalAlertType,
  canonicalMonitorType,
  normalizeAlert,
  normalizeDataItem,
  normalizeDestination,
  normalizeFilteredStatusEntry,
  normalizeGroup,
  normalizeGroupSummary,
  normalizeIdList,
  normalizeMonitor,
  normalizeMonitorData,
  normalizePausedAlert,
  normalizeResponseAnalysis,
  normalizeStatusSummary,
  normalizeTestData,
  normalizeToken,
} from '../../src/api/normalize.js';

function malformed(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('malformed');
    return err as ApiError;
  }
  throw new Error('expected a malformed ApiError');
}

// The SMTP monitor sample of the API document, as the service sends it.
const SMTP_SAMPLE = {
  id: 'm-100',
  label: 'mx.example.com round trip',
  type: 'smtp',
  description: null,
  ip_address: 'mx:failover',
  port: 25,
  ipv6: false,
  use_tls: 'auto',
  use_client_cert: false,
  test_account: 'probe@example.com',
  attachment: '',
  custom_subject: '',
  custom_body: '',
  message_format: 'text/plain',
  timer: '5',
  ttl: 0,
  timeout: 30,
  time_zone: 'Europe/Berlin',
  data_label: 'seconds',
  meta: { env: 'prod', 'managed-by': 'monsync' },
  alerts: ['a-1', 'a-2'],
  groups: ['g-1'],
};

describe('normalizeMonitor', () => {
  it('canonicalises the SMTP sample: timer string, empty attachment', () => {
    expect(normalizeMonitor(SMTP_SAMPLE)).toEqual({
      ...SMTP_SAMPLE,
      timer: 5,
      attachment: null,
    });
  });

  it('reads the older Ping sample: hostname, display type, numeric strings, missing fields', () => {
    const m = normalizeMonitor({ id: 'p-1', label: 'gw ping', type: 'Ping', hostname: '192.0.2.1', timer: '10', timeout: '5' });
    expect(m.ip_address).toBe('192.0.2.1');
    expect(m.type).toBe('ping');
    expect(m.timer).toBe(10);
    expect(m.timeout).toBe(5);
    expect(m.port).toBeNull();
    expect(m.meta).toEqual({});
    expect(m.alerts).toEqual([]);
    // Missing groups: membership unknown, not "no groups".
    expect(m.groups).toBeNull();
    expect(m.attachment).toBeNull();
  });

  it('prefers ip_address over hostname and keeps an explicit empty group list', () => {
    const m = normalizeMonitor({ id: 'x', type: 'smtp', ip_address: 'a.example', hostname: 'b.example', groups: [] });
    expect(m.ip_address).toBe('a.example');
    expect(m.groups).toEqual([]);
  });

  it('coerces port and ttl given as strings, and numeric ids', () => {
    const m = normalizeMonitor({ id: 42, type: 'SMTP', port: '2525', ttl: '300', alerts: [7] });
    expect(m).toMatchObject({ id: '42', type: 'smtp', port: 2525, ttl: 300, alerts: ['7'] });
  });

  it.each([
    ['SMTP', 'smtp'],
    ['HTTP', 'http'],
    ['Ping', 'ping'],
    ['DNS Query', 'dns-query'],
    ['TCP Port', 'tcp-port'],
    ['SSH Port', 'ssh-port'],
    ['smtp', 'smtp'],
    ['dns-query', 'dns-query'],
  ])('monitor type %s -> %s', (wire, canonical) => {
    expect(canonicalMonitorType(wire)).toBe(canonical);
    expect(normalizeMonitor({ id: '1', type: wire }).type).toBe(canonical);
  });

  it('lower-cases enum values and accepts an empty meta array', () => {
    const m = normalizeMonitor({ id: '1', type: 'smtp', use_tls: 'ON', attachment: 'PDF', meta: [] });
    expect(m.use_tls).toBe('on');
    expect(m.attachment).toBe('pdf');
    expect(m.meta).toEqual({});
  });

  it('refuses a missing id, naming the location and the request', () => {
    const err = malformed(() => normalizeMonitor({ label: 'x' }, 'monitor_list[3]', { method: 'GET', path: '/v1/Config/Monitor/' }));
    expect(err.message).toContain('monitor_list[3].id');
    expect(err.message).toContain('GET /v1/Config/Monitor/');
    expect(err.path).toBe('/v1/Config/Monitor/');
  });

  it('names the exact item of a list that fails', () => {
    const origin = { method: 'GET', path: '/v1/Config/Monitor/' };
    const items = [{ id: '1', type: 'SMTP' }, { id: '2', type: 'SMTP', alerts: ['a', 7] }, { id: '3', port: 'x' }];
    expect(normalizeEach(items.slice(0, 2), 'monitor_list', normalizeMonitor, origin).map((m) => [m.id, m.type, m.alerts])).toEqual([
      ['1', 'smtp', []],
      ['2', 'smtp', ['a', '7']],
    ]);
    const err = malformed(() => normalizeEach(items, 'monitor_list', normalizeMonitor, origin));
    expect(err.message).toContain('monitor_list[2].port');
    expect(err.message).toContain('GET /v1/Config/Monitor/');
    expect(malformed(() => normalizeEach([{ id: '1' }, { id: '2', alerts: [{}] }], 'monitor_list', normalizeMonitor)).message).toContain(
      'monitor_list[1].alerts[0]',
    );
  });

  it('refuses non-object items and unreadable field types', () => {
    expect(malformed(() => normalizeMonitor('m-1', 'monitor_list[0]')).message).toContain('monitor_list[0]');
    expect(malformed(() => normalizeMonitor(null)).message).toContain('monitor');
    expect(malformed(() => normalizeMonitor({ id: '1', timer: 'often' })).message).toContain('monitor.timer');
    expect(malformed(() => normalizeMonitor({ id: '1', use_tls: 'maybe' })).message).toContain('monitor.use_tls');
    expect(malformed(() => normalizeMonitor({ id: '1', label: { x: 1 } })).message).toContain('monitor.label');
    expect(malformed(() => normalizeMonitor({ id: '1', alerts: 'a-1' })).message).toContain('monitor.alerts');
    expect(malformed(() => normalizeMonitor({ id: '1', meta: { k: { nested: true } } })).message).toContain('monitor.meta.k');
  });
});

describe('normalizeAlert', () => {
  it('maps the list display form and fills missing message bodies', () => {
    const a = normalizeAlert({
      id: 'a-1',
      type: 'Up/Down Alert',
      monitor: 'm-100',
      alert_destinations: ['d-1'],
      subject_init: 'down',
      subject_term: 'up',
      down_only: false,
      repeat: true,
      timeout: '15',
      violations: '2',
    });
    expect(a).toEqual({
      id: 'a-1',
      type: 'up-down',
      monitor: 'm-100',
      alert_destinations: ['d-1'],
      subject_init: 'down',
      subject_term: 'up',
      message_init: '',
      message_term: '',
      down_only: false,
      repeat: true,
      timeout: 15,
      violations: '2',
    });
  });

  it('keeps up-down, violations null, null bodies as empty strings', () => {
    const a = normalizeAlert({ id: 'a', type: 'up-down', monitor: 'm', message_init: null, violations: null });
    expect(a.type).toBe('up-down');
    expect(a.message_init).toBe('');
    expect(a.violations).toBeNull();
    expect(a.alert_destinations).toEqual([]);
    expect(a.down_only).toBe(false);
    expect(canonicalAlertType('Up/Down Alert')).toBe('up-down');
  });

  it('keeps violations as a string even when sent as a number', () => {
    expect(normalizeAlert({ id: 'a', violations: 3 }).violations).toBe('3');
  });

  it('refuses an alert without id', () => {
    expect(malformed(() => normalizeAlert({ type: 'up-down' }, 'alert_list[1]')).message).toContain('alert_list[1].id');
  });
});

describe('normalizeDestination', () => {
  it('lower-cases EMAIL', () => {
    expect(
      normalizeDestination({ id: 'd-1', label: 'Ops', destination: 'ops@example.com', type: 'EMAIL', subscribed: true }),
    ).toEqual({ id: 'd-1', label: 'Ops', destination: 'ops@example.com', type: 'email', subscribed: true });
  });

  it('reads subscribed given as 0/1 and treats absence as not opted out', () => {
    expect(normalizeDestination({ id: 'd', type: 'sms', subscribed: 0 }).subscribed).toBe(false);
    expect(normalizeDestination({ id: 'd', type: 'voice' }).subscribed).toBe(true);
  });
});

describe('normalizeGroup', () => {
  it('reads monitors as {id,label} objects (single read)', () => {
    expect(normalizeGroup({ id: 'g', name: 'prod', monitors: [{ id: 'm1', label: 'one' }] })).toEqual({
      id: 'g',
      name: 'prod',
      members: [{ id: 'm1', label: 'one' }],
    });
  });

  it('reads monitors as ids (create response) with unknown labels', () => {
    expect(normalizeGroup({ id: 'g', name: 'prod', monitors: ['m1', 2] }).members).toEqual([
      { id: 'm1', label: null },
      { id: '2', label: null },
    ]);
  });

  it('reads monitors null or missing as no members', () => {
    expect(normalizeGroup({ id: 'g', name: 'x', monitors: null }).members).toEqual([]);
    expect(normalizeGroup({ id: 'g', name: 'x' }).members).toEqual([]);
  });

  it('refuses members without id and non-array monitors', () => {
    expect(malformed(() => normalizeGroup({ id: 'g', monitors: [{ label: 'x' }] })).message).toContain('group.monitors[0].id');
    expect(malformed(() => normalizeGroup({ id: 'g', monitors: 'm1' })).message).toContain('group.monitors');
    expect(malformed(() => normalizeGroup({ id: 'g', monitors: [true] })).message).toContain('group.monitors[0]');
  });

  it('reads list entries', () => {
    expect(normalizeGroupSummary({ id: 'g', name: 'n' })).toEqual({ id: 'g', name: 'n' });
    expect(malformed(() => normalizeGroupSummary({ name: 'n' }, 'groups[0]')).message).toContain('groups[0].id');
  });
});

describe('status', () => {
  it('reads v1 status with display types', () => {
    const s = normalizeStatusSummary(
      {
        path: '/v1/Status/',
        error: null,
        global_alert_active: true,
        monitor_list: [
          { id: '1', label: 'dns', type: 'DNS Query', alert_active: true },
          { id: '2', label: 'tcp', type: 'TCP Port', alert_active: false },
        ],
      },
      'monitor_list',
    );
    expect(s).toEqual({
      global_alert_active: true,
      monitors: [
        { id: '1', label: 'dns', type: 'dns-query', alert_active: true },
        { id: '2', label: 'tcp', type: 'tcp-port', alert_active: false },
      ],
    });
  });

  it('refuses a missing list', () => {
    expect(malformed(() => normalizeStatusSummary({ global_alert_active: false }, 'monitors')).message).toContain('monitors');
  });

  it('reads a filtered entry with flag instead of complete and empty last_alert', () => {
    const e = normalizeFilteredStatusEntry({
      monitor: 'm-1',
      label: 'x',
      alert_active: false,
      alert_count: '0',
      fail_count: 1,
      test_count: 12,
      last_alert: {},
      last_failed: {
        duration: null,
        error: 'timeout',
        flag: false,
        time_init: '2024-01-01T10:00:00',
        time_term: null,
        utc_mktime: 1704103200,
        utc_time_init: '2024-01-01T09:00:00',
        utc_time_term: null,
      },
      last_test: { duration: '3', error: null, flag: 1, utc_mktime: '1704103500' },
    });
    expect(e.alert_count).toBe(0);
    expect(e.last_alert).toBeNull();
    expect(e.last_failed?.complete).toBe(false);
    expect(e.last_failed?.error).toBe('timeout');
    expect(e.last_test).toMatchObject({ duration: 3, complete: true, utc_mktime: 1704103500, time_term: null });
    expect(normalizeTestData(null)).toBeNull();
    expect(normalizeTestData({ complete: true }, 'x')?.complete).toBe(true);
  });
});

describe('data, hops, pauses, tokens', () => {
  it('reads monitor data items', () => {
    const d = normalizeMonitorData({
      path: '/v1/Data/Monitor/m/',
      error: null,
      begin: 1,
      end: '2',
      monitor: 'm',
      monitor_label: 'lbl',
      data: [{ value: 2000.0, failed: false, error: null, samples: null, time: 't', utc_time: 'u', utc_mktime: 5 }],
    });
    expect(d).toEqual({
      begin: 1,
      end: 2,
      monitor: 'm',
      monitor_label: 'lbl',
      data: [{ value: 2000, failed: false, error: null, samples: null, alert_matches: [], time: 't', utc_time: 'u', utc_mktime: 5 }],
    });
    expect(malformed(() => normalizeDataItem({ value: 1, utc_time: 'u', utc_mktime: 1 }, 'data[0]')).message).toContain(
      'data[0].time',
    );
  });

  it('keeps a data item that is already canonical as parsed, and copies any other into the canonical shape', () => {
    const canonical = { value: 1500, failed: false, error: null, samples: null, alert_matches: [], time: 't', utc_time: 'u', utc_mktime: 5 };
    expect(normalizeDataItem(canonical)).toBe(canonical);
    const extra = { ...canonical, extra: 'x' };
    expect(normalizeDataItem(extra)).toEqual(canonical);
    expect(Object.keys(normalizeDataItem({ failed: false, value: 1500, error: null, samples: null, alert_matches: [], time: 't', utc_time: 'u', utc_mktime: 5 }))).toEqual(Object.keys(canonical));
    // A start sent as text is not a JSON number: NaN, which the data rules leave out and count (issue 45).
    const quirky = { ...canonical, utc_mktime: '5', alert_matches: [7] };
    expect(normalizeDataItem(quirky)).toEqual({ ...canonical, utc_mktime: Number.NaN, alert_matches: ['7'] });
  });

  it('reads hop analysis as arrays of arrays', () => {
    const r = normalizeResponseAnalysis({
      begin: 1,
      end: 2,
      analysis: [[{ source: 'a', destination: 'b', time: 10, duration: '2' }], []],
    });
    expect(r.analysis).toEqual([[{ source: 'a', destination: 'b', time: 10, duration: 2 }], []]);
    expect(malformed(() => normalizeResponseAnalysis({ begin: 1, end: 2, analysis: [{}] })).message).toContain('analysis[0]');
  });

  it('reads paused entries and id lists', () => {
    expect(normalizePausedAlert({ id: 'a', monitor: 'm', seconds: '60' })).toEqual({ id: 'a', monitor: 'm', seconds: 60 });
    expect(normalizeIdList(['a', 2, { id: 'c' }])).toEqual(['a', '2', 'c']);
    expect(normalizeIdList(null)).toEqual([]);
  });

  it('reads a token and never echoes it when malformed', () => {
    expect(normalizeToken({ access_token: 'abc.def.ghi', token_type: 'Bearer', expires_in: '3600' })).toEqual({
      access_token: 'abc.def.ghi',
      token_type: 'Bearer',
      expires_in: 3600,
    });
    const err = malformed(() => normalizeToken({ access_token: 'sekrit-token-value', expires_in: 'soon' }));
    expect(err.message).toContain('expires_in');
    expect(err.message).not.toContain('sekrit-token-value');
    expect(malformed(() => normalizeToken({ access_token: 12 })).message).toContain('access_token');
  });
});
