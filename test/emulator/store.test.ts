import { describe, expect, it } from 'vitest';
import { EmulatorClock } from '../../src/emulator/clock.js';
import { StoreError } from '../../src/emulator/errors.js';
import { DEFAULT_SEED, applySeed } from '../../src/emulator/seed.js';
import { EmulatorStore, displayType } from '../../src/emulator/store/index.js';
import { storeOfThousands } from '../bench/workloads.js';

const smtp = (over: Record<string, unknown> = {}): Record<string, unknown> => ({
  type: 'smtp',
  label: 'mx-a',
  timer: 5,
  time_zone: 'Europe/Berlin',
  ip_address: 'mx.example.com',
  test_account: 'probe@example.com',
  ...over,
});

function newStore(): EmulatorStore {
  return new EmulatorStore(new EmulatorClock());
}

function storeError(fn: () => unknown): StoreError {
  try {
    fn();
  } catch (err) {
    if (err instanceof StoreError) return err;
    throw err;
  }
  throw new Error('expected a StoreError');
}

describe('ids and defaults', () => {
  it('assigns per-kind ids from their counters', () => {
    const s = newStore();
    applySeed(s, 'default');
    expect(s.listDestinations().map((d) => d.id)).toEqual(['701', '702', '703', '704']);
    expect(s.listMonitors().map((m) => m.id)).toEqual(['10001', '10002', '10003', '10004']);
    const m = s.createMonitor(smtp());
    expect(m.id).toBe('10005');
    const a = s.createAlert({ type: 'up-down', monitor: m.id, subject_init: 'down', subject_term: 'up', timeout: 10 });
    expect(a.id).toBe('50001');
    expect(s.createGroup({ name: 'g' }).id).toBe('301');
  });

  it('fills documented defaults and server-set fields on create', () => {
    const m = newStore().createMonitor(smtp());
    expect(m).toMatchObject({
      port: 25,
      use_tls: 'auto',
      ipv6: false,
      message_format: 'text/plain',
      attachment: '',
      ttl: 0,
      meta: {},
      alerts: [],
      groups: [],
      timeout: 30,
      data_label: 'seconds',
      description: null,
      use_client_cert: false,
    });
  });

  it('keeps generated ids clear of explicit seeded ids', () => {
    const s = newStore();
    const r = s.seed({ monitors: [{ label: 'a', type: 'HTTP' }, { id: '10001', label: 'b', type: 'Ping' }] });
    expect(r.monitors).toEqual(['10002', '10001']);
    expect(s.createMonitor(smtp()).id).toBe('10003');
  });
});

describe('validation', () => {
  it('lists every bad field with its value', () => {
    const err = storeError(() =>
      newStore().createMonitor(smtp({ timer: 7, time_zone: 'Europe/Berln', use_tls: 'yes', ttl: 45, attachment: 'zip' })),
    );
    expect(err.status).toBe(400);
    expect(err.message).toContain('timer: 7 is not one of 3, 5, 10, 15, 20, 30');
    expect(err.message).toContain('time_zone: unknown zone Europe/Berln');
    expect(err.message).toContain('use_tls: yes is not one of off, on, auto');
    expect(err.message).toContain('ttl: 45 is not one of 0, 30, 60, 180, 300, 600, 1800');
    expect(err.message).toContain('attachment: zip is not one of docx, pdf');
  });

  it.each(['UTC', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires', 'US/Eastern'])('accepts time zone %s', (tz) => {
    expect(newStore().createMonitor(smtp({ time_zone: tz })).time_zone).toBe(tz);
  });

  it.each(['europe/london', 'Mars/Olympus', '+01:00', ''])('rejects time zone %j', (tz) => {
    expect(storeError(() => newStore().createMonitor(smtp({ time_zone: tz }))).message).toMatch(/^time_zone: /);
  });

  it.each(['mx', 'mx:failover', '192.0.2.7', '2001:db8::1', 'mail.example.com', 'localhost'])('accepts ip_address %s', (ip) => {
    expect(newStore().createMonitor(smtp({ ip_address: ip })).ip_address).toBe(ip);
  });

  it.each(['mx:other', 'bad host', '1.2.3.999', '-x.example.com'])('rejects ip_address %s', (ip) => {
    expect(storeError(() => newStore().createMonitor(smtp({ ip_address: ip }))).message).toContain('ip_address:');
  });

  it.each(['nobody', 'a@b', 'a b@example.com', '@example.com', 'a@example.com.'])('rejects test_account %s', (e) => {
    expect(storeError(() => newStore().createMonitor(smtp({ test_account: e }))).message).toContain(
      `test_account: ${e} is not a valid e-mail address`,
    );
  });

  it('rejects a monitor type other than smtp, and unknown fields', () => {
    expect(storeError(() => newStore().createMonitor(smtp({ type: 'http' }))).message).toContain('type: http is not one of smtp');
    expect(storeError(() => newStore().createMonitor(smtp({ colour: 'red' }))).message).toContain('unknown field colour');
  });

  it('requires the create fields but none on update', () => {
    const s = newStore();
    const err = storeError(() => s.createMonitor({ type: 'smtp' }));
    for (const f of ['label', 'timer', 'time_zone', 'ip_address', 'test_account']) expect(err.message).toContain(`${f}: required`);
    const m = s.createMonitor(smtp());
    expect(s.updateMonitor(m.id as string, {})).toEqual(m);
  });
});

