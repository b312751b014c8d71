import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(() => emu.close());
beforeEach(() => emu.control.reset('default'));

const call = (method: string, path: string, body?: unknown) => apiCall(emu, method, path, body === undefined ? {} : { body });

const smtpBody = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'smtp',
  label: 'mx-primary',
  timer: 5,
  time_zone: 'Europe/Berlin',
  ip_address: 'mx.example.com',
  test_account: 'probe@example.com',
  ...over,
});

async function createMonitor(over: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = await call('POST', '/v1/Config/Monitor/', smtpBody(over));
  expect(r.status).toBe(200);
  return r.json.monitor;
}

async function createAlert(monitor: string, over: Record<string, unknown> = {}): Promise<Record<string, any>> {
  const r = await call('POST', '/v1/Config/Alert/', {
    type: 'up-down',
    monitor,
    subject_init: 'down',
    subject_term: 'up',
    timeout: 10,
    ...over,
  });
  expect(r.status).toBe(200);
  return r.json.alert;
}

describe('monitors (4.4)', () => {
  it('lists the seeded monitors with their wire quirks', async () => {
    const r = await call('GET', '/v1/Config/Monitor/');
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.json.path).toBe('/v1/Config/Monitor/');
    expect(r.json.error).toBeNull();
    const byLabel = Object.fromEntries(r.json.monitor_list.map((m: any) => [m.label, m]));
    expect(Object.keys(byLabel)).toEqual(['www-http', 'gw-ping', 'dns-mx', 'legacy-mx']);
    expect(byLabel['www-http'].timer).toBe('5');
    expect(byLabel['gw-ping'].hostname).toBeTypeOf('string');
    expect(byLabel['dns-mx'].type).toBe('DNS Query');
    expect(byLabel['legacy-mx']).toMatchObject({ type: 'smtp', ip_address: 'mx', timer: 10, time_zone: 'Europe/London', meta: {} });
  });

  it('creates with defaults and server-set fields, then reads it back', async () => {
    const r = await call('POST', '/v1/Config/Monitor/', smtpBody({ meta: { 'managed-by': 'monsync' } }));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ path: '/v1/Config/Monitor/', error: null });
    const m = r.json.monitor;
    expect(m).toMatchObject({
      id: '10005',
      type: 'smtp',
      port: 25,
      use_tls: 'auto',
      ipv6: false,
      message_format: 'text/plain',
      ttl: 0,
      alerts: [],
      groups: [],
      timeout: 30,
      data_label: 'seconds',
      description: null,
      use_client_cert: false,
      meta: { 'managed-by': 'monsync' },
    });
    const read = await call('GET', `/v1/Config/Monitor/${m.id}/`);
    expect(read.json).toEqual({ path: `/v1/Config/Monitor/${m.id}/`, error: null, monitor: m });
  });

  it('accepts every allowed value of the enumerated fields', async () => {
    const m = await createMonitor({
      use_tls: 'off',
      attachment: 'pdf',
      ttl: 1800,
      ipv6: true,
      message_format: 'text/html',
      port: 587,
      timer: 30,
      ip_address: 'mx:failover',
      custom_subject: 's',
      custom_body: 'b',
    });
    expect(m).toMatchObject({ use_tls: 'off', attachment: 'pdf', ttl: 1800, ipv6: true, message_format: 'text/html', port: 587 });
    expect((await createMonitor({ attachment: null })).attachment).toBe('');
  });

  it.each([
    [{ timer: 7 }, 'timer: 7 is not one of 3, 5, 10, 15, 20, 30'],
    [{ timer: '5' }, 'timer: must be an integer'],
    [{ ttl: 15 }, 'ttl: 15 is not one of 0, 30, 60, 180, 300, 600, 1800'],
    [{ use_tls: 'yes' }, 'use_tls: yes is not one of off, on, auto'],
    [{ attachment: 'zip' }, 'attachment: zip is not one of docx, pdf'],
    [{ message_format: 'text/markdown' }, 'message_format: text/markdown is not one of text/plain, text/html'],
    [{ type: 'http' }, 'type: http is not one of smtp'],
    [{ time_zone: 'Europe/Berln' }, 'time_zone: unknown zone Europe/Berln'],
    [{ test_account: 'not-an-address' }, 'test_account: not-an-address is not a valid e-mail address'],
    [{ ip_address: 'no such host!' }, 'ip_address: no such host! is not a host name'],
    [{ port: 70000 }, 'port: 70000 is outside 1..65535'],
    [{ ipv6: 'yes' }, 'ipv6: must be a boolean'],
    [{ meta: { a: 1 } }, 'meta.a: must be a string'],
    [{ label: undefined }, 'label: required'],
    [{ timer: undefined }, 'timer: required'],
    [{ time_zone: undefined }, 'time_zone: required'],
    [{ ip_address: undefined }, 'ip_address: required'],
    [{ test_account: undefined }, 'test_account: required'],
    [{ type: undefined }, 'type: required'],
    [{ colour: 'red' }, 'unknown field colour'],
  ])('rejects %j with 400', async (over, message) => {
    const r = await call('POST', '/v1/Config/Monitor/', smtpBody(over));
    expect(r.status).toBe(400);
    expect(r.json.path).toBe('/v1/Config/Monitor/');
    expect(r.json.error).toContain(message);
    expect((await call('GET', '/v1/Config/Monitor/')).json.monitor_list).toHaveLength(4);
  });

  it('modifies only the given fields (meta replaced entirely)', async () => {
    const m = await createMonitor({ meta: { a: '1', b: '2' }, ttl: 60 });
    const r = await call('PUT', `/v1/Config/Monitor/${m.id}/`, { timer: 15, meta: { c: '3' }, attachment: '' });
    expect(r.status).toBe(200);
    expect(r.json.monitor).toEqual({ ...m, timer: 15, meta: { c: '3' }, attachment: '' });
    const bad = await call('PUT', `/v1/Config/Monitor/${m.id}/`, { timer: 4 });
    expect(bad.status).toBe(400);
    expect(bad.json.error).toContain('timer: 4');
    expect((await call('GET', `/v1/Config/Monitor/${m.id}/`)).json.monitor.timer).toBe(15);
  });

  it('refuses PUT on monitors of other types', async () => {
    const put = await call('PUT', '/v1/Config/Monitor/10001/', { label: 'x' });
    expect(put.status).toBe(400);
    expect(put.json.error).toContain('HTTP');
  });

  it('deletes monitors of other types too: the document restricts only creation and modification to SMTP', async () => {
    const { alerts, groups } = await emu.control.seed({
      alerts: [{ monitor: '10002', type: 'up-down', subject_init: 'd', subject_term: 'u' }],
      groups: [{ name: 'net', monitors: ['10001', '10002'] }],
    });
    const del = await call('DELETE', '/v1/Config/Monitor/10002/');
    expect(del.status).toBe(200);
    // Served back as stored, the quirks of a seeded Ping monitor included.
    expect(del.json).toMatchObject({ error: null, monitor: { id: '10002', type: 'Ping', hostname: '192.0.2.1', alerts, groups } });
    expect((await call('GET', '/v1/Config/Monitor/10002/')).status).toBe(404);
    expect((await call('GET', `/v1/Config/Alert/${alerts[0]}/`)).status).toBe(404);
    expect((await call('GET', `/v1/Config/Group/${groups[0]}/`)).json.group.monitors).toEqual([{ id: '10001', label: 'www-http' }]);
  });

  it('answers 404 for unknown ids', async () => {
    for (const [method, body] of [['GET'], ['PUT', {}], ['DELETE']] as const) {
      const r = await call(method, '/v1/Config/Monitor/99999/', body);
      expect(r.status).toBe(404);
      expect(r.json).toEqual({ path: '/v1/Config/Monitor/99999/', error: 'monitor 99999 not found' });
    }
  });

  it('deletes a monitor with its alerts and group memberships', async () => {
    const m = await createMonitor();
    const other = await createMonitor({ label: 'other' });
    const a = await createAlert(m.id);
    const g = (await call('POST', '/v1/Config/Group/', { name: 'g', monitors: [m.id, other.id] })).json.group;
    await call('POST', `/v1/Pause/Alert/${a.id}/`, { seconds: 600 });
    expect((await call('GET', `/v1/Config/Monitor/${m.id}/`)).json.monitor).toMatchObject({ alerts: [a.id], groups: [g.id] });

    const del = await call('DELETE', `/v1/Config/Monitor/${m.id}/`);
    expect(del.status).toBe(200);
    expect(del.json.monitor).toMatchObject({ id: m.id, label: 'mx-primary' });
    expect((await call('GET', `/v1/Config/Alert/${a.id}/`)).status).toBe(404);
    expect((await call('GET', '/v1/Config/Alert/')).json.alert_list).toEqual([]);
    expect((await call('GET', '/v1/Pause/Alert/')).json.alert_list).toEqual([]);
    expect((await call('GET', `/v1/Config/Group/${g.id}/`)).json.group.monitors).toEqual([{ id: other.id, label: 'other' }]);
  });
});

