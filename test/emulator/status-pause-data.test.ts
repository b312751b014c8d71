import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset('default'));

const call = (method: string, path: string, body?: unknown) => apiCall(emu, method, path, body === undefined ? {} : { body });

async function monitorWithAlerts(label: string, n: number, meta: Record<string, string> = {}): Promise<{ id: string; alerts: string[] }> {
  const m = (
    await call('POST', '/v1/Config/Monitor/', {
      type: 'smtp',
      label,
      timer: 5,
      time_zone: 'UTC',
      ip_address: 'mx',
      test_account: 'p@example.com',
      meta,
    })
  ).json.monitor;
  const alerts: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = await call('POST', '/v1/Config/Alert/', { type: 'up-down', monitor: m.id, subject_init: 'd', subject_term: 'u', timeout: 5 });
    alerts.push(a.json.alert.id);
  }
  return { id: m.id, alerts };
}

describe('status (4.2)', () => {
  it('reports display types and alert activity set through the control API', async () => {
    const r = await call('GET', '/v1/Status/');
    expect(r.json).toMatchObject({ path: '/v1/Status/', error: null, global_alert_active: false });
    expect(r.json.monitor_list).toEqual([
      { id: '10001', label: 'www-http', type: 'HTTP', alert_active: false },
      { id: '10002', label: 'gw-ping', type: 'Ping', alert_active: false },
      { id: '10003', label: 'dns-mx', type: 'DNS Query', alert_active: false },
      { id: '10004', label: 'legacy-mx', type: 'SMTP', alert_active: false },
    ]);
    await emu.control.setAlertActive('10002', true);
    const after = await call('GET', '/v1/Status');
    expect(after.json.global_alert_active).toBe(true);
    expect(after.json.monitor_list[1].alert_active).toBe(true);
  });

  it('filters by label and meta, echoing t', async () => {
    await monitorWithAlerts('mx-eu-1', 0, { region: 'eu', tier: 'gold' });
    await monitorWithAlerts('mx-us-1', 0, { region: 'us', tier: 'gold' });
    const labels = async (q: string): Promise<string[]> => {
      const r = await call('GET', `/v1/Status/Filter/?${q}`);
      expect(r.status).toBe(200);
      return r.json.monitor_list.map((e: any) => e.label);
    };
    expect(await labels('prefix=mx-')).toEqual(['mx-eu-1', 'mx-us-1']);
    expect(await labels('suffix=-mx')).toEqual(['dns-mx', 'legacy-mx']);
    expect(await labels('contains=eu')).toEqual(['mx-eu-1']);
    expect(await labels('prefix=mx&contains=us')).toEqual(['mx-us-1']);
    expect(await labels('meta=tier:gold')).toEqual(['mx-eu-1', 'mx-us-1']);
    expect(await labels('meta=tier:gold,region:us')).toEqual(['mx-us-1']);

    const r = await call('GET', '/v1/Status/Filter/?prefix=mx-eu');
    expect(r.json.t).toBe(1800);
    expect(r.json.monitor_list).toEqual([
      {
        monitor: '10005',
        label: 'mx-eu-1',
        alert_active: false,
        alert_count: 0,
        fail_count: 0,
        test_count: 0,
        last_alert: null,
        last_failed: null,
        last_test: null,
      },
    ]);
    expect((await call('GET', '/v1/Status/Filter/?prefix=mx&t=600')).json.t).toBe(600);
  });

  it('rejects a filter without criteria, a bad t and a bad meta', async () => {
    const none = await call('GET', '/v1/Status/Filter/?t=60');
    expect(none.status).toBe(400);
    expect(none.json.error).toContain('at least one of');
    expect((await call('GET', '/v1/Status/Filter/?prefix=a&t=abc')).json.error).toContain('t: must be an integer');
    expect((await call('GET', '/v1/Status/Filter/?meta=novalue')).json.error).toContain('meta: expected key:value');
  });
});