describe('updates', () => {
  it('changes only given fields and replaces meta entirely', () => {
    const s = newStore();
    const m = s.createMonitor(smtp({ meta: { a: '1', b: '2' }, port: 2525 }));
    const u = s.updateMonitor(m.id as string, { meta: { c: '3' }, timer: 30 });
    expect(u).toEqual({ ...m, meta: { c: '3' }, timer: 30 });
  });

  it('refuses to modify monitors of other types, but deletes them', () => {
    const s = newStore();
    applySeed(s, 'default');
    expect(storeError(() => s.updateMonitor('10001', { label: 'x' })).status).toBe(400);
    expect(s.deleteMonitor('10001')).toMatchObject({ id: '10001', type: 'HTTP' });
    expect(s.hasMonitor('10001')).toBe(false);
  });

  it('moves an alert when its monitor changes', () => {
    const s = newStore();
    const m1 = s.createMonitor(smtp()).id as string;
    const m2 = s.createMonitor(smtp({ label: 'b' })).id as string;
    const body = { type: 'up-down', monitor: m1, subject_init: 'd', subject_term: 'u', timeout: 5 };
    const a = s.createAlert(body).id as string;
    s.updateAlert(a, { ...body, monitor: m2 });
    expect(s.getMonitor(m1).alerts).toEqual([]);
    expect(s.getMonitor(m2).alerts).toEqual([a]);
  });
});

describe('cascade on monitor delete', () => {
  it('deletes the alerts, their pauses, and the group memberships', () => {
    const s = newStore();
    const m = s.createMonitor(smtp()).id as string;
    const keep = s.createMonitor(smtp({ label: 'keep' })).id as string;
    const a = s.createAlert({ type: 'up-down', monitor: m, subject_init: 'd', subject_term: 'u', timeout: 5 }).id as string;
    const g = s.createGroup({ name: 'g', monitors: [m, keep] }).id;
    s.pauseAlert(a, 600);
    expect(s.getMonitor(m)).toMatchObject({ alerts: [a], groups: [g] });

    const deleted = s.deleteMonitor(m);
    expect(deleted).toMatchObject({ id: m, alerts: [a], groups: [g] });
    expect(s.hasAlert(a)).toBe(false);
    expect(s.listPauses()).toEqual([]);
    expect(s.getGroup(g).monitors).toEqual([{ id: keep, label: 'keep' }]);
    expect(storeError(() => s.getMonitor(m)).status).toBe(404);
  });

  it('removes a deleted group from its monitors', () => {
    const s = newStore();
    const m = s.createMonitor(smtp()).id as string;
    const g = s.createGroup({ name: 'g', monitors: [m] }).id;
    s.deleteGroup(g);
    expect(s.getMonitor(m).groups).toEqual([]);
  });
});

describe('pauses and status', () => {
  it('expires pauses on the emulator clock and reports seconds remaining', () => {
    const clock = new EmulatorClock();
    const s = new EmulatorStore(clock);
    const m = s.createMonitor(smtp()).id as string;
    const a = s.createAlert({ type: 'up-down', monitor: m, subject_init: 'd', subject_term: 'u', timeout: 5 }).id as string;
    s.setAlertActive(m, true);
    expect(s.status().global_alert_active).toBe(true);
    s.pauseMonitor(m, 120);
    expect(s.listPauses()).toEqual([{ id: a, monitor: m, seconds: 120 }]);
    expect(s.status().monitor_list[0]?.alert_active).toBe(false);
    clock.advance(100);
    expect(s.listPauses()[0]?.seconds).toBe(20);
    clock.advance(20);
    expect(s.listPauses()).toEqual([]);
    expect(s.status().monitor_list[0]?.alert_active).toBe(true);
  });

  it('unpauses an alert given its id where a monitor id is expected', () => {
    const s = newStore();
    const m = s.createMonitor(smtp()).id as string;
    const a = s.createAlert({ type: 'up-down', monitor: m, subject_init: 'd', subject_term: 'u', timeout: 5 }).id as string;
    s.pauseAll(60);
    expect(s.resumeMonitor(a)).toEqual([a]);
    expect(s.listPauses()).toEqual([]);
    expect(storeError(() => s.resumeMonitor('999')).status).toBe(404);
  });

  it('shows display types in v1 and lower case in v2', () => {
    expect(['smtp', 'HTTP', 'ping', 'dns-query', 'DNS Query', 'tcp_port', 'Weird'].map(displayType)).toEqual([
      'SMTP',
      'HTTP',
      'Ping',
      'DNS Query',
      'DNS Query',
      'TCP Port',
      'Weird',
    ]);
    const s = newStore();
    applySeed(s, 'default');
    expect(s.statusV2(true).monitors.map((e) => e.type)).toEqual(['http', 'ping', 'dns query', 'smtp']);
  });
});