describe('alerts (4.5)', () => {
  it('creates, lists in display form, reads, modifies and deletes', async () => {
    const m = await createMonitor();
    const created = await call('POST', '/v1/Config/Alert/', {
      type: 'up-down',
      monitor: m.id,
      subject_init: 'mx down',
      subject_term: 'mx up',
      timeout: 15,
      alert_destinations: ['701', '702'],
    });
    expect(created.status).toBe(200);
    const a = created.json.alert;
    expect(a).toEqual({
      id: '50001',
      type: 'up-down',
      monitor: m.id,
      alert_destinations: ['701', '702'],
      subject_init: 'mx down',
      subject_term: 'mx up',
      message_init: '',
      message_term: '',
      down_only: false,
      repeat: false,
      timeout: 15,
    });
    expect((await call('GET', `/v1/Config/Monitor/${m.id}/`)).json.monitor.alerts).toEqual([a.id]);

    const list = await call('GET', '/v1/Config/Alert/');
    expect(list.json.alert_list).toEqual([{ ...a, type: 'Up/Down Alert', violations: '0' }]);
    expect((await call('GET', `/v1/Config/Alert/${a.id}/`)).json.alert).toEqual(a);

    const body = { type: 'up-down', monitor: m.id, subject_init: 'S', subject_term: 'T', timeout: 20, repeat: true, message_init: 'm' };
    const put = await call('PUT', `/v1/Config/Alert/${a.id}/`, body);
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({ path: `/v1/Config/Alert/${a.id}/`, error: null });
    expect(put.json.alert).toMatchObject({ subject_init: 'S', timeout: 20, repeat: true, message_init: 'm', alert_destinations: [] });

    const del = await call('DELETE', `/v1/Config/Alert/${a.id}/`);
    expect(del.json.alert).toEqual(put.json.alert);
    expect((await call('GET', `/v1/Config/Monitor/${m.id}/`)).json.monitor.alerts).toEqual([]);
  });

  it('accepts Modify Alert under the doubled /v1/v1/ prefix', async () => {
    const m = await createMonitor();
    const a = await createAlert(m.id);
    const r = await call('PUT', `/v1/v1/Config/Alert/${a.id}`, { type: 'up-down', monitor: m.id, subject_init: 'x', subject_term: 'y', timeout: 3 });
    expect(r.status).toBe(200);
    expect(r.json.path).toBe(`/v1/v1/Config/Alert/${a.id}`);
    expect(r.json.alert.subject_init).toBe('x');
  });

  it.each([
    [{ type: 'threshold' }, 'type: threshold is not one of up-down'],
    [{ monitor: '99999' }, 'monitor: unknown monitor id 99999'],
    [{ monitor: undefined }, 'monitor: required'],
    [{ subject_init: undefined }, 'subject_init: required'],
    [{ subject_term: undefined }, 'subject_term: required'],
    [{ timeout: undefined }, 'timeout: required'],
    [{ timeout: 0 }, 'timeout: 0 must be at least 1'],
    [{ timeout: 2.5 }, 'timeout: must be an integer'],
    [{ alert_destinations: ['999'] }, 'alert_destinations: unknown destination id 999'],
    [{ alert_destinations: '701' }, 'alert_destinations: must be an array'],
    [{ down_only: 'no' }, 'down_only: must be a boolean'],
    [{ message_init: 5 }, 'message_init: must be a string'],
  ])('rejects %j with 400', async (over, message) => {
    const m = await createMonitor();
    const r = await call('POST', '/v1/Config/Alert/', {
      type: 'up-down',
      monitor: m.id,
      subject_init: 'down',
      subject_term: 'up',
      timeout: 10,
      ...over,
    });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain(message);
  });

  it('validates PUT like create and 404s unknown alerts', async () => {
    const m = await createMonitor();
    const a = await createAlert(m.id);
    const r = await call('PUT', `/v1/Config/Alert/${a.id}/`, { subject_init: 'only this' });
    expect(r.status).toBe(400);
    expect(r.json.error).toContain('type: required');
    expect((await call('GET', '/v1/Config/Alert/1/')).status).toBe(404);
    expect((await call('DELETE', '/v1/Config/Alert/1/')).status).toBe(404);
  });
});