describe('version 2 status', () => {
  it('shows only monitors with an active alert unless all=true, types in lower case', async () => {
    const token = await emu.token();
    const v2 = (q = '') => apiCall(emu, 'GET', `/v2/status${q}`, { auth: `Bearer ${token}` });
    expect((await v2()).json).toEqual({ global_alert_active: false, monitors: [] });
    const all = await v2('?all=true');
    expect(all.json.monitors.map((m: any) => m.type)).toEqual(['http', 'ping', 'dns query', 'smtp']);
    await emu.control.setAlertActive('10004', true);
    expect((await v2()).json).toEqual({
      global_alert_active: true,
      monitors: [{ id: '10004', label: 'legacy-mx', type: 'smtp', alert_active: true }],
    });
    expect((await v2('?all=false')).json.monitors).toHaveLength(1);
    const bad = await v2('?all=maybe');
    expect(bad.status).toBe(400);
    expect(bad.json).toEqual({ error: 'all: must be true or false, got maybe' });
  });

  it('serves the version with a bearer token', async () => {
    const r = await apiCall(emu, 'GET', '/v2/version', { auth: `Bearer ${await emu.token()}` });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ major: 2, minor: 0 });
    expect(r.json.release_date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('pausing (4.6)', () => {
  it('pauses all alerts and lists remaining seconds on the emulator clock', async () => {
    const a = await monitorWithAlerts('a', 2);
    const b = await monitorWithAlerts('b', 1);
    const r = await call('POST', '/v1/Pause/Alert/', { seconds: 300 });
    expect(r.json).toEqual({ path: '/v1/Pause/Alert/', error: null, alert_list: [...a.alerts, ...b.alerts], seconds: 300 });
    await emu.control.advance(100);
    const list = await call('GET', '/v1/Pause/Alert/');
    expect(list.json.alert_list).toEqual([
      { id: a.alerts[0], monitor: a.id, seconds: 200 },
      { id: a.alerts[1], monitor: a.id, seconds: 200 },
      { id: b.alerts[0], monitor: b.id, seconds: 200 },
    ]);
    await emu.control.advance(200);
    expect((await call('GET', '/v1/Pause/Alert/')).json.alert_list).toEqual([]);
  });

  it('pauses one alert or one monitor, and reports paused monitors as not alerting', async () => {
    const a = await monitorWithAlerts('a', 2);
    await emu.control.setAlertActive(a.id, true);
    const one = await call('POST', `/v1/Pause/Alert/${a.alerts[0]}/`, { seconds: 60 });
    expect(one.json).toEqual({ path: `/v1/Pause/Alert/${a.alerts[0]}/`, error: null, alert: a.alerts[0], monitor: a.id, seconds: 60 });
    // One of two alerts paused: the other can still be active.
    expect((await call('GET', '/v1/Status/')).json.global_alert_active).toBe(true);

    const mon = await call('POST', `/v1/Pause/Monitor/${a.id}/`, { seconds: 120 });
    expect(mon.json).toMatchObject({ alert_list: a.alerts, seconds: 120 });
    const status = await call('GET', '/v1/Status/');
    expect(status.json.global_alert_active).toBe(false);
    expect(status.json.monitor_list.find((e: any) => e.id === a.id).alert_active).toBe(false);

    await emu.control.advance(121);
    expect((await call('GET', '/v1/Status/')).json.global_alert_active).toBe(true);
  });

  it('resumes all, or one monitor (also under /v1/v1/), or one alert given its id', async () => {
    const a = await monitorWithAlerts('a', 2);
    const b = await monitorWithAlerts('b', 1);
    await call('POST', '/v1/Pause/Alert/', { seconds: 300 });
    const byMonitor = await call('DELETE', `/v1/Pause/Alert/${a.id}/`);
    expect(byMonitor.json).toEqual({ path: `/v1/Pause/Alert/${a.id}/`, error: null, alert_list: a.alerts });
    expect((await call('GET', '/v1/Pause/Alert/')).json.alert_list.map((p: any) => p.id)).toEqual(b.alerts);

    const byAlert = await call('DELETE', `/v1/v1/Pause/Alert/${b.alerts[0]}/`);
    expect(byAlert.status).toBe(200);
    expect(byAlert.json.alert_list).toEqual(b.alerts);
    expect((await call('GET', '/v1/Pause/Alert/')).json.alert_list).toEqual([]);

    await call('POST', `/v1/Pause/Monitor/${b.id}/`, { seconds: 300 });
    const all = await call('DELETE', '/v1/Pause/Alert/');
    expect(all.json.alert_list).toEqual([...a.alerts, ...b.alerts]);
    expect((await call('GET', '/v1/Pause/Alert/')).json.alert_list).toEqual([]);
  });

  it('pauses all of a monitor\'s alerts given a monitor id on the Alert path, as the public client does', async () => {
    const a = await monitorWithAlerts('a', 2);
    const b = await monitorWithAlerts('b', 1);
    // Older clients (service-notes.md: the Python `kfront`) read alert_list and seconds from this answer.
    const r = await call('POST', `/v1/Pause/Alert/${a.id}/`, { seconds: 600 });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ path: `/v1/Pause/Alert/${a.id}/`, error: null, alert_list: a.alerts, seconds: 600 });
    const paused = (await call('GET', '/v1/Pause/Alert/')).json.alert_list;
    expect(paused).toEqual(a.alerts.map((id) => ({ id, monitor: a.id, seconds: 600 })));
    // An alert id keeps its meaning: that alert alone, answered with alert and monitor.
    const one = await call('POST', `/v1/Pause/Alert/${b.alerts[0]}/`, { seconds: 60 });
    expect(one.json).toEqual({ path: `/v1/Pause/Alert/${b.alerts[0]}/`, error: null, alert: b.alerts[0], monitor: b.id, seconds: 60 });
    // A monitor without alerts: nothing to pause, as on /v1/Pause/Monitor/.
    const bare = await monitorWithAlerts('bare', 0);
    expect((await call('POST', `/v1/Pause/Alert/${bare.id}/`, { seconds: 60 })).json).toMatchObject({ error: null, alert_list: [] });
    const unknown = await call('POST', '/v1/Pause/Alert/777/', { seconds: 5 });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error).toBe('alert 777 not found (nor a monitor with that id)');
  });

  it('prefers the alert when an id names both an alert and a monitor', async () => {
    await emu.control.seed({
      monitors: [{ id: '4242', label: 'clash', type: 'smtp' }, { id: '4243', label: 'holder', type: 'smtp' }],
      alerts: [{ id: '4242', monitor: '4243', type: 'up-down', subject_init: 'd', subject_term: 'u', timeout: 5 }],
    });
    await call('POST', '/v1/Config/Alert/', { type: 'up-down', monitor: '4242', subject_init: 'd', subject_term: 'u', timeout: 5 });
    const r = await call('POST', '/v1/Pause/Alert/4242/', { seconds: 60 });
    expect(r.json).toMatchObject({ alert: '4242', monitor: '4243', seconds: 60 });
    expect((await call('GET', '/v1/Pause/Alert/')).json.alert_list.map((p: any) => p.id)).toEqual(['4242']);
  });

  it('validates seconds and ids', async () => {
    const a = await monitorWithAlerts('a', 1);
    for (const body of [{}, { seconds: 0 }, { seconds: -5 }, { seconds: 1.5 }, { seconds: '60' }]) {
      const r = await call('POST', '/v1/Pause/Alert/', body);
      expect(r.status).toBe(400);
      expect(r.json.error).toMatch(/^seconds: /);
    }
    expect((await call('POST', '/v1/Pause/Alert/')).status).toBe(400);
    expect((await call('POST', '/v1/Pause/Alert/777/', { seconds: 5 })).status).toBe(404);
    expect((await call('POST', '/v1/Pause/Monitor/777/', { seconds: 5 })).status).toBe(404);
    expect((await call('DELETE', '/v1/Pause/Alert/777/')).status).toBe(404);
    expect((await call('POST', `/v1/Pause/Monitor/${a.id}/`, { seconds: 5 })).status).toBe(200);
  });
});

