/**
 * Contract suite: the client against the real emulator over loopback, for every endpoint of API
 * sections 4.1 to 4.8, the documented validation errors, authentication, and retries under
 * injected faults. State is arranged through the control API (test/helpers/emulator.ts).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MonitoringClient, wasAlreadyGone, type MonitoringClientOptions, type RequestEvent } from '../../src/api/client.js';
import { clientOptionsFromEnv } from '../../src/api/config.js';
import { ApiError } from '../../src/api/errors.js';
import type { AlertCreate, MonitorCreate } from '../../src/api/types.js';
import { startTestEmulator, type RecordedRequest, type TestEmulator } from '../helpers/emulator.js';

const V1 = { username: 'demo@example.com', password: 'demo-password' };
const V2 = { clientId: 'demo-client', clientSecret: 'demo-secret' };

let emu: TestEmulator;
const clients: MonitoringClient[] = [];
let sleeps: number[] = [];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});

afterAll(async () => {
  await emu.close();
});

beforeEach(async () => {
  sleeps = [];
  await emu.control.reset('empty');
});

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function requests(): Promise<RecordedRequest[]> {
  return emu.control.requests();
}

/**
 * A jitter that always makes a backoff a wait: tests here count the sleeps or lift a fault in one.
 * Full jitter draws a wait of 0 ms (no sleep at all) once in 200 first retries, and with it the
 * retry met the fault still on (seen once in a fresh-clone CI run).
 */
const HALF_JITTER = () => 0.5;

function client(extra: Partial<MonitoringClientOptions> = {}): MonitoringClient {
  const c = new MonitoringClient({
    baseUrl: emu.url,
    ...V1,
    ...V2,
    timeoutMs: 5000,
    sleep: async (ms) => void sleeps.push(ms),
    random: HALF_JITTER,
    ...extra,
  });
  clients.push(c);
  return c;
}

