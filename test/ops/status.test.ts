import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runPause } from '../../src/cli/pause.js';
import { runStatus } from '../../src/cli/status.js';
import { UserError } from '../../src/util/errors.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { seedAccount, v1Env, v2Env, type OpsAccount } from './helpers.js';

let emu: TestEmulator;
let acct: OpsAccount;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  acct = await seedAccount(emu);
});

async function paths(): Promise<string[]> {
  return (await emu.control.requests()).map((r) => `${r.method} ${r.path}`);
}

/**
 * mx-eu-1's row names its active alert and since when; the outage began at `start`: its first failed
 * test comes within one timer (5 minutes) of it.
 */
function expectActiveSince(row: string | undefined, start: number): void {
  expect(row).toMatch(/^mx-eu-1 +smtp +ALERT +"mx-eu-1 is DOWN" since \d{4}-\d\d-\d\d \d\d:\d\d UTC \(last fired [^)]+, monitor time\)$/);
  const since = /since (\S+ \S+) UTC/.exec(row!)![1]!;
  const sinceSeconds = Date.parse(`${since.replace(' ', 'T')}:00Z`) / 1000;
  expect(sinceSeconds).toBeGreaterThanOrEqual(start - 60);
  expect(sinceSeconds).toBeLessThanOrEqual(start + 5 * 60);
}