describe('data (4.8)', () => {
  it('serves stored items within begin..end, raw and averaged', async () => {
    const clock = await emu.control.clock();
    const now = clock.now;
    await emu.control.setData('10004', [
      { utc_mktime: now - 7200, value: 9 },
      { utc_mktime: now - 1800, value: 2.0 },
      { utc_mktime: now - 1700, value: 4.0, failed: false },
      { utc_mktime: now - 60, value: null, failed: true, error: 'timeout' },
    ]);
    const r = await call('GET', '/v1/Data/Monitor/10004/');
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ path: '/v1/Data/Monitor/10004/', error: null, monitor: '10004', monitor_label: 'legacy-mx' });
    expect(r.json.end - r.json.begin).toBe(3600);
    expect(Math.abs(r.json.end - now)).toBeLessThanOrEqual(2);
    expect(r.json.data.map((d: any) => d.value)).toEqual([2, 4, null]);
    const item = r.json.data[2];
    expect(item).toMatchObject({ failed: true, error: 'timeout', alert_matches: [], utc_mktime: now - 60 });
    expect(item.utc_time).toBe(new Date((now - 60) * 1000).toISOString().slice(0, 19));
    expect(item.time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);

    const wide = await call('GET', `/v1/Data/Monitor/10004/?begin=${now - 10_000}&end=${now}&average=day`);
    const total = wide.json.data.reduce((n: number, d: any) => n + d.samples, 0);
    expect(total).toBe(4);

    const all = await call('GET', '/v1/Data/Monitor/?average=raw');
    expect(all.json.monitors).toHaveLength(4);
    expect(all.json.monitors.find((m: any) => m.monitor === '10004').data).toHaveLength(3);
    const filtered = await call('GET', '/v1/Data/Monitor/?meta=none:such');
    expect(filtered.json.monitors).toEqual([]);
  });

  it('serves the response analysis hops', async () => {
    const now = (await emu.control.clock()).now;
    const hops = [
      { source: 'probe.example', destination: 'mx.example.com', time: now - 100, duration: 2 },
      { source: 'mx.example.com', destination: 'probe.example', time: now - 98, duration: 1 },
    ];
    await emu.control.setData('10004', [], [hops]);
    const r = await call('GET', '/v1/Data/Monitor/Response/10004/');
    expect(r.json).toMatchObject({ error: null, analysis: [hops] });
    expect((await call('GET', `/v1/Data/Monitor/Response/10004/?end=${now - 200}&begin=${now - 500}`)).json.analysis).toEqual([]);
  });

  it('validates average, begin and end, and ids', async () => {
    const bad = await call('GET', '/v1/Data/Monitor/10004/?average=week');
    expect(bad.status).toBe(400);
    expect(bad.json.error).toBe('average: week is not one of raw, hour, day');
    expect((await call('GET', '/v1/Data/Monitor/?average=minute')).status).toBe(400);
    expect((await call('GET', '/v1/Data/Monitor/10004/?begin=soon')).status).toBe(400);
    expect((await call('GET', '/v1/Data/Monitor/10004/?begin=200&end=100')).status).toBe(400);
    expect((await call('GET', '/v1/Data/Monitor/424242/')).status).toBe(404);
    expect((await call('GET', '/v1/Data/Monitor/Response/424242/')).status).toBe(404);
  });
});
