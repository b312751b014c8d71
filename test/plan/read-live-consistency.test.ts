/**
 * readLive cross-checks its lists (issue 12, section 1), against the emulator behind a lying proxy:
 * a read that contradicts itself is read once more, whole; a second contradiction rejects with
 * AccountContradictionError, so no plan is ever made from it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MonitoringClient } from '../../src/api/client.js';
import { AccountContradictionError } from '../../src/plan/consistency.js';
import { readLive } from '../../src/plan/read-live.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { emptyAlertList, emptyDestinationList, startLyingProxy, type Lie } from '../helpers/lying-proxy.js';

let emu: TestEmulator;
let ids: { monitors: string[]; alerts: string[]; groups: string[]; destinations: string[] };

const smtp = (label: string) => ({
  type: 'smtp',
  label,
  timer: 5,
  time_zone: 'UTC',
  ip_address: `${label}.example.com`,
  test_account: `probe@example.com`,
  // Seeded monitors are served as given: give the fields the service sets on created ones.
  alerts: [],
  groups: [],
});

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  const { destinations } = await emu.control.seed({
    destinations: [
      { label: 'ops-mail', destination: 'ops@example.com', type: 'email', subscribed: true },
      { label: 'oncall-sms', destination: '+15555550100', type: 'sms', subscribed: true },
    ],
  });
  const { monitors } = await emu.control.seed({ monitors: Array.from({ length: 6 }, (_, i) => smtp(`mx-${i}`)) });
  const { alerts } = await emu.control.seed({
    alerts: monitors.map((m, i) => ({
      type: 'up-down',
      monitor: m,
      subject_init: `mx-${i} is DOWN`,
      subject_term: `mx-${i} is UP`,
      timeout: 15,
      alert_destinations: [destinations[i % 2]!],
    })),
  });
  const { groups } = await emu.control.seed({
    groups: [
      { name: 'even', monitors: monitors.filter((_, i) => i % 2 === 0) },
      { name: 'odd', monitors: monitors.filter((_, i) => i % 2 === 1) },
    ],
  });
  ids = { monitors, alerts, groups, destinations };
});

afterAll(async () => {
  await emu.close();
});

async function readThrough(lies: Lie[]) {
  const proxy = await startLyingProxy(emu.url, lies);
  const api = new MonitoringClient({ baseUrl: proxy.url, username: 'demo@example.com', password: 'demo-password' });
  try {
    const result = await readLive(api).catch((err: unknown) => err);
    return { result, requests: api.stats.requests, lied: proxy.lied };
  } finally {
    await api.close();
    await proxy.close();
  }
}

describe('readLive cross-checks the lists it read', () => {
  it('reads a consistent account once (4 requests), with nothing healed', async () => {
    const { result, requests } = await readThrough([]);
    expect(result).toMatchObject({ healed: [], membership: 'monitor-fields' });
    expect(requests).toBe(4);
  });

  it('reads once more after one stale page (8 requests) and returns the second, consistent read', async () => {
    const { result, requests } = await readThrough([{ path: '/v1/Config/Monitor/', rewrite: () => ({ monitor_list: [] }), times: 1 }]);
    expect(requests).toBe(8);
    expect(result).toMatchObject({
      healed: [{ naming: 'alert', missingFrom: 'monitor', ids: ids.monitors }],
      live: { monitors: expect.arrayContaining([expect.objectContaining({ id: ids.monitors[0] })]) },
    });
  });

  it('rejects with AccountContradictionError when the second read contradicts itself too, after exactly two reads', async () => {
    const { result, requests } = await readThrough([{ path: '/v1/Config/Alert/', rewrite: emptyAlertList }]);
    expect(requests).toBe(8);
    expect(result).toBeInstanceOf(AccountContradictionError);
    expect((result as Error).message).toBe(
      `the monitor list names 6 alerts the alert list does not contain (e.g. id ${ids.alerts[0]}): the service answered an incomplete alert list; nothing was sent`,
    );
  });

  it('an empty destination list while alerts name destinations is a contradiction too', async () => {
    const { result } = await readThrough([{ path: '/v1/Config/AlertDestination/', rewrite: emptyDestinationList }]);
    expect(result).toBeInstanceOf(AccountContradictionError);
    expect((result as AccountContradictionError).contradictions).toEqual([
      { naming: 'alert', missingFrom: 'destination', ids: ids.destinations },
    ]);
  });

  it('with single-group reads (a monitor without `groups`), a member the monitor list lacks is a contradiction', async () => {
    // An older-style monitor without the field: membership then comes from single-group reads.
    await emu.control.seed({ monitors: [{ type: 'Ping', label: 'gw', hostname: '192.0.2.1', timer: 5 }] });
    const clean = await readThrough([]);
    expect(clean.result).toMatchObject({ healed: [], membership: 'group-reads' });

    const path = `/v1/Config/Group/${ids.groups[0]}/`;
    const addGhost = (body: Record<string, unknown>) => {
      const g = body.group as { monitors: { id: string; label: string }[] };
      return { ...body, group: { ...g, monitors: [...g.monitors, { id: '99999', label: 'ghost' }] } };
    };
    const { result } = await readThrough([{ path, rewrite: addGhost }]);
    expect(result).toBeInstanceOf(AccountContradictionError);
    expect((result as Error).message).toMatch(/^the single-group reads name 1 monitor the monitor list does not contain \(e\.g\. id 99999\)/);
  });
});
