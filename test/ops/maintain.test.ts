/**
 * `monsync maintain` against the emulator, its clock moved through a one-off window and a recurring
 * one on both nights London's clocks change: alerts paused for exactly the window, none sent during
 * an outage inside it, an operator's longer pause left alone, a second run sending nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runMaintain } from '../../src/cli/maintain.js';
import { runPause, runPaused } from '../../src/cli/pause.js';
import { runPlan } from '../../src/cli/plan.js';
import { runStatus } from '../../src/cli/status.js';
import { writeTree } from '../config/helpers.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { seedAccount, v1Env, v2Env, type OpsAccount } from './helpers.js';

const CONFIG = `version: 1
maintenance:
  - name: us-migration
    monitors: [mx-us-1]
    start: "2026-12-01T23:00"
    end: "2026-12-02T03:00"
    time_zone: America/New_York
  - name: eu-nightly
    monitors: ["mx-eu-*"]
    cron: "30 1 * * *"
    duration: 2h
    time_zone: Europe/London
`;

let emu: TestEmulator;
let acct: OpsAccount;
let dir: string;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  dir = await writeTree({ 'monsync.yaml': CONFIG });
});
afterAll(async () => {
  await emu.close();
});
/**
 * The scenarios below begin on 2 December 2026: the account is made a month before, whatever the
 * day the suite runs (made on the day, its monitors would have run no test at those dates once the
 * calendar passed them, and the outage test below would find no alert).
 */
const SEEDED_AT = Date.parse('2026-11-01T00:00:00Z') / 1000;

beforeEach(async () => {
  acct = await seedAccount(emu, { at: SEEDED_AT });
  // No random failures: every message in the outbox comes from the outage a test places.
  await emu.control.simulation({ failure_rate: 0 });
});

/**
 * Seconds sent or left, as the service's clock read through whole-second Date headers gives them:
 * the emulator's clock keeps running in real time after it is set, so a second or two may pass.
 */
const near = (seconds: number) => expect.toSatisfy((n: number) => n <= seconds + 1 && n >= seconds - 3);

const unix = (iso: string) => Date.parse(iso) / 1000;

async function at(iso: string): Promise<void> {
  await emu.control.setClock(unix(iso));
}

async function maintain(args: { dryRun?: boolean } = {}): Promise<{ code: number; out: string; json: any }> {
  const io = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });
  const code = await runMaintain([], { ...args, json: true }, io);
  if (io.stderr.replace(/^.*warning.*\n/gm, '') !== '') throw new Error(io.stderr);
  return { code, out: io.stdout, json: JSON.parse(io.stdout) };
}

async function pauseWrites(): Promise<string[]> {
  return (await emu.control.requests()).filter((r) => r.method === 'POST' && r.path.startsWith('/v1/Pause')).map((r) => `${r.path} ${JSON.stringify(r.body)}`);
}

/** Seconds left of each paused alert, by alert id, on the emulator's clock (its state: until_ms). */
async function pausedSeconds(): Promise<Record<string, number>> {
  const state = (await emu.control.state()) as { pauses: { id: string; until_ms: number }[] };
  const nowMs = (await emu.control.clock()).now * 1000;
  return Object.fromEntries(state.pauses.filter((p) => p.until_ms > nowMs).map((p) => [p.id, (p.until_ms - nowMs) / 1000]));
}