describe('seed', () => {
  it('stores quirky raw objects as given', () => {
    const s = newStore();
    applySeed(s, 'default');
    const byLabel = Object.fromEntries(s.listMonitors().map((m) => [m.label, m]));
    expect(byLabel['www-http']).toMatchObject({ type: 'HTTP', timer: '5' });
    expect(byLabel['gw-ping']).toHaveProperty('hostname');
    expect(byLabel['gw-ping']).not.toHaveProperty('ip_address');
    expect(byLabel['legacy-mx']).toMatchObject({ ip_address: 'mx', test_account: 'probe@example.org', timer: 10, meta: {} });
    expect(s.listDestinations().find((d) => d.label === 'legacy-mail')).toMatchObject({ type: 'EMAIL', subscribed: false });
    expect(DEFAULT_SEED.monitors).toHaveLength(4);
  });

  it('is all or nothing and rejects duplicate ids with 409', () => {
    const s = newStore();
    s.seed({ monitors: [{ id: 'm1', label: 'a', type: 'HTTP' }] });
    expect(storeError(() => s.seed({ monitors: [{ id: 'm1', label: 'b', type: 'HTTP' }] })).status).toBe(409);
    expect(storeError(() => s.seed({ monitors: [{ label: 'c', type: 'HTTP' }], alerts: [{ monitor: 'nope' }] })).status).toBe(400);
    expect(s.listMonitors()).toHaveLength(1);
  });

  it('links seeded alerts and groups to seeded monitors', () => {
    const s = newStore();
    const r = s.seed({
      monitors: [{ id: 'm1', label: 'a', type: 'HTTP' }],
      alerts: [{ monitor: 'm1', type: 'up-down', subject_init: 'x' }],
      groups: [{ name: 'g', monitors: ['m1'] }],
    });
    // Seeded monitors without `alerts` / `groups` fields keep them omitted, as given.
    expect(s.getMonitor('m1')).not.toHaveProperty('groups');
    expect(s.getGroup(r.groups[0] as string).monitors).toEqual([{ id: 'm1', label: 'a' }]);
    expect(s.listAlerts()[0]).toMatchObject({ monitor: 'm1', type: 'Up/Down Alert', violations: '0' });
    s.seed({ monitors: [{ id: 'm2', label: 'b', type: 'HTTP', alerts: [], groups: [] }], alerts: [{ monitor: 'm2' }] });
    expect(s.getMonitor('m2').alerts).toEqual([s.listAlerts()[1]?.id]);
  });
});

describe('snapshot', () => {
  it('round-trips the whole state including counters and pauses', () => {
    const clock = new EmulatorClock();
    const s = new EmulatorStore(clock);
    applySeed(s, 'default');
    const m = s.createMonitor(smtp({ meta: { 'managed-by': 'monsync' } })).id as string;
    const a = s.createAlert({ type: 'up-down', monitor: m, subject_init: 'd', subject_term: 'u', timeout: 5 }).id as string;
    s.createGroup({ name: 'g', monitors: [m, '10001'] });
    s.pauseAlert(a, 300);
    s.setAlertActive(m, true);
    s.addData(m, [{ utc_mktime: 1000, value: 2.5 }], undefined);

    const copy = new EmulatorStore(new EmulatorClock());
    copy.load(JSON.parse(JSON.stringify(s.snapshot())));
    expect(copy.snapshot()).toEqual(s.snapshot());
    expect(copy.createMonitor(smtp()).id).toBe(String(Number(m) + 1));
  });

  it('rejects something that is not a state', () => {
    expect(() => newStore().load({ hello: 1 })).toThrow(/not a monsync emulator state/);
    const s = newStore();
    const snap = s.snapshot() as unknown as Record<string, unknown>;
    expect(() => newStore().load({ ...snap, monitors: 'x' })).toThrow(/monitors must be an array/);
  });
});

describe('scale', () => {
  // How fast is a benchmark (issue 34): test/bench/in-process.bench.ts times this same work.
  it('serves 10,000 monitors and 20,000 alerts: lists, status, filter counts, pauses and deletes', () => {
    const counts = storeOfThousands();
    expect(counts).toEqual({ monitors: 10_000, alerts: 20_000, status: 10_000, filtered: expect.any(Number), pauses: 20_000, alertsAfterDeletes: 18_000 });
    expect(counts.filtered).toBeGreaterThan(1000);
  });
});