describe('monsync status', () => {
  it('exits 0 with a summary when no alert is active (v1 without client credentials, said on stderr)', async () => {
    const io = captureIo(v1Env(emu.url));
    expect(await runStatus({}, io)).toBe(0);
    expect(io.stdout).toBe('No monitor has an active alert (3 monitors).\n');
    expect(io.stderr).toMatch(/API v1.*MONSYNC_CLIENT_ID/);
    expect(await paths()).toEqual(['GET /v1/Status/']);
  });

  it('says the same on v2 as on v1 when no alert is active, the number of monitors included', async () => {
    const v2 = captureIo(v2Env(emu.url));
    expect(await runStatus({}, v2)).toBe(0);
    expect(v2.stdout).toBe('No monitor has an active alert (3 monitors).\n');
  });

  it('exits 3 and lists only the alerting monitors; --all lists every one with its state', async () => {
    await emu.control.setAlertActive(acct.monitors.us, true);
    const io = captureIo(v1Env(emu.url));
    expect(await runStatus({}, io)).toBe(3);
    expect(io.stdout.split('\n')).toEqual([
      'MONITOR  TYPE  STATE',
      'mx-us-1  smtp  ALERT',
      '',
      '1 of 3 monitors has an active alert. (--all lists every monitor)',
      '',
    ]);

    const all = captureIo(v1Env(emu.url));
    expect(await runStatus({ all: true }, all)).toBe(3);
    expect(all.stdout.split('\n').slice(0, 4)).toEqual([
      'MONITOR   TYPE  STATE',
      'mx-eu-1   smtp  ok',
      'mx-quiet  smtp  ok',
      'mx-us-1   smtp  ALERT',
    ]);
  });

  it('names the active alert and since when: the first failed test after the last successful one (v1)', async () => {
    // A real outage on the emulator's clock: the alert fires once its timeout has passed.
    const { now: start } = await emu.control.clock();
    await emu.control.outage(acct.monitors.eu, 3600);
    await emu.control.advance(20 * 60);
    const io = captureIo(v1Env(emu.url), { now: () => (start + 20 * 60) * 1000 });
    expect(await runStatus({}, io)).toBe(3);
    const [head, row] = io.stdout.split('\n');
    expect(head).toMatch(/^MONITOR +TYPE +STATE +ALERT$/);
    expectActiveSince(row, start);
    await emu.control.outage(acct.monitors.eu, 0);
  });

  it('with both v1 and v2 credentials the text still names the active alert and since when, as the v1 login can tell', async () => {
    const { now: start } = await emu.control.clock();
    await emu.control.outage(acct.monitors.eu, 3600);
    await emu.control.advance(20 * 60);
    const io = captureIo({ ...v1Env(emu.url), ...v2Env(emu.url) });
    expect(await runStatus({}, io)).toBe(3);
    expect(io.stderr).toMatch(/API v2/);
    const row = io.stdout.split('\n').find((l) => l.startsWith('mx-eu-1'));
    expectActiveSince(row, start);
    await emu.control.outage(acct.monitors.eu, 0);
  });

  it('uses v2 with client credentials only (no v1 login needed) and falls back to v1 without them', async () => {
    await emu.control.setAlertActive(acct.monitors.eu, true);
    await emu.control.setAlertActive(acct.monitors.us, true);
    await emu.control.clearRequests();
    const io = captureIo(v2Env(emu.url));
    expect(await runStatus({ json: true }, io)).toBe(3);
    expect(io.stderr).toMatch(/API v2/);
    expect(await paths()).toEqual(['POST /v2/token', 'GET /v2/status']);
    // v2 is asked for every monitor (without `all` it lists only alerting ones), so it counts as v1 does.
    expect(JSON.parse(io.stdout)).toEqual({
      api: 'v2',
      all: false,
      global_alert_active: true,
      active_count: 2,
      monitor_count: 3,
      monitors: [
        { id: acct.monitors.eu, label: 'mx-eu-1', type: 'smtp', alert_active: true },
        { id: acct.monitors.us, label: 'mx-us-1', type: 'smtp', alert_active: true },
      ],
    });
    const text = captureIo(v2Env(emu.url));
    await runStatus({}, text);
    expect(text.stdout).toContain('2 of 3 monitors have an active alert.');

    await emu.control.clearRequests();
    const both = captureIo({ ...v1Env(emu.url), ...v2Env(emu.url) });
    expect(await runStatus({ all: true, json: true }, both)).toBe(3);
    expect(await paths()).toEqual(['POST /v2/token', 'GET /v2/status']);
    expect(JSON.parse(both.stdout).monitor_count).toBe(3);

    await emu.control.clearRequests();
    const v1 = captureIo(v1Env(emu.url));
    expect(await runStatus({ json: true }, v1)).toBe(3);
    expect(await paths()).toEqual(['GET /v1/Status/']);
    // Same account, same JSON apart from the version, and the same text.
    expect({ ...JSON.parse(v1.stdout), api: 'v2' }).toEqual(JSON.parse(io.stdout));
    const v1Text = captureIo(v1Env(emu.url));
    await runStatus({}, v1Text);
    expect(v1Text.stdout).toBe(text.stdout);
  });

  it('a paused monitor does not count as alerting (v1 reports alert_active false while paused)', async () => {
    await emu.control.setAlertActive(acct.monitors.us, true);
    expect(await runPause({ monitor: ['mx-us-1'], for: '10m' }, captureIo(v1Env(emu.url)))).toBe(0);
    expect(await runStatus({}, captureIo(v1Env(emu.url)))).toBe(0);
    await emu.control.advance(601);
    expect(await runStatus({}, captureIo(v1Env(emu.url)))).toBe(3);
  });

  it('refuses half-given client credentials and a missing URL before any request', async () => {
    await emu.control.clearRequests();
    const half = captureIo({ MONSYNC_URL: emu.url, MONSYNC_CLIENT_ID: 'demo-client' });
    await expect(runStatus({}, half)).rejects.toThrow(/MONSYNC_CLIENT_ID is set but MONSYNC_CLIENT_SECRET is not/);
    await expect(runStatus({}, captureIo({ MONSYNC_CLIENT_ID: 'a', MONSYNC_CLIENT_SECRET: 'b-secret' }))).rejects.toBeInstanceOf(UserError);
    await expect(runStatus({}, captureIo({ MONSYNC_URL: emu.url }))).rejects.toThrow(/no v1 credentials/);
    expect(await paths()).toEqual([]);
  });

  it('a wrong client secret is an error (exit 1 through main), never printed', async () => {
    const io = captureIo({ ...v2Env(emu.url), MONSYNC_CLIENT_SECRET: 'not-the-secret' });
    const err = await runStatus({}, io).catch((e: unknown) => e);
    expect((err as Error).name).toBe('ApiError');
    expect(String((err as Error).message)).not.toContain('not-the-secret');
  });
});
