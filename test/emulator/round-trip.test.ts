/**
 * A test in flight, and round trips made to fail through the control API (POST
 * /_emulator/round-trip): no forwarder, a refused recipient, a late reply. The clock is moved,
 * never waited on.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { apiCall, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

/** 30 s into a minute, as the other simulation tests. */
const T0 = 1_717_999_980 + 30;

let emu: TestEmulator;
beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(() => emu.close());
beforeEach(async () => {
  await emu.control.reset('empty');
  await emu.control.setClock(T0);
  await emu.control.simulation({ failure_rate: 0 });
});

const call = (method: string, path: string, body?: unknown) => apiCall(emu, method, path, body === undefined ? {} : { body });

async function monitor(over: Record<string, unknown> = {}): Promise<string> {
  const r = await call('POST', '/v1/Config/Monitor/', { type: 'smtp', label: 'mx-a', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'probe@example.org', ...over });
  expect(r.status).toBe(200);
  return r.json.monitor.id as string;
}

const roundTrip = (monitor: string, fault: unknown) => call('POST', '/_emulator/round-trip', { monitor, fault });

async function at(seconds: number): Promise<void> {
  await emu.control.setClock(T0 + seconds);
}

async function firstTest(id: string) {
  const { now } = await emu.control.clock();
  const items = (await call('GET', `/v1/Data/Monitor/${id}/?begin=${T0}&end=${now}`)).json.data as { value: number | null; failed: boolean; error: string | null; utc_mktime: number }[];
  const filter = (await call('GET', '/v1/Status/Filter/?prefix=mx-a&t=3600')).json.monitor_list[0];
  return { item: items[0], lastTest: filter.last_test, failCount: filter.fail_count as number };
}

describe('a test in flight', () => {
  it('shows no reply, no error and not complete until the reply arrives, then its round trip', async () => {
    const id = await monitor();
    await at(300);
    const started = await firstTest(id);
    expect(started.item).toMatchObject({ utc_mktime: T0 + 300, value: null, failed: false, error: null });
    expect(started.lastTest).toMatchObject({ flag: false, duration: null, error: null, time_term: null, utc_time_term: null, utc_mktime: T0 + 300 });
    expect(started.failCount).toBe(0);
    // Before the next test starts (at 600 s): the first one's reply, however slow, is in by then.
    await at(599);
    const back = await firstTest(id);
    expect(back.item!.value).toBeGreaterThan(0);
    expect(back.lastTest).toMatchObject({ flag: true, error: null });
    expect(back.lastTest.duration).toBeGreaterThanOrEqual(1);
  });
});

describe('round trips made to fail (POST /_emulator/round-trip)', () => {
  it('no-forwarder: the message never comes back; in flight until the ttl, then no response', async () => {
    const id = await monitor({ ttl: 60 });
    expect((await roundTrip(id, 'no-forwarder')).json).toEqual({ monitor: id, fault: 'no-forwarder' });
    await at(300 + 59);
    expect((await firstTest(id)).item).toMatchObject({ value: null, failed: false, error: null });
    await at(300 + 60);
    const gone = await firstTest(id);
    expect(gone.item).toMatchObject({ value: null, failed: true, error: 'no response: the test message did not come back' });
    expect(gone.failCount).toBe(1);
  });

  it('no-forwarder without a ttl: in flight for the longest round trip (300 s)', async () => {
    const id = await monitor();
    await roundTrip(id, 'no-forwarder');
    await at(300 + 299);
    expect((await firstTest(id)).item).toMatchObject({ failed: false, error: null });
    await at(300 + 300);
    expect((await firstTest(id)).item).toMatchObject({ failed: true, error: 'no response: the test message did not come back' });
  });

  it('refused: the delivery host refuses the test account, known from the start of the test', async () => {
    const id = await monitor();
    await roundTrip(id, 'refused');
    await at(300);
    expect((await firstTest(id)).item).toMatchObject({ value: null, failed: true, error: '550 5.1.1 test account mailbox unavailable' });
  });

  it('late: the reply comes 60 s after the ttl; in flight until the ttl, failed without a reply until it comes, then a late reply', async () => {
    const id = await monitor({ ttl: 30 });
    await roundTrip(id, 'late');
    await at(300 + 29);
    expect((await firstTest(id)).item).toMatchObject({ failed: false, error: null, value: null });
    await at(300 + 30);
    expect((await firstTest(id)).item).toMatchObject({ failed: true, error: 'no reply within the ttl of 30 s', value: null });
    await at(300 + 89);
    expect((await firstTest(id)).lastTest).toMatchObject({ flag: false, duration: null, time_term: null, error: 'no reply within the ttl of 30 s' });
    await at(300 + 90);
    const late = await firstTest(id);
    expect(late.item).toMatchObject({ value: 90_000, failed: true, error: 'reply after 90 s, past the ttl of 30 s' });
    expect(late.lastTest).toMatchObject({ flag: false, duration: 90, utc_time_term: null });
  });

  it('none ends the fault: results are the simulation own again', async () => {
    const id = await monitor();
    await roundTrip(id, 'refused');
    expect((await roundTrip(id, 'none')).json).toEqual({ monitor: id, fault: 'none' });
    await at(600);
    expect((await firstTest(id)).item!.failed).toBe(false);
  });

  it('refuses an unknown fault, an unknown key and an unknown monitor', async () => {
    const id = await monitor();
    expect(await roundTrip(id, 'slow')).toMatchObject({ status: 400, json: { error: 'round-trip: fault must be one of none, no-forwarder, refused, late, got slow' } });
    expect(await call('POST', '/_emulator/round-trip', { monitor: id, fault: 'late', seconds: 3 })).toMatchObject({ status: 400 });
    expect(await roundTrip('99999', 'late')).toMatchObject({ status: 404, json: { error: 'round-trip: monitor 99999 not found' } });
  });

  it('survives a restart with a state file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'monsync-rt-'));
    try {
      const statePath = join(dir, 'state.json');
      const a = await startTestEmulator({ seed: 'empty', statePath });
      const created = await apiCall(a, 'POST', '/v1/Config/Monitor/', { body: { type: 'smtp', label: 'mx-a', timer: 5, time_zone: 'UTC', ip_address: 'mx', test_account: 'p@example.org' } });
      const id = created.json.monitor.id as string;
      await apiCall(a, 'POST', '/_emulator/round-trip', { body: { monitor: id, fault: 'refused' } });
      await a.close();
      const b = await startTestEmulator({ seed: 'empty', statePath });
      try {
        await b.control.advance(301);
        const items = (await apiCall(b, 'GET', `/v1/Data/Monitor/${id}/?begin=0`)).json.data;
        expect(items[0]).toMatchObject({ failed: true, error: '550 5.1.1 test account mailbox unavailable' });
      } finally {
        await b.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
