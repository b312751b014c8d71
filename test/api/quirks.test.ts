/**
 * Normalisation reports the wire quirks it absorbs (src/api/quirks.ts), so `monsync doctor` can show
 * which unexpected shapes a service sent; an answer in the documented shape reports none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { normalizeAlert, normalizeDestination, normalizeGroup, normalizeMonitor, normalizeTestData } from '../../src/api/normalize.js';
import { QuirkCounter } from '../../src/api/quirks.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import { alert, monitor } from '../export/live-fixture.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

// A canonical monitor is the documented wire shape: nothing to absorb.
const documented = monitor({ id: '10001', label: 'mx-1', meta: { region: 'eu' }, alerts: ['50001'], groups: ['301'] });

function counted(f: (origin: { method: string; path: string; quirks: QuirkCounter }) => void): { quirk: string; detail: string; count: number }[] {
  const quirks = new QuirkCounter();
  f({ method: 'GET', path: '/x', quirks });
  return quirks.list();
}

describe('quirk counting in normalisation', () => {
  it('notes nothing for answers in the documented shape', () => {
    expect(
      counted((o) => {
        normalizeMonitor(documented, 'monitor', o);
        normalizeAlert(alert({ id: '50001', monitor: '10001', subject_init: 'a' }), 'alert', o);
        normalizeDestination({ id: '701', label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }, 'd', o);
        normalizeGroup({ id: '301', name: 'g', monitors: [{ id: '10001', label: 'mx-1' }] }, 'group', o);
        normalizeTestData({ complete: true, duration: 3 }, 'last_test', o);
      }),
    ).toEqual([]);
  });

  it('notes each quirk it absorbs, with the field or the value as sent, as often as it met it', () => {
    const quirky = {
      ...documented,
      id: 10002,
      type: 'SMTP',
      ip_address: undefined,
      hostname: 'mx.example.org',
      timer: '5',
      ttl: '0',
      ipv6: 0,
      use_tls: 'AUTO',
      attachment: '',
      meta: [],
      groups: undefined,
    };
    expect(
      counted((o) => {
        normalizeMonitor(quirky, 'monitor', o);
        normalizeMonitor({ ...quirky, timer: '10' }, 'monitor', o);
        normalizeAlert({ id: '1', type: 'Up/Down Alert', monitor: '10001', subject_init: 'a', subject_term: 'b' }, 'alert', o);
        normalizeDestination({ id: '701', label: 'ops', destination: 'x', type: 'EMAIL' }, 'd', o);
        normalizeGroup({ id: '301', name: 'g', monitors: ['10001', 10002] }, 'group', o);
        normalizeTestData({ flag: true }, 'last_test', o);
      }),
    ).toEqual([
      { quirk: 'alert-type-form', detail: 'Up/Down Alert', count: 1 },
      { quirk: 'boolean-as-number-or-string', detail: 'ipv6', count: 2 },
      { quirk: 'destination-type-case', detail: 'EMAIL', count: 1 },
      { quirk: 'empty-attachment', detail: 'attachment', count: 2 },
      { quirk: 'enum-case', detail: 'use_tls', count: 2 },
      { quirk: 'flag-for-complete', detail: 'flag', count: 1 },
      { quirk: 'group-members-as-ids', detail: 'monitors', count: 2 },
      { quirk: 'hostname-for-ip-address', detail: 'hostname', count: 2 },
      { quirk: 'id-as-number', detail: 'id', count: 2 },
      { quirk: 'meta-as-array', detail: 'meta', count: 2 },
      { quirk: 'monitor-type-form', detail: 'SMTP', count: 2 },
      { quirk: 'monitor-without-groups', detail: 'smtp', count: 2 },
      { quirk: 'number-as-string', detail: 'timer', count: 2 },
      { quirk: 'number-as-string', detail: 'ttl', count: 2 },
    ]);
  });
});

describe('a client', () => {
  let emu: TestEmulator;
  beforeAll(async () => {
    emu = await startTestEmulator({ seed: 'default' });
  });
  afterAll(async () => {
    await emu.close();
  });

  it('collects the quirks of every answer it read: the default emulator account shows the documented ones', async () => {
    const client = new MonitoringClient({ baseUrl: emu.url, username: DEFAULT_CREDENTIALS.v1.user, password: DEFAULT_CREDENTIALS.v1.password });
    try {
      expect(client.quirks()).toEqual([]);
      await Promise.all([client.listMonitors(), client.listDestinations()]);
      expect(client.quirks().map((q) => `${q.quirk} ${q.detail} x${q.count}`)).toEqual([
        'destination-type-case EMAIL x1',
        'empty-attachment attachment x1',
        'hostname-for-ip-address hostname x1',
        'monitor-type-form DNS Query x1',
        'monitor-type-form HTTP x1',
        'monitor-type-form Ping x1',
        'number-as-string timer x1',
      ]);
    } finally {
      await client.close();
    }
  });
});
