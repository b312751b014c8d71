import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runPause, runPaused, runResume } from '../../src/cli/pause.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { seedAccount, v1Env, type OpsAccount } from './helpers.js';

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

const io = () => captureIo(v1Env(emu.url));

async function writes(): Promise<{ call: string; body: unknown }[]> {
  return (await emu.control.requests()).filter((r) => r.method !== 'GET').map((r) => ({ call: `${r.method} ${r.path}`, body: r.body }));
}

describe('monsync pause / paused / resume', () => {
  it('pauses a monitor by label, lists it with the time left, and the pause expires as the clock moves', async () => {
    const p = io();
    expect(await runPause({ monitor: ['mx-eu-1'], for: '30m' }, p)).toBe(0);
    expect(p.stdout).toBe('Paused 2 alerts of mx-eu-1 for 30m (until 12:30 UTC).\n');
    expect(await writes()).toEqual([{ call: `POST /v1/Pause/Monitor/${acct.monitors.eu}/`, body: { seconds: 1800 } }]);

    // The emulator's clock moves on and this one (fixed at 12:00) does not: the resume time still
    // comes out on the service's clock, from its Date header, as 12:30.
    await emu.control.advance(20);
    const l = io();
    expect(await runPaused({}, l)).toBe(0);
    expect(l.stdout.split('\n')).toEqual([
      'mx-eu-1 / "mx-eu-1 is DOWN" — resumes in 29m 40s (at 12:30 UTC)',
      'mx-eu-1 / "mx-eu-1 is SLOW" — resumes in 29m 40s (at 12:30 UTC)',
      '',
      '2 alerts paused; `monsync resume --monitor LABEL` or `--all` ends pauses early.',
      '',
    ]);

    const j = io();
    await runPaused({ json: true }, j);
    expect(JSON.parse(j.stdout)).toEqual({
      paused: [
        { alert: acct.alerts.euDown, subject: 'mx-eu-1 is DOWN', monitor: acct.monitors.eu, monitor_label: 'mx-eu-1', seconds: 1780, resumes_at: '2024-06-03T12:30:00Z' },
        { alert: acct.alerts.euSlow, subject: 'mx-eu-1 is SLOW', monitor: acct.monitors.eu, monitor_label: 'mx-eu-1', seconds: 1780, resumes_at: '2024-06-03T12:30:00Z' },
      ],
    });

    await emu.control.advance(1780);
    const after = io();
    await runPaused({}, after);
    expect(after.stdout).toBe('No alerts are paused.\n');
  });

  it('--monitor is repeatable; --alert MONITOR:SUBJECT pauses one alert; rows sort by time left', async () => {
    expect(await runPause({ monitor: ['mx-us-1', 'mx-quiet', 'mx-us-1'], for: '2h' }, io())).toBe(0);
    const one = io();
    expect(await runPause({ alert: ['mx-eu-1:mx-eu-1 is SLOW'], for: '90' }, one)).toBe(0);
    expect(one.stdout).toBe('Paused alert "mx-eu-1 is SLOW" of mx-eu-1 for 1m 30s (until 12:01 UTC).\n');
    const calls = (await writes()).map((w) => w.call);
    expect(calls).toEqual([
      `POST /v1/Pause/Monitor/${acct.monitors.us}/`,
      `POST /v1/Pause/Monitor/${acct.monitors.quiet}/`,
      `POST /v1/Pause/Alert/${acct.alerts.euSlow}/`,
    ]);

    const l = io();
    await runPaused({}, l);
    expect(l.stdout.split('\n').slice(0, 2)).toEqual([
      'mx-eu-1 / "mx-eu-1 is SLOW" — resumes in 1m 30s (at 12:01 UTC)',
      'mx-us-1 / "mx-us-1 is DOWN" — resumes in 2h (at 14:00 UTC)',
    ]);
  });

  it('a monitor without alerts is reported as such', async () => {
    const p = io();
    await runPause({ monitor: ['mx-quiet'], for: '5m' }, p);
    expect(p.stdout).toBe('mx-quiet has no alerts: nothing was paused.\n');
  });

  it('--all pauses everything with a warning about the real service; a pause past midnight shows its date', async () => {
    const p = captureIo(v1Env(emu.url), { now: Date.UTC(2024, 5, 3, 23, 50) });
    expect(await runPause({ all: true, for: '1d' }, p)).toBe(0);
    expect(p.stdout).toBe('Paused every alert of the account (3 alerts) for 1d (until 2024-06-04 23:50 UTC).\n');
    expect(p.stderr).toMatch(/global pause .* more than about 50 alerts/);
    expect(await writes()).toEqual([{ call: 'POST /v1/Pause/Alert/', body: { seconds: 86_400 } }]);
  });

  it('resume: by monitor, one alert through the monitor path (the service quirk), and all', async () => {
    await runPause({ all: true, for: '1h' }, io());
    await emu.control.clearRequests();

    const r1 = io();
    expect(await runResume({ monitor: ['mx-us-1'] }, r1)).toBe(0);
    expect(r1.stdout).toBe('Resumed alerting for mx-us-1 (1 alert).\n');

    const r2 = io();
    expect(await runResume({ alert: ['mx-eu-1:mx-eu-1 is DOWN'] }, r2)).toBe(0);
    expect(r2.stdout).toBe('Resumed alert "mx-eu-1 is DOWN" of mx-eu-1.\n');
    expect((await writes()).map((w) => w.call)).toEqual([
      `DELETE /v1/Pause/Alert/${acct.monitors.us}/`,
      `DELETE /v1/Pause/Alert/${acct.alerts.euDown}/`,
    ]);

    const l = io();
    await runPaused({ json: true }, l);
    expect(JSON.parse(l.stdout).paused.map((p: { alert: string }) => p.alert)).toEqual([acct.alerts.euSlow]);

    const r3 = io();
    expect(await runResume({ all: true }, r3)).toBe(0);
    expect(r3.stdout).toBe('Resumed alerting for every alert of the account (3 alerts).\n');
    expect(r3.stderr).toMatch(/global resume/);
    const none = io();
    await runPaused({}, none);
    expect(none.stdout).toBe('No alerts are paused.\n');
  });

  it('resume of what is not paused says so and sends nothing: an alert, a monitor, the account', async () => {
    await runPause({ alert: ['mx-eu-1:mx-eu-1 is SLOW'], for: '1h' }, io());
    await emu.control.clearRequests();

    const alert = io();
    expect(await runResume({ alert: ['mx-eu-1:mx-eu-1 is DOWN'] }, alert)).toBe(0);
    expect(alert.stdout).toBe('Alert "mx-eu-1 is DOWN" of mx-eu-1 is not paused: nothing to resume.\n');
    const monitor = io();
    expect(await runResume({ monitor: ['mx-us-1'] }, monitor)).toBe(0);
    expect(monitor.stdout).toBe('No alert of mx-us-1 is paused: nothing to resume.\n');
    expect(await writes()).toEqual([]);

    // The paused one of the same monitor is resumed as before.
    const paused = io();
    expect(await runResume({ alert: ['mx-eu-1:mx-eu-1 is SLOW'] }, paused)).toBe(0);
    expect(paused.stdout).toBe('Resumed alert "mx-eu-1 is SLOW" of mx-eu-1.\n');
    await emu.control.clearRequests();

    const all = io();
    expect(await runResume({ all: true }, all)).toBe(0);
    expect(all.stdout).toBe('No alert of the account is paused: nothing to resume.\n');
    expect(await writes()).toEqual([]);
  });

  it('bad input is refused before any request: durations, missing or conflicting targets', async () => {
    await emu.control.clearRequests();
    await expect(runPause({ monitor: ['mx-eu-1'], for: '0' }, io())).rejects.toThrow('--for: "0" is zero');
    await expect(runPause({ monitor: ['mx-eu-1'], for: '-5m' }, io())).rejects.toThrow(/negative/);
    await expect(runPause({ monitor: ['mx-eu-1'], for: 'later' }, io())).rejects.toThrow(/not a duration; e\.g\. 90s, 30m/);
    await expect(runPause({ for: '5m' }, io())).rejects.toThrow(/say what to pause: --monitor LABEL/);
    await expect(runPause({ all: true, monitor: ['mx-eu-1'], for: '5m' }, io())).rejects.toThrow(/--all pauses every alert: give it alone/);
    await expect(runResume({}, io())).rejects.toThrow(/say what to resume/);
    expect(await emu.control.requests()).toEqual([]);
  });

  it('an unknown or misspelt label pauses nothing, even when other labels were fine', async () => {
    const err = (await runPause({ monitor: ['mx-us-1', 'mx-eu1'], for: '5m' }, io()).catch((e: unknown) => e)) as Error;
    expect(err.message).toBe('no monitor labelled "mx-eu1"; did you mean "mx-eu-1"?');
    await expect(runPause({ alert: ['mx-eu-1:is DOWN'], for: '5m' }, io())).rejects.toThrow(
      /no alert with subject "is DOWN"; did you mean "mx-eu-1 is DOWN"/,
    );
    expect(await writes()).toEqual([]);
  });
});
