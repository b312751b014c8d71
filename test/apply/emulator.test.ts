/**
 * The engine with the real client against the emulator, with answers dropped after the service
 * acted (the emulator's drop_rate): every lost create must be found by reading back, never made twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { executePlan } from '../../src/apply/execute.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import type { Change } from '../../src/plan/types.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { createAlert, createGroup, createMonitor, makePlan, OWNER, ref } from './plan-builder.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(async () => {
  await emu?.close();
});

function client() {
  return new MonitoringClient({
    baseUrl: emu.url,
    username: DEFAULT_CREDENTIALS.v1.user,
    password: DEFAULT_CREDENTIALS.v1.password,
    timeoutMs: 5000,
    sleep: async () => {},
  });
}

describe('executePlan against the emulator', () => {
  it('creates monitors, alerts and a group exactly once while a third of the answers to writes are lost', async () => {
    const changes: Change[] = [];
    for (let i = 0; i < 12; i++) changes.push(createMonitor(`mx-${i}`));
    for (let i = 0; i < 12; i++) changes.push(createAlert(`mx-${i}`, `mx-${i} is DOWN`, ref(`monitor:mx-${i}`)));
    changes.push(createGroup('production', Array.from({ length: 12 }, (_, i) => ref(`monitor:mx-${i}`))));
    await emu.control.faults({ drop_rate: 0.35, methods: ['POST'], path_prefix: '/v1/Config/', seed: 7 });

    const api = client();
    const result = await executePlan(makePlan(changes), api, { parallelism: 6, owner: OWNER, maxAttempts: 10, sleep: async () => {} });
    await emu.control.clearFaults();

    expect(result.results.filter((r) => r.status !== 'done')).toEqual([]);
    expect(result.readbacks).toBeGreaterThan(0);
    const monitors = await client().listMonitors();
    const alerts = await client().listAlerts();
    const groups = await client().listGroups();
    expect(monitors.map((m) => m.label).sort()).toEqual(Array.from({ length: 12 }, (_, i) => `mx-${i}`).sort());
    expect(alerts).toHaveLength(12);
    expect(groups).toHaveLength(1);
    for (const a of alerts) expect(monitors.find((m) => m.id === a.monitor)?.label).toBe(a.subject_init.replace(' is DOWN', ''));
    const group = await client().getGroup(groups[0]!.id);
    expect(group.members.map((m) => m.id).sort()).toEqual(monitors.map((m) => m.id).sort());
  });
});