async function failure(p: Promise<unknown>): Promise<ApiError> {
  try {
    await p;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the call to fail');
}

function smtp(label: string, extra: Partial<MonitorCreate> = {}): MonitorCreate {
  return {
    type: 'smtp',
    label,
    timer: 5,
    time_zone: 'Europe/Berlin',
    ip_address: 'mx.example.com',
    test_account: 'probe@example.com',
    ...extra,
  };
}

function upDown(monitor: string, extra: Partial<AlertCreate> = {}): AlertCreate {
  return { type: 'up-down', monitor, subject_init: 'down', subject_term: 'up', timeout: 15, ...extra };
}

function seed(body: Record<string, unknown[]>): ReturnType<TestEmulator['control']['seed']> {
  return emu.control.seed(body);
}

// ------------------------------------------------------------------------------------------------

describe('4.1 version 2', () => {
  it('gets a bearer token, the version and the status', async () => {
    const c = client();
    const token = await c.getToken();
    expect(token.token_type).toBe('Bearer');
    expect(token.expires_in).toBe(3600);
    expect(token.access_token.split('.')).toHaveLength(3);

    const version = await c.getV2Version();
    expect(Object.keys(version).length).toBeGreaterThan(0);

    const { monitors } = await seed({ monitors: [{ label: 'web', type: 'HTTP' }] });
    expect(await c.getV2Status()).toEqual({ global_alert_active: false, monitors: [] });
    expect(await c.getV2Status({ all: true })).toEqual({
      global_alert_active: false,
      monitors: [{ id: monitors[0], label: 'web', type: 'http', alert_active: false }],
    });

    const log = await requests();
    const token2 = log.filter((r) => r.path === '/v2/token');
    // getToken fetched one; the later calls reused the cached one.
    expect(token2).toHaveLength(1);
    expect(token2[0]!.body).toEqual({ grant_type: 'client_credentials' });
    expect(log.find((r) => r.path === '/v2/status' && r.query['all'] === 'true')).toBeDefined();
  });
});

describe('4.2 status', () => {
  it('reads v1 status with canonical monitor types', async () => {
    const { monitors } = await seed({
      monitors: [
        { label: 'a-dns', type: 'DNS Query' },
        { label: 'b-tcp', type: 'TCP Port' },
        { label: 'c-ssh', type: 'SSH Port' },
        { label: 'd-smtp', type: 'smtp' },
      ],
    });
    const s = await client().getStatus();
    expect(s.global_alert_active).toBe(false);
    expect(s.monitors.map((m) => [m.id, m.type])).toEqual([
      [monitors[0], 'dns-query'],
      [monitors[1], 'tcp-port'],
      [monitors[2], 'ssh-port'],
      [monitors[3], 'smtp'],
    ]);
  });

  it('filters status by label and meta, echoing t', async () => {
    const c = client();
    await c.createMonitor(smtp('prod-mx-1', { meta: { env: 'prod' } }));
    await c.createMonitor(smtp('prod-mx-2', { meta: { env: 'test' } }));
    await c.createMonitor(smtp('other'));
    const r = await c.getStatusFilter({ prefix: 'prod-', t: 600 });
    expect(r.t).toBe(600);
    expect(r.monitor_list.map((e) => e.label)).toEqual(['prod-mx-1', 'prod-mx-2']);
    expect(r.monitor_list[0]).toMatchObject({ alert_active: false, alert_count: 0, last_test: null, last_alert: null });
    const byMeta = await c.getStatusFilter({ meta: 'env:test' });
    expect(byMeta.t).toBe(1800);
    expect(byMeta.monitor_list.map((e) => e.label)).toEqual(['prod-mx-2']);
  });

  it('surfaces the rule "at least one filter" as the service message', async () => {
    const err = await failure(client().getStatusFilter({ t: 60 }));
    expect(err.kind).toBe('http');
    expect(err.status).toBe(400);
    expect(err.serviceError).toMatch(/at least one/);
    expect(err.message).toContain('GET /v1/Status/Filter/');
  });
});

describe('4.3 groups', () => {
  it('creates, reads, updates (add and replace), lists and deletes groups', async () => {
    const c = client();
    const m1 = await c.createMonitor(smtp('m1'));
    const m2 = await c.createMonitor(smtp('m2'));

    const empty = await c.createGroup({ name: 'empty' });
    expect(empty.members).toEqual([]);
    const g = await c.createGroup({ name: 'prod', monitors: [m1.id] });
    // The create response carries ids only.
    expect(g.members).toEqual([{ id: m1.id, label: null }]);
    expect(await c.getGroup(g.id)).toEqual({ id: g.id, name: 'prod', members: [{ id: m1.id, label: 'm1' }] });

    const added = await c.updateGroup(g.id, { name: 'prod', monitors: [m2.id] });
    expect(added.members.map((m) => m.id).sort()).toEqual([m1.id, m2.id].sort());
    const replaced = await c.updateGroup(g.id, { name: 'production', monitors: [m2.id], replace: true });
    expect(replaced).toEqual({ id: g.id, name: 'production', members: [{ id: m2.id, label: 'm2' }] });
    expect((await c.getMonitor(m2.id)).groups).toEqual([g.id]);
    expect((await c.getMonitor(m1.id)).groups).toEqual([]);

    expect(await c.listGroups()).toEqual([
      { id: empty.id, name: 'empty' },
      { id: g.id, name: 'production' },
    ]);
    expect(await c.deleteGroup(g.id)).toEqual({ id: g.id, name: 'production' });
    expect((await c.listGroups()).map((x) => x.id)).toEqual([empty.id]);

    const paths = (await requests()).map((r) => `${r.method} ${r.path}`);
    expect(paths).toContain('POST /v1/Config/Group/');
    expect(paths).toContain(`PUT /v1/Config/Group/${g.id}/`);
  });

  it('reports group validation and missing groups with the service message', async () => {
    const c = client();
    const noName = await failure(c.createGroup({ name: '' }));
    expect([noName.kind, noName.status]).toEqual(['http', 400]);
    expect(noName.serviceError).toMatch(/name/);
    const badMember = await failure(c.createGroup({ name: 'x', monitors: ['nope'] }));
    expect(badMember.serviceError).toMatch(/unknown monitor id nope/);
    const missing = await failure(c.getGroup('999'));
    expect([missing.kind, missing.status]).toEqual(['http', 404]);
    expect(missing.serviceError).toMatch(/not found/);
    expect((await failure(c.deleteGroup('999'))).status).toBe(404);
    expect((await failure(c.updateGroup('999', { name: 'x' }))).status).toBe(404);
  });

  it('reads seeded group membership from monitors', async () => {
    const { monitors } = await seed({ monitors: [{ label: 'a', type: 'smtp', groups: [] }] });
    const { groups } = await seed({ groups: [{ name: 'seeded', monitors }] });
    expect(await client().getGroup(groups[0]!)).toEqual({ id: groups[0], name: 'seeded', members: [{ id: monitors[0], label: 'a' }] });
  });
});

describe('4.4 monitors', () => {
  it('creates, reads, lists, modifies and deletes an SMTP monitor', async () => {
    const c = client();
    const created = await c.createMonitor(
      smtp('mx-berlin', { use_tls: 'on', attachment: 'pdf', ttl: 300, port: 587, meta: { 'managed-by': 'monsync' } }),
    );
    expect(created).toMatchObject({
      label: 'mx-berlin',
      type: 'smtp',
      ip_address: 'mx.example.com',
      port: 587,
      use_tls: 'on',
      attachment: 'pdf',
      timer: 5,
      ttl: 300,
      time_zone: 'Europe/Berlin',
      meta: { 'managed-by': 'monsync' },
      alerts: [],
      groups: [],
    });
    expect(typeof created.timeout).toBe('number');
    expect(await c.getMonitor(created.id)).toEqual(created);
    expect(await c.listMonitors()).toEqual([created]);

    const updated = await c.updateMonitor(created.id, { timer: 10, attachment: '' });
    expect(updated).toEqual({ ...created, timer: 10, attachment: null });

    expect(await c.deleteMonitor(created.id)).toEqual(updated);
    expect(await c.listMonitors()).toEqual([]);
    const log = await requests();
    expect(log.find((r) => r.method === 'POST')?.path).toBe('/v1/Config/Monitor/');
    expect(log.find((r) => r.method === 'PUT')?.body).toEqual({ timer: 10, attachment: '' });
  });

  it('normalises quirky seeded monitors', async () => {
    const { monitors } = await seed({
      monitors: [
        { label: 'gw', type: 'Ping', hostname: '192.0.2.1', timer: '5', meta: {} },
        { label: 'legacy', type: 'smtp', ip_address: 'mx', timer: '10', port: '25', ttl: '0', attachment: '', alerts: [], groups: [] },
      ],
    });
    const [ping, legacy] = await client().listMonitors();
    expect(ping).toMatchObject({ id: monitors[0], type: 'ping', ip_address: '192.0.2.1', timer: 5, groups: null, alerts: [] });
    expect(legacy).toMatchObject({ id: monitors[1], type: 'smtp', timer: 10, port: 25, ttl: 0, attachment: null, groups: [] });
  });

  it.each([
    ['timer', smtp('x', { timer: 7 }), /timer: 7 is not one of 3, 5, 10, 15, 20, 30/],
    ['ttl', smtp('x', { ttl: 45 }), /ttl: 45 is not one of/],
    ['use_tls', smtp('x', { use_tls: 'maybe' as 'on' }), /use_tls/],
    ['time_zone', smtp('x', { time_zone: 'Mars/Olympus' }), /time_zone/],
    ['ip_address', smtp('x', { ip_address: 'not a host!' }), /ip_address/],
    ['test_account', smtp('x', { test_account: 'nobody' }), /test_account/],
    ['attachment', smtp('x', { attachment: 'zip' as 'pdf' }), /attachment/],
    ['message_format', smtp('x', { message_format: 'text/rtf' as 'text/html' }), /message_format/],
    ['type', { ...smtp('x'), type: 'http' as 'smtp' }, /type/],
    ['label', { ...smtp('x'), label: '' }, /label/],
  ])('refuses an invalid %s on create with the service message', async (_field, body, message) => {
    const err = await failure(client().createMonitor(body));
    expect([err.kind, err.status, err.maybeApplied]).toEqual(['http', 400, false]);
    expect(err.serviceError).toMatch(message);
    expect(err.message).toMatch(message);
    expect(err.message).toContain('POST /v1/Config/Monitor/');
  });

  it('refuses a create without the required fields', async () => {
    const err = await failure(client().createMonitor({ type: 'smtp', label: 'x' } as MonitorCreate));
    for (const f of ['timer', 'time_zone', 'ip_address', 'test_account']) expect(err.serviceError).toContain(`${f}: required`);
  });

  it('refuses to modify monitors of other types (deleting them is allowed), and unknown ids', async () => {
    const { monitors } = await seed({ monitors: [{ label: 'web', type: 'HTTP' }] });
    const c = client();
    expect((await failure(c.updateMonitor(monitors[0]!, { timer: 5 }))).serviceError).toMatch(/only SMTP monitors/);
    const missing = await failure(c.getMonitor('424242'));
    expect([missing.kind, missing.status]).toEqual(['http', 404]);
    const badUpdate = await failure(c.updateMonitor((await c.createMonitor(smtp('y'))).id, { ttl: 1 }));
    expect(badUpdate.serviceError).toMatch(/ttl/);
  });
});

describe('4.5 alerts', () => {
  it('creates, lists, reads, modifies and deletes an alert, always sending message bodies', async () => {
    const { destinations } = await seed({ destinations: [{ label: 'ops', destination: 'ops@example.com', type: 'EMAIL', subscribed: true }] });
    const c = client();
    const m = await c.createMonitor(smtp('mx'));
    const a = await c.createAlert(upDown(m.id, { alert_destinations: destinations }));
    expect(a).toEqual({
      id: a.id,
      type: 'up-down',
      monitor: m.id,
      alert_destinations: destinations,
      subject_init: 'down',
      subject_term: 'up',
      message_init: '',
      message_term: '',
      down_only: false,
      repeat: false,
      timeout: 15,
      violations: null,
    });
    // The list shows the display form `Up/Down Alert` and a violations string.
    const [listed] = await c.listAlerts();
    expect(listed).toMatchObject({ id: a.id, type: 'up-down' });
    expect(typeof listed!.violations).toBe('string');
    expect(await c.getAlert(a.id)).toEqual(a);
    expect((await c.getMonitor(m.id)).alerts).toEqual([a.id]);

    const modified = await c.updateAlert(a.id, upDown(m.id, { subject_init: 'DOWN', repeat: true }));
    expect(modified).toMatchObject({ id: a.id, subject_init: 'DOWN', repeat: true, message_init: '', message_term: '' });

    expect((await c.deleteAlert(a.id)).id).toBe(a.id);
    expect(await c.listAlerts()).toEqual([]);

    const writes = (await requests()).filter((r) => r.path.startsWith('/v1/Config/Alert/') && (r.method === 'POST' || r.method === 'PUT'));
    expect(writes).toHaveLength(2);
    for (const w of writes) expect(w.body).toMatchObject({ message_init: '', message_term: '' });
  });

  it.each([
    ['type', (m: string) => ({ ...upDown(m), type: 'threshold' as 'up-down' }), /type/],
    ['monitor', () => upDown('nope'), /unknown monitor id nope/],
    ['timeout', (m: string) => ({ ...upDown(m), timeout: undefined as unknown as number }), /timeout: required/],
    ['subject', (m: string) => upDown(m, { subject_init: '' }), /subject_init/],
    ['destination', (m: string) => upDown(m, { alert_destinations: ['d-none'] }), /unknown destination id d-none/],
  ])('refuses an invalid %s with the service message', async (_what, body, message) => {
    const c = client();
    const m = await c.createMonitor(smtp('mx'));
    const err = await failure(c.createAlert(body(m.id)));
    expect([err.kind, err.status]).toEqual(['http', 400]);
    expect(err.serviceError).toMatch(message);
  });

  it('reports unknown alerts as 404', async () => {
    const c = client();
    const m = await c.createMonitor(smtp('mx'));
    expect((await failure(c.getAlert('1'))).status).toBe(404);
    expect((await failure(c.updateAlert('1', upDown(m.id)))).status).toBe(404);
    expect((await failure(c.deleteAlert('1'))).status).toBe(404);
  });
});

describe('4.6 pausing', () => {
  it('pauses and resumes all, one alert, one monitor; pauses expire with the clock', async () => {
    const c = client();
    const m1 = await c.createMonitor(smtp('m1'));
    const m2 = await c.createMonitor(smtp('m2'));
    const a1 = await c.createAlert(upDown(m1.id));
    const a2 = await c.createAlert(upDown(m2.id));

    expect(await c.listPausedAlerts()).toEqual([]);
    const all = await c.pauseAllAlerts(600);
    expect(all.seconds).toBe(600);
    expect(all.alert_list.sort()).toEqual([a1.id, a2.id].sort());
    expect((await c.listPausedAlerts()).find((p) => p.id === a1.id)).toEqual({ id: a1.id, monitor: m1.id, seconds: 600 });

    const resumedAll = await c.resumeAllAlerts();
    expect(resumedAll.alert_list.sort()).toEqual([a1.id, a2.id].sort());
    expect(await c.listPausedAlerts()).toEqual([]);

    expect(await c.pauseAlert(a1.id, 120)).toEqual({ alert: a1.id, monitor: m1.id, seconds: 120 });
    expect(await c.pauseMonitor(m2.id, 300)).toEqual({ alert_list: [a2.id], seconds: 300 });
    expect((await c.listPausedAlerts()).map((p) => p.id).sort()).toEqual([a1.id, a2.id].sort());

    expect(await c.resumeMonitor(m2.id)).toEqual({ alert_list: [a2.id] });
    expect((await c.listPausedAlerts()).map((p) => p.id)).toEqual([a1.id]);

    await emu.control.advance(121);
    expect(await c.listPausedAlerts()).toEqual([]);
  });

  it('reports pause validation and unknown ids with the service message', async () => {
    const c = client();
    const m = await c.createMonitor(smtp('m'));
    const a = await c.createAlert(upDown(m.id));
    const zero = await failure(c.pauseAlert(a.id, 0));
    expect([zero.kind, zero.status]).toEqual(['http', 400]);
    expect(zero.serviceError).toMatch(/seconds/);
    expect((await failure(c.pauseAllAlerts(-5))).serviceError).toMatch(/seconds/);
    expect((await failure(c.pauseAlert('999', 60))).status).toBe(404);
    expect((await failure(c.pauseMonitor('999', 60))).status).toBe(404);
    expect((await failure(c.resumeMonitor('999'))).status).toBe(404);
  });
});

describe('4.7 alert destinations', () => {
  it('lists and reads destinations with canonical types', async () => {
    const { destinations } = await seed({
      destinations: [
        { label: 'legacy', destination: 'legacy@example.com', type: 'EMAIL', subscribed: false },
        { label: 'sms', destination: '+15555550100', type: 'sms', subscribed: true },
      ],
    });
    const c = client();
    expect(await c.listDestinations()).toEqual([
      { id: destinations[0], label: 'legacy', destination: 'legacy@example.com', type: 'email', subscribed: false },
      { id: destinations[1], label: 'sms', destination: '+15555550100', type: 'sms', subscribed: true },
    ]);
    expect((await c.getDestination(destinations[1]!)).type).toBe('sms');
    expect((await failure(c.getDestination('nope'))).status).toBe(404);
  });
});

describe('4.8 data', () => {
  it('reads monitor data, all-monitor data and the response analysis', async () => {
    const c = client();
    const m = await c.createMonitor(smtp('mx'));
    const { now } = await emu.control.clock();
    const d = await c.getMonitorData(m.id, { begin: now - 600, end: now, average: 'raw' });
    expect(d).toEqual({ begin: now - 600, end: now, monitor: m.id, monitor_label: 'mx', data: [] });
    const defaults = await c.getMonitorData(m.id, {});
    expect(defaults.end - defaults.begin).toBe(3600);

    const all = await c.getAllMonitorData({ begin: now - 60, end: now });
    expect(all).not.toHaveProperty('path');
    expect(all).not.toHaveProperty('error');
    expect(all['begin']).toBe(now - 60);

    expect(await c.getResponseAnalysis(m.id, { begin: now - 60, end: now })).toEqual({ begin: now - 60, end: now, analysis: [] });

    const log = await requests();
    expect(log.find((r) => r.path === `/v1/Data/Monitor/${m.id}/`)?.query).toEqual({ begin: String(now - 600), end: String(now), average: 'raw' });
    expect(log.some((r) => r.path === `/v1/Data/Monitor/Response/${m.id}/`)).toBe(true);
  });

  // Uses POST /_emulator/data (test helper setData), listed in docs/emulator-reference.md.
  it('normalises recorded data items and hops', async () => {
    const c = client();
    const m = await c.createMonitor(smtp('mx'));
    const { now } = await emu.control.clock();
    await emu.control.setData(
      m.id,
      [{ utc_mktime: now - 30, value: 2000.5, failed: false, error: null, samples: null, alert_matches: [] }],
      [[{ source: 'a.example', destination: 'b.example', time: now - 30, duration: 2 }]],
    );
    const d = await c.getMonitorData(m.id, { begin: now - 60, end: now });
    expect(d.data).toHaveLength(1);
    expect(d.data[0]).toMatchObject({ value: 2000.5, failed: false, utc_mktime: now - 30, alert_matches: [] });
    expect(typeof d.data[0]!.utc_time).toBe('string');
    const r = await c.getResponseAnalysis(m.id, { begin: now - 60, end: now });
    expect(r.analysis).toEqual([[{ source: 'a.example', destination: 'b.example', time: now - 30, duration: 2 }]]);
  });

  it('surfaces a bad data query as the service message', async () => {
    const c = client();
    const m = await c.createMonitor(smtp('mx'));
    const err = await failure(c.getMonitorData(m.id, { begin: 200, end: 100 }));
    expect([err.kind, err.status]).toEqual(['http', 400]);
    expect(err.serviceError).toMatch(/begin/);
  });
});

// ------------------------------------------------------------------------------------------------

describe('authentication', () => {
  it('reports wrong v1 credentials as auth, without the password', async () => {
    const c = client({ password: 'wrong-password-abc' });
    const err = await failure(c.listMonitors());
    expect([err.kind, err.status]).toEqual(['auth', 401]);
    expect(err.message).toContain('GET /v1/Config/Monitor/');
    expect(c.stats.requests).toBe(1);
    const text = `${err.message} ${JSON.stringify(err)} ${String(err.stack)}`;
    expect(text).not.toContain('wrong-password-abc');
    expect(text).not.toContain(Buffer.from(`${V1.username}:wrong-password-abc`).toString('base64'));
  });

  it('reports a wrong v2 secret as auth at the token endpoint', async () => {
    const c = client({ clientSecret: 'wrong-secret-xyz' });
    const err = await failure(c.getV2Status());
    expect([err.kind, err.status, err.path]).toEqual(['auth', 401, '/v2/token']);
    expect(err.serviceError).toMatch(/invalid_client/);
    expect(`${err.message} ${JSON.stringify(err)}`).not.toContain('wrong-secret-xyz');
  });

  it('recovers from an expired token with one refetch when only the emulator clock moved', async () => {
    const c = client();
    await c.getV2Status();
    await emu.control.advance(3700);
    await c.getV2Status();
    const log = await requests();
    expect(log.filter((r) => r.path === '/v2/token')).toHaveLength(2);
    expect(log.filter((r) => r.path === '/v2/status').map((r) => r.status)).toEqual([200, 401, 200]);
  });

  it('renews the token before expiry when its own clock says so', async () => {
    let now = Date.now();
    const c = client({ now: () => now });
    await c.getV2Status();
    await emu.control.advance(3300);
    now += 3300 * 1000;
    await c.getV2Status();
    const log = await requests();
    expect(log.filter((r) => r.path === '/v2/token')).toHaveLength(2);
    // Renewed ahead of time: the service never saw an expired token.
    expect(log.filter((r) => r.path === '/v2/status').map((r) => r.status)).toEqual([200, 200]);
  });

  it('refetches the token exactly once on a persistent 401, then fails with auth', async () => {
    const c = client();
    const token = await c.getToken();
    await emu.control.faults({ error_rate: 1, error_status: 401, path_prefix: '/v2/status' });
    const err = await failure(c.getV2Status());
    expect([err.kind, err.status]).toEqual(['auth', 401]);
    const log = await requests();
    expect(log.filter((r) => r.path === '/v2/token')).toHaveLength(2);
    expect(log.filter((r) => r.path === '/v2/status')).toHaveLength(2);
    const text = `${err.message} ${JSON.stringify(err)} ${String(err.stack)}`;
    expect(text).not.toContain(token.access_token);
    expect(text).not.toContain(V2.clientSecret);
    expect(text).not.toContain(V1.password);
  });

  it('shares one token request among concurrent v2 calls', async () => {
    const c = client();
    await Promise.all([c.getV2Status(), c.getV2Version(), c.getV2Status({ all: true }), c.getV2Version()]);
    expect((await requests()).filter((r) => r.path === '/v2/token')).toHaveLength(1);
  });

  it('never puts credentials or tokens in any error', async () => {
    const c = client();
    const token = await c.getToken();
    const errors: ApiError[] = [];
    errors.push(await failure(client({ password: 'pw-secret-leak-check' }).getStatus()));
    errors.push(await failure(client({ clientSecret: 'cs-secret-leak-check' }).getToken()));
    errors.push(await failure(c.createMonitor(smtp('x', { timer: 7 }))));
    await emu.control.faults({ error_rate: 1, error_status: 503, path_prefix: '/v2/' });
    errors.push(await failure(c.getV2Version()));
    for (const err of errors) {
      const text = `${err.message}\n${JSON.stringify(err)}\n${String(err.stack)}`;
      for (const secret of ['pw-secret-leak-check', 'cs-secret-leak-check', V1.password, V2.clientSecret, token.access_token]) {
        expect(text).not.toContain(secret);
      }
      expect(text).not.toMatch(/Basic [A-Za-z0-9+/=]{8,}/);
      expect(text).not.toMatch(/Bearer [A-Za-z0-9._-]{8,}/);
    }
  });
});

describe('retries under injected faults', () => {
  it('retries a read answered 503 every time, then fails with http 503', async () => {
    await emu.control.faults({ error_rate: 1, error_status: 503, methods: ['GET'] });
    const c = client();
    const err = await failure(c.listMonitors());
    expect([err.kind, err.status, err.maybeApplied]).toEqual(['http', 503, false]);
    expect(c.stats).toEqual({ requests: 5, retries: 4 });
    expect(sleeps).toHaveLength(4);
    const log = await requests();
    expect(log).toHaveLength(5);
    expect(log.every((r) => r.fault === 'error' && r.status === 503)).toBe(true);
  });

  it('honours Retry-After on 429', async () => {
    await emu.control.faults({ rate_limit_every: 2, retry_after: 2 });
    const c = client();
    await c.listGroups();
    expect(await c.listGroups()).toEqual([]);
    expect(sleeps).toEqual([2000]);
    expect((await requests()).map((r) => r.status)).toEqual([200, 429, 200]);
  });

  it('fails a call to a slowed service at its deadline, with at most the attempts that fit in it', async () => {
    await emu.control.faults({ latency_ms: 800, methods: ['GET'] });
    const events: RequestEvent[] = [];
    const c = client({ timeoutMs: 150, deadlineMs: 350, maxRetries: 50, sleep: async () => {}, onRequest: (e) => events.push(e) });
    const t0 = performance.now();
    const err = await failure(c.listMonitors());
    expect(err.kind).toBe('timeout');
    expect(err.message).toMatch(/deadline of 0\.4 s/);
    // Time-based because a deadline is. The 51 attempts allowed would take 7.6 s; the deadline ends
    // the call after 0.35 s. The bound leaves room for a machine whose two cores are busy (issue 34).
    expect(performance.now() - t0).toBeLessThan(3000);
    expect(events.length).toBeLessThanOrEqual(3);
    // The emulator still answers them after its latency: let them land before the next test.
    for (let i = 0; i < 100 && (await requests()).length < events.length; i++) await new Promise((r) => setTimeout(r, 50));
  });

  it('retries a read whose response was dropped', async () => {
    const m = await client().createMonitor(smtp('mx'));
    await emu.control.clearRequests();
    await emu.control.faults({ drop_rate: 1, methods: ['GET'] });
    const events: RequestEvent[] = [];
    // The fault is lifted while the client backs off, so the retry gets through.
    const c = client({ onRequest: (e) => events.push(e), sleep: async () => void (await emu.control.clearFaults()) });
    expect((await c.getMonitor(m.id)).id).toBe(m.id);
    expect(events.map((e) => [e.status, e.attempt])).toEqual([
      [null, 1],
      [200, 2],
    ]);
    expect((await requests()).map((r) => r.fault)).toEqual(['drop', null]);
  });

  it('gives up on a read dropped every time with network', async () => {
    await emu.control.faults({ drop_rate: 1 });
    const c = client({ maxRetries: 2 });
    const err = await failure(c.listAlerts());
    expect([err.kind, err.maybeApplied]).toEqual(['network', false]);
    expect((await requests()).length).toBe(3);
  });

  it('does not retry a create whose response was dropped, and marks it maybeApplied', async () => {
    await emu.control.faults({ drop_rate: 1, methods: ['POST'], path_prefix: '/v1/Config/Monitor' });
    const c = client();
    const err = await failure(c.createMonitor(smtp('lost-answer')));
    expect([err.kind, err.maybeApplied]).toEqual(['network', true]);
    expect(c.stats).toEqual({ requests: 1, retries: 0 });
    expect((await requests()).filter((r) => r.method === 'POST')).toHaveLength(1);
    await emu.control.clearFaults();
    // It was applied: apply's read-back by label finds it.
    expect((await c.listMonitors()).map((m) => m.label)).toEqual(['lost-answer']);
  });

  it('does not retry a create answered 503, and marks it maybeApplied', async () => {
    await emu.control.faults({ error_rate: 1, error_status: 503, methods: ['POST'] });
    const err = await failure(client().createGroup({ name: 'g' }));
    expect([err.kind, err.status, err.maybeApplied]).toEqual(['http', 503, true]);
    expect((await requests()).length).toBe(1);
  });

  it('retries a modify whose response was dropped', async () => {
    const m = await client().createMonitor(smtp('mx'));
    await emu.control.clearRequests();
    await emu.control.faults({ drop_rate: 1, methods: ['PUT'] });
    const c = client({ sleep: async () => void (await emu.control.clearFaults()) });
    expect((await c.updateMonitor(m.id, { timer: 15 })).timer).toBe(15);
    expect((await requests()).filter((r) => r.method === 'PUT').map((r) => r.fault)).toEqual(['drop', null]);
  });

  it('counts a DELETE whose first answer was lost and whose retry finds 404 as done', async () => {
    const m = await client().createMonitor(smtp('mx'));
    await emu.control.faults({ drop_rate: 1, methods: ['DELETE'] });
    const c = client({ sleep: async () => void (await emu.control.clearFaults()) });
    const deleted = await c.deleteMonitor(m.id);
    expect(deleted.id).toBe(m.id);
    expect(wasAlreadyGone(deleted)).toBe(true);
    expect((await requests()).filter((r) => r.method === 'DELETE').map((r) => r.status)).toEqual([200, 404]);
  });

  it('retries a pause whose response was dropped', async () => {
    const c0 = client();
    const m = await c0.createMonitor(smtp('mx'));
    const a = await c0.createAlert(upDown(m.id));
    await emu.control.faults({ drop_rate: 1, methods: ['POST'], path_prefix: '/v1/Pause/' });
    const c = client({ sleep: async () => void (await emu.control.clearFaults()) });
    expect(await c.pauseAlert(a.id, 60)).toEqual({ alert: a.id, monitor: m.id, seconds: 60 });
    expect(c.stats.retries).toBe(1);
  });
});

describe('transport rules', () => {
  it('refuses plain http to a non-loopback host without any network traffic', async () => {
    const events: RequestEvent[] = [];
    const err = (() => {
      try {
        new MonitoringClient({ baseUrl: 'http://api.knowledgefront.com', ...V1, onRequest: (e) => events.push(e) });
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).kind).toBe('config');
    expect(() => clientOptionsFromEnv({ MONSYNC_URL: 'http://api.knowledgefront.com', MONSYNC_USERNAME: 'u', MONSYNC_PASSWORD: 'p' })).toThrow(
      /https:\/\//,
    );
    expect(events).toEqual([]);
    expect(await requests()).toEqual([]);
  });

  it('works from environment options against the emulator on loopback', async () => {
    const c = new MonitoringClient(
      clientOptionsFromEnv({
        MONSYNC_URL: emu.url,
        MONSYNC_USERNAME: V1.username,
        MONSYNC_PASSWORD: V1.password,
        MONSYNC_CLIENT_ID: V2.clientId,
        MONSYNC_CLIENT_SECRET: V2.clientSecret,
      }),
    );
    clients.push(c);
    expect(await c.listMonitors()).toEqual([]);
    expect((await c.getV2Status()).monitors).toEqual([]);
  });

  it('keeps to the concurrency cap under latency', async () => {
    await emu.control.faults({ latency_ms: 40 });
    const c = client({ concurrency: 2 });
    const started = Date.now();
    await Promise.all(
      Array.from({ length: 6 }, () => c.listGroups()),
    );
    // Six 40 ms requests two at a time take at least three rounds.
    expect(Date.now() - started).toBeGreaterThanOrEqual(110);
    expect(c.stats.requests).toBe(6);
  });
});