describe('groups (4.3)', () => {
  it('follows the documented shapes of each response', async () => {
    const m1 = await createMonitor({ label: 'one' });
    const m2 = await createMonitor({ label: 'two' });
    const empty = await call('POST', '/v1/Config/Group/', { name: 'empty' });
    expect(empty.json.group).toEqual({ id: '301', name: 'empty', monitors: null });
    const created = await call('POST', '/v1/Config/Group/', { name: 'mail', monitors: [m1.id] });
    expect(created.json.group).toEqual({ id: '302', name: 'mail', monitors: [m1.id] });

    const list = await call('GET', '/v1/Config/Group/');
    expect(list.json.groups).toEqual([
      { id: '301', name: 'empty' },
      { id: '302', name: 'mail' },
    ]);
    const one = await call('GET', '/v1/Config/Group/302/');
    expect(one.json.group).toEqual({ id: '302', name: 'mail', monitors: [{ id: m1.id, label: 'one' }] });

    const add = await call('PUT', '/v1/Config/Group/302/', { name: 'mail', monitors: [m2.id] });
    expect(add.json).toMatchObject({ replace: false, error: null });
    expect(add.json.group.monitors).toEqual([
      { id: m1.id, label: 'one' },
      { id: m2.id, label: 'two' },
    ]);
    const repl = await call('PUT', '/v1/Config/Group/302/', { name: 'renamed', monitors: [m2.id], replace: true });
    expect(repl.json).toMatchObject({ replace: true, group: { id: '302', name: 'renamed', monitors: [{ id: m2.id, label: 'two' }] } });
    expect((await call('GET', `/v1/Config/Monitor/${m1.id}/`)).json.monitor.groups).toEqual([]);
    expect((await call('GET', `/v1/Config/Monitor/${m2.id}/`)).json.monitor.groups).toEqual(['302']);

    const del = await call('DELETE', '/v1/Config/Group/302/');
    expect(del.json).toEqual({ path: '/v1/Config/Group/302/', error: null, name: 'renamed', id: '302' });
    expect((await call('GET', `/v1/Config/Monitor/${m2.id}/`)).json.monitor.groups).toEqual([]);
  });

  it('rejects bad bodies and unknown ids', async () => {
    expect((await call('POST', '/v1/Config/Group/', {})).json.error).toContain('name: required');
    const unknown = await call('POST', '/v1/Config/Group/', { name: 'g', monitors: ['424242'] });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toContain('monitors: unknown monitor id 424242');
    expect((await call('PUT', '/v1/Config/Group/301/', { name: 'x' })).status).toBe(404);
    const g = (await call('POST', '/v1/Config/Group/', { name: 'g' })).json.group;
    expect((await call('PUT', `/v1/Config/Group/${g.id}/`, { name: 'g', replace: 'yes' })).json.error).toContain('replace: must be a boolean');
    expect((await call('GET', '/v1/Config/Group/999/')).status).toBe(404);
    expect((await call('DELETE', '/v1/Config/Group/999/')).status).toBe(404);
  });
});

describe('alert destinations (4.7)', () => {
  it('lists and reads the seeded destinations, read only', async () => {
    const list = await call('GET', '/v1/Config/AlertDestination/');
    expect(list.json.alertdestination_list.map((d: any) => [d.label, d.type, d.subscribed])).toEqual([
      ['ops-mail', 'email', true],
      ['oncall-sms', 'sms', true],
      ['duty-voice', 'voice', true],
      ['legacy-mail', 'EMAIL', false],
    ]);
    const one = await call('GET', '/v1/Config/AlertDestination/704/');
    expect(one.json.alertdestination).toMatchObject({ id: '704', label: 'legacy-mail', type: 'EMAIL' });
    expect((await call('GET', '/v1/Config/AlertDestination/1/')).status).toBe(404);
    const post = await call('POST', '/v1/Config/AlertDestination/', { label: 'x' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET');
  });
});
