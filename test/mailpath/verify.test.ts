/**
 * verifyRoundTrips against the emulator: the first round trip of each monitor, completed, never
 * back, refused or late. Its waits are the emulator's clock moved by the injected sleep: no real
 * time passes.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { connect } from '../../src/api/connect.js';
import type { MonitoringClient } from '../../src/api/client.js';
import { verifyRoundTrips, type VerifyTarget } from '../../src/mailpath/verify.js';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { v1Env } from '../ops/helpers.js';

let emu: TestEmulator;
let api: MonitoringClient;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  api = connect({}, v1Env(emu.url));
});
afterAll(async () => {
  await api.close();
  await emu.close();
});
beforeEach(async () => {
  await emu.control.reset('empty');
  await emu.control.setClock(1_718_000_000);
  await emu.control.simulation({ failure_rate: 0 });
});

async function monitor(label: string, over: Record<string, unknown> = {}): Promise<VerifyTarget> {
  const r = await apiCall(emu, 'POST', '/v1/Config/Monitor/', {
    body: { type: 'smtp', label, timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'probe@example.org', ...over },
  });
  expect(r.status).toBe(200);
  const m = r.json.monitor;
  return { id: m.id, label, timer: m.timer, ttl: m.ttl ?? null };
}

const fault = (id: string, f: string) => apiCall(emu, 'POST', '/_emulator/round-trip', { body: { monitor: id, fault: f } });

/** Each wait moves the emulator clock by 20 s; counts the waits. */
function clockSleep() {
  const waits = { n: 0 };
  return { waits, sleep: async () => void (waits.n++, await emu.control.advance(20)) };
}

describe('apply --verify: the first round trip', () => {
  it('reports the round trip of each monitor as it completes, from the data the service recorded', async () => {
    const a = await monitor('mx-a', { ttl: 300 });
    const { sleep, waits } = clockSleep();
    const [r] = await verifyRoundTrips(api, [a], { sleep, pollMs: 1 });
    expect(r).toMatchObject({ id: a.id, label: 'mx-a', status: 'completed' });
    const data = await api.getMonitorData(a.id, { begin: 0 });
    expect(r!.status === 'completed' && r!.seconds).toBe(Math.round(data.data[0]!.value! / 1000));
    expect(r!.testStarted).toBe(data.data[0]!.utc_mktime);
    // The first test starts 300 s after creation: the clock was moved, not waited on.
    expect(waits.n).toBeGreaterThanOrEqual(15);
  });

  it('says no reply when the message never comes back (no forwarder), and names what the service recorded', async () => {
    const a = await monitor('mx-a', { ttl: 60 });
    await fault(a.id, 'no-forwarder');
    const [r] = await verifyRoundTrips(api, [a], { ...clockSleep(), pollMs: 1 });
    expect(r).toMatchObject({ status: 'no-reply', error: 'no response: the test message did not come back' });
  });

  it('gives the error the service recorded for a refused recipient and for a reply later than the ttl', async () => {
    const refused = await monitor('mx-refused');
    const late = await monitor('mx-late', { ttl: 30 });
    await fault(refused.id, 'refused');
    await fault(late.id, 'late');
    const results = await verifyRoundTrips(api, [refused, late], { ...clockSleep(), pollMs: 1, concurrency: 1 });
    expect(results.map((r) => [r.label, r.status, r.status === 'failed' ? r.error : null])).toEqual([
      ['mx-refused', 'failed', '550 5.1.1 test account mailbox unavailable'],
      ['mx-late', 'failed', 'no reply within the ttl of 30 s'],
    ]);
  });

  it('a monitor deleted while it is verified gets its own line; the others are verified to the end', async () => {
    const kept = await monitor('mx-kept');
    const gone = await monitor('mx-gone');
    let deleted = false;
    const sleep = async () => {
      if (!deleted) {
        deleted = true;
        expect((await apiCall(emu, 'DELETE', `/v1/Config/Monitor/${gone.id}/`)).status).toBe(200);
      }
      await emu.control.advance(20);
    };
    const lines: string[] = [];
    const results = await verifyRoundTrips(api, [kept, gone], { sleep, pollMs: 1, onResult: (r) => lines.push(`${r.label} ${r.status}`) });
    expect(results.map((r) => [r.label, r.status])).toEqual([
      ['mx-kept', 'completed'],
      ['mx-gone', 'deleted'],
    ]);
    expect(lines.sort()).toEqual(['mx-gone deleted', 'mx-kept completed']);
  });

  it('gives up at timer + ttl + the margin when no result ever shows', async () => {
    const a = await monitor('mx-a', { ttl: 60 });
    // Data set through the control API replaces the simulation's: no test ever shows.
    await emu.control.setData(a.id, [{ utc_mktime: 1, value: 1000, failed: false }]);
    const { sleep, waits } = clockSleep();
    const [r] = await verifyRoundTrips(api, [a], { sleep, pollMs: 1, marginSeconds: 60 });
    expect(r).toMatchObject({ status: 'no-reply', error: null });
    const waited = r!.status === 'no-reply' ? r!.waitedSeconds : 0;
    expect(waited).toBeGreaterThanOrEqual(5 * 60 + 60 + 60);
    expect(waited).toBeLessThan(5 * 60 + 60 + 60 + 25);
    expect(waits.n).toBe(Math.ceil((5 * 60 + 60 + 60) / 20));
  });
});
