/**
 * Group membership, measured both ways against the emulator: from each monitor's `groups` field
 * (no extra request) or, when some monitor does not report it, single-group reads for the groups
 * the plan needs. Both must give the same membership; the first must cost no extra request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { readLive } from '../../src/plan/read-live.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const GROUPS = 40;
const LATENCY_MS = 20;

let emu: TestEmulator;
let groupIds: string[];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  const monitors = Array.from({ length: 200 }, (_, i) => ({
    type: 'smtp',
    label: `mx-${i}`,
    timer: 5,
    time_zone: 'UTC',
    ip_address: `mx${i}.example.com`,
    test_account: `probe${i}@example.com`,
    // Seeded objects are served as given: give the fields the service sets on created monitors.
    alerts: [],
    groups: [],
  }));
  const { monitors: ids } = await emu.control.seed({ monitors });
  const groups = Array.from({ length: GROUPS }, (_, g) => ({
    name: `group-${g}`,
    monitors: ids.filter((_, i) => i % GROUPS === g || i % 7 === g % 7),
  }));
  groupIds = (await emu.control.seed({ groups })).groups;
});

afterAll(async () => {
  await emu.close();
});

function client() {
  return new MonitoringClient({ baseUrl: emu.url, username: 'demo@example.com', password: 'demo-password' });
}

async function measure(groupsNeeded?: Set<string>) {
  const api = client();
  const started = performance.now();
  const result = await readLive(api, groupsNeeded ? { groupsNeeded } : {});
  return { ...result, requests: api.stats.requests, wallMs: performance.now() - started };
}

describe('readLive', () => {
  it('derives membership from monitor fields in 4 requests, and it matches single-group reads', async () => {
    await emu.control.faults({ latency_ms: LATENCY_MS });
    try {
      const fromFields = await measure();
      expect(fromFields.membership).toBe('monitor-fields');
      expect(fromFields.requests).toBe(4);

      // Same account, membership read group by group: the truth to compare against.
      const api = client();
      const truth = await Promise.all(groupIds.map((id) => api.getGroup(id)));
      for (const g of truth) {
        const derived = fromFields.live.groups.find((x) => x.id === g.id)!;
        expect(derived.members.map((m) => m.id).sort()).toEqual(g.members.map((m) => m.id).sort());
      }
    } finally {
      await emu.control.clearFaults();
    }
  });

  it('falls back to single-group reads, only for the groups needed, when a monitor lacks `groups`', async () => {
    // An older-style monitor without the field (as other types may come): membership is then unknown.
    await emu.control.seed({ monitors: [{ type: 'Ping', label: 'gw', hostname: '192.0.2.1', timer: 5 }] });
    await emu.control.faults({ latency_ms: LATENCY_MS });
    try {
      const all = await measure();
      const some = await measure(new Set(['group-1', 'group-2']));
      expect(all.membership).toBe('group-reads');
      expect(all.requests).toBe(4 + GROUPS);
      expect(some.requests).toBe(4 + 2);
      // Printed so the cost of each strategy is on record in the test log.
      console.log(
        `membership of ${GROUPS} groups at ${LATENCY_MS} ms latency: group reads ${all.requests} requests ` +
          `${all.wallMs.toFixed(0)} ms; needed groups only ${some.requests} requests ${some.wallMs.toFixed(0)} ms`,
      );
      const byId = new Map(some.live.groups.map((g) => [g.name, g]));
      expect(byId.get('group-1')!.members.length).toBeGreaterThan(0);
    } finally {
      await emu.control.clearFaults();
    }
  });

  it('aborts on a failed read instead of returning an empty account', async () => {
    await emu.control.faults({ error_rate: 1, error_status: 500, path_prefix: '/v1/Config/Alert/' });
    try {
      await expect(measure()).rejects.toMatchObject({ name: 'ApiError' });
    } finally {
      await emu.control.clearFaults();
    }
  });
});
