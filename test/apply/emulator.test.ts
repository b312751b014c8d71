/**
 * The engine with the real client against the emulator, with answers dropped after the service
 * acted (the emulator's drop_rate): every lost create must be found by reading back, never made twice.
 * And one retry budget: a change costs at most 1 + maxRetries requests, counted in the emulator's log.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { executePlan } from '../../src/apply/execute.js';
import { DEFAULT_CREDENTIALS } from '../../src/emulator/index.js';
import type { Change } from '../../src/plan/types.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { createAlert, createGroup, createMonitor, deleteChange, makePlan, OWNER, ref, updateMonitor } from './plan-builder.js';

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
beforeEach(async () => {
  await emu.control.reset('empty');
});
afterAll(async () => {
  await emu?.close();
});

function client(sleep: (ms: number) => Promise<void> = async () => {}) {
  return new MonitoringClient({
    baseUrl: emu.url,
    username: DEFAULT_CREDENTIALS.v1.user,
    password: DEFAULT_CREDENTIALS.v1.password,
    timeoutMs: 5000,
    sleep,
    // Every backoff a wait, so a test's sleep runs: full jitter draws 0 ms (no sleep) once in 200.
    random: () => 0.5,
  });
}

const smtp = (label: string) => ({ type: 'smtp' as const, label, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 't@example.com' });

describe('executePlan against the emulator', () => {
  it('creates monitors, alerts and a group exactly once while a third of the answers to writes are lost', async () => {
    const changes: Change[] = [];
    for (let i = 0; i < 12; i++) changes.push(createMonitor(`mx-${i}`));
    for (let i = 0; i < 12; i++) changes.push(createAlert(`mx-${i}`, `mx-${i} is DOWN`, ref(`monitor:mx-${i}`)));
    changes.push(createGroup('production', Array.from({ length: 12 }, (_, i) => ref(`monitor:mx-${i}`))));
    await emu.control.faults({ drop_rate: 0.35, methods: ['POST'], path_prefix: '/v1/Config/', seed: 7 });

    const api = client();
    const result = await executePlan(makePlan(changes), api, { parallelism: 6, owner: OWNER });
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

  it('updates and deletes converge while half the answers to them are lost', async () => {
    const api = client();
    const made: string[] = [];
    for (let i = 0; i < 8; i++) {
      const m = await api.createMonitor({ type: 'smtp', label: `old-${i}`, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 't@example.com' });
      made.push(m.id);
    }
    const changes = [
      ...made.slice(0, 4).map((id, i) => updateMonitor(`old-${i}`, id, { timer: 10 })),
      ...made.slice(4).map((id, i) => deleteChange('monitor', `old-${i + 4}`, id)),
    ];
    await emu.control.faults({ drop_rate: 0.5, methods: ['PUT', 'DELETE'], seed: 3 });
    const result = await executePlan(makePlan(changes), api, { parallelism: 4, owner: OWNER });
    await emu.control.clearFaults();

    expect(result.results.map((r) => r.status)).toEqual(Array(8).fill('done'));
    const after = await client().listMonitors();
    for (const id of made.slice(0, 4)) expect(after.find((m) => m.id === id)?.timer).toBe(10);
    for (const id of made.slice(4)) expect(after.some((m) => m.id === id)).toBe(false);
  });
});

describe('one retry budget', () => {
  it('an update the service answers 503 every time costs 1 + maxRetries requests, not the engine x the client', async () => {
    const m = await client().createMonitor(smtp('steady-503'));
    await emu.control.clearRequests();
    await emu.control.faults({ error_rate: 1, error_status: 503, methods: ['PUT'] });
    const result = await executePlan(makePlan([updateMonitor('steady-503', m.id, { timer: 10 })]), client(), { parallelism: 1, owner: OWNER });
    await emu.control.clearFaults();
    expect(result.results[0]).toMatchObject({ status: 'failed', attempts: 5 });
    const puts = (await emu.control.requests()).filter((r) => r.method === 'PUT');
    expect(puts).toHaveLength(5);
    expect(puts.every((r) => r.status === 503)).toBe(true);
  });

  it('a create the service answers 503 every time is sent 1 + maxRetries times, each after a lookup finds nothing', async () => {
    await emu.control.faults({ error_rate: 1, error_status: 503, methods: ['POST'] });
    const result = await executePlan(makePlan([createMonitor('steady-503')]), client(), { parallelism: 1, owner: OWNER });
    await emu.control.clearFaults();
    expect(result.results[0]).toMatchObject({ status: 'failed', attempts: 5 });
    expect(result.readbacks).toBe(5);
    const log = await emu.control.requests();
    expect(log.filter((r) => r.method === 'POST')).toHaveLength(5);
    expect(log.filter((r) => r.method === 'GET' && r.path === '/v1/Config/Monitor/')).toHaveLength(5);
    expect(await client().listMonitors()).toEqual([]);
  });

  it('an abort while the client waits to retry stops the retry, and the run is interrupted', async () => {
    const m = await client().createMonitor(smtp('aborted'));
    await emu.control.clearRequests();
    await emu.control.faults({ error_rate: 1, error_status: 503, methods: ['PUT'] });
    const controller = new AbortController();
    // The Ctrl-C comes while the client backs off after the first 503.
    const api = client(async () => controller.abort());
    const changes = [updateMonitor('aborted', m.id, { timer: 10 }), createMonitor('never-started')];
    const result = await executePlan(makePlan(changes), api, { parallelism: 1, owner: OWNER, signal: controller.signal });
    await emu.control.clearFaults();
    expect(result).toMatchObject({ interrupted: true, failed: 1, notStarted: 1 });
    expect(result.results[0]!.error).toMatch(/; interrupted before retrying$/);
    expect((await emu.control.requests()).map((r) => r.method)).toEqual(['PUT']);
  });
});