describe('monsync maintain', () => {
  it('pauses a one-off window for exactly its length, sends nothing the second time, and no alert fires during an outage in it', async () => {
    await at('2026-12-02T03:59:00Z');
    expect((await maintain()).json.windows).toEqual([]);
    expect(await pauseWrites()).toEqual([]);

    // 23:00 in New York on 1 December is 04:00 UTC; the window ends at 08:00 UTC.
    await at('2026-12-02T04:00:30Z');
    const dry = await maintain({ dryRun: true });
    expect(dry.json.windows.map((w: any) => [w.name, w.start, w.end, w.monitors.map((m: any) => m.label)])).toEqual([
      ['us-migration', '2026-12-02T04:00:00Z', '2026-12-02T08:00:00Z', ['mx-us-1']],
    ]);
    expect(await pauseWrites()).toEqual([]);

    const first = await maintain();
    expect(first.json.sent).toEqual([{ window: 'us-migration', monitor: acct.monitors.us, alerts: [acct.alerts.usDown], seconds: near(4 * 3600 - 30) }]);
    expect(await pauseWrites()).toEqual([expect.stringMatching(`^/v1/Pause/Monitor/${acct.monitors.us}/ \\{"seconds":143(6[7-9]|70)\\}$`)]);
    await emu.control.outage(acct.monitors.us, 3 * 3600);

    await emu.control.clearRequests();
    await emu.control.advance(60);
    const second = await maintain();
    expect(second.json.sent).toEqual([]);
    expect(second.json.windows[0].monitors[0].alerts.map((a: any) => a.action)).toEqual(['done']);
    expect(await pauseWrites()).toEqual([]);

    await at('2026-12-02T07:59:57Z');
    expect(Object.keys(await pausedSeconds())).toEqual([acct.alerts.usDown]);
    await at('2026-12-02T08:00:03Z');
    expect(await pausedSeconds()).toEqual({});
    await at('2026-12-02T08:30:00Z');
    expect((await emu.control.outbox(unix('2026-12-02T04:00:00Z'))).filter((m) => m.monitor === acct.monitors.us)).toEqual([]);
  });

  it('the same outage without the window sends the alert (the test above can fail)', async () => {
    await at('2026-12-03T04:00:30Z');
    await emu.control.outage(acct.monitors.us, 3 * 3600);
    await at('2026-12-03T08:30:00Z');
    expect((await emu.control.outbox(unix('2026-12-03T04:00:00Z'))).filter((m) => m.monitor === acct.monitors.us && m.kind === 'down').length).toBeGreaterThan(0);
  });

  it('on the night clocks go forward, a 01:30 window opens when they do (02:00 BST) for two hours, leaving an operator\'s longer pause alone', async () => {
    await at('2027-03-28T00:30:00Z');
    const operator = captureIo(v1Env(emu.url));
    expect(await runPause({ alert: ['mx-eu-1:mx-eu-1 is SLOW'], for: '10h' }, operator)).toBe(0);
    await emu.control.clearRequests();

    await at('2027-03-28T00:59:00Z');
    expect((await maintain()).json.windows).toEqual([]);

    await at('2027-03-28T01:00:30Z');
    const run = await maintain();
    expect(run.json.windows.map((w: any) => [w.name, w.start, w.end])).toEqual([['eu-nightly', '2027-03-28T01:00:00Z', '2027-03-28T03:00:00Z']]);
    expect(run.json.windows[0].monitors[0].alerts.map((a: any) => [a.subject, a.action])).toEqual([
      ['mx-eu-1 is DOWN', 'pause'],
      ['mx-eu-1 is SLOW', 'longer'],
    ]);
    // Alert by alert: the monitor call would cut the operator's pause of SLOW short.
    expect(await pauseWrites()).toEqual([expect.stringMatching(`^/v1/Pause/Alert/${acct.alerts.euDown}/ \\{"seconds":71(6[7-9]|70)\\}$`)]);
    await emu.control.outage(acct.monitors.eu, 5400);

    await emu.control.clearRequests();
    await emu.control.advance(45);
    expect((await maintain()).json.sent).toEqual([]);
    expect(await pauseWrites()).toEqual([]);

    // paused, given the configuration, tells the window's pause from the operator's.
    const listing = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });
    expect(await runPaused({ json: true }, listing, ['monsync.yaml'])).toBe(0);
    expect(JSON.parse(listing.stdout).paused.map((p: any) => [p.subject, p.window])).toEqual([
      ['mx-eu-1 is DOWN', 'eu-nightly'],
      ['mx-eu-1 is SLOW', null],
    ]);
    const text = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });
    await runPaused({}, text, ['monsync.yaml']);
    expect(text.stdout).toMatch(/^mx-eu-1 \/ "mx-eu-1 is DOWN" — resumes in .* — maintenance window "eu-nightly"\nmx-eu-1 \/ "mx-eu-1 is SLOW" — resumes in .* — not from a maintenance window\n/);
    // status, given the configuration, names the window and what it paused (not the operator's pause).
    const status = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });
    await runStatus({ json: true }, status, ['monsync.yaml']);
    expect(JSON.parse(status.stdout).maintenance).toEqual([{ window: 'eu-nightly', until: '2027-03-28T03:00:00Z', monitors: ['mx-eu-1'], alerts: 1 }]);
    const statusText = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });
    await runStatus({}, statusText, ['monsync.yaml']);
    expect(statusText.stdout).toContain('In maintenance window "eu-nightly" until 03:00 UTC: mx-eu-1 (1 alert paused)\n');
    // With a v2 OAuth client, the pauses (API v1 only) are read with the v1 login.
    const statusV2 = captureIo({ ...v1Env(emu.url), ...v2Env(emu.url) }, { now: () => Date.now(), cwd: dir });
    await runStatus({ json: true }, statusV2, ['monsync.yaml']);
    expect(JSON.parse(statusV2.stdout)).toMatchObject({ api: 'v2', maintenance: [{ window: 'eu-nightly', alerts: 1 }] });

    const seconds = await pausedSeconds();
    expect(seconds[acct.alerts.euDown]).toEqual(near(7125));
    expect(seconds[acct.alerts.euSlow]).toEqual(near(10 * 3600 - 1875) /* until 10:30, untouched */);
    await at('2027-03-28T02:59:57Z');
    expect(Object.keys(await pausedSeconds()).sort()).toEqual([acct.alerts.euDown, acct.alerts.euSlow].sort());
    await at('2027-03-28T03:00:03Z');
    expect(Object.keys(await pausedSeconds())).toEqual([acct.alerts.euSlow]);
    expect((await emu.control.outbox(unix('2027-03-28T01:00:00Z'))).filter((m) => m.monitor === acct.monitors.eu)).toEqual([]);
  });

  it('on the night clocks go back, a 01:30 window opens at the first 01:30 (BST) only, and lasts two elapsed hours', async () => {
    await at('2026-10-25T00:30:20Z');
    const run = await maintain();
    expect(run.json.windows.map((w: any) => [w.name, w.start, w.end])).toEqual([['eu-nightly', '2026-10-25T00:30:00Z', '2026-10-25T02:30:00Z']]);
    expect(run.json.sent).toEqual([{ window: 'eu-nightly', monitor: acct.monitors.eu, alerts: [acct.alerts.euDown, acct.alerts.euSlow], seconds: near(7180) }]);
    await emu.control.outage(acct.monitors.eu, 5400);

    // 01:31 GMT, the second 01:30 just passed: the same occurrence, nothing new.
    await emu.control.clearRequests();
    await at('2026-10-25T01:31:00Z');
    const again = await maintain();
    expect(again.json.windows.map((w: any) => w.end)).toEqual(['2026-10-25T02:30:00Z']);
    expect(again.json.sent).toEqual([]);
    expect(await pauseWrites()).toEqual([]);

    await at('2026-10-25T02:29:57Z');
    expect(Object.keys(await pausedSeconds()).sort()).toEqual([acct.alerts.euDown, acct.alerts.euSlow].sort());
    await at('2026-10-25T02:30:03Z');
    expect(await pausedSeconds()).toEqual({});
    expect((await emu.control.outbox(unix('2026-10-25T00:30:00Z'))).filter((m) => m.monitor === acct.monitors.eu && m.time < unix('2026-10-25T02:30:00Z'))).toEqual([]);
  });

  it('plan shows the windows of the next 7 days on the service\'s clock, with the monitors of the account they cover', async () => {
    await at('2026-11-30T12:00:00Z');
    const io = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dir });
    expect(await runPlan([`${dir}/monsync.yaml`], { json: true }, io)).toBe(0);
    const plan = JSON.parse(io.stdout);
    expect(plan.maintenance.slice(0, 3)).toEqual([
      { window: 'eu-nightly', start: '2026-12-01T01:30:00Z', end: '2026-12-01T03:30:00Z', monitors: ['mx-eu-1'], unmatched: [] },
      { window: 'eu-nightly', start: '2026-12-02T01:30:00Z', end: '2026-12-02T03:30:00Z', monitors: ['mx-eu-1'], unmatched: [] },
      { window: 'us-migration', start: '2026-12-02T04:00:00Z', end: '2026-12-02T08:00:00Z', monitors: ['mx-us-1'], unmatched: [] },
    ]);
    expect(plan.maintenance.filter((w: any) => w.window === 'eu-nightly')).toHaveLength(7);
  });

  it('covers the members of a group the account has, by the group\'s name', async () => {
    await emu.control.seed({ groups: [{ name: 'us-servers', monitors: [acct.monitors.us] }] });
    const groupDir = await writeTree({
      'monsync.yaml': 'version: 1\nmaintenance:\n  - name: g\n    groups: [us-servers]\n    start: "2026-12-05T10:00"\n    end: "2026-12-05T11:00"\n    time_zone: UTC\n',
    });
    await at('2026-12-05T10:10:00Z');
    const io = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: groupDir });
    expect(await runMaintain([], { dryRun: true, json: true }, io)).toBe(0);
    expect(JSON.parse(io.stdout).windows.map((w: any) => [w.name, w.monitors.map((m: any) => m.label), w.unmatched])).toEqual([['g', ['mx-us-1'], []]]);
  });

  it('a pause call that fails part way leaves a record of what was paused, and the next run finishes the job', async () => {
    const dirAll = await writeTree({
      'monsync.yaml': 'version: 1\nmaintenance:\n  - name: all\n    monitors: ["mx-*"]\n    start: "2026-12-06T10:00"\n    end: "2026-12-06T11:00"\n    time_zone: UTC\n',
    });
    await at('2026-12-06T10:00:30Z');
    await emu.control.faults({ error_rate: 1, error_status: 400, methods: ['POST'], path_prefix: `/v1/Pause/Monitor/${acct.monitors.us}` });
    const io = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dirAll });
    await expect(runMaintain([], {}, io)).rejects.toThrow();
    expect(io.stdout).toContain('  mx-eu-1: paused 2 alerts until the window\'s end\n');
    expect(io.stdout).toContain('  mx-us-1: not paused (the run stopped first): 1 alert\n');
    await emu.control.clearFaults();
    await emu.control.clearRequests();
    const next = captureIo(v1Env(emu.url), { now: () => Date.now(), cwd: dirAll });
    expect(await runMaintain([], { json: true }, next)).toBe(0);
    expect(JSON.parse(next.stdout).sent.map((p: any) => p.monitor)).toEqual([acct.monitors.us]);
  });
});
