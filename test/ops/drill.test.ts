import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runDrillCommand } from '../../src/cli/drill.js';
import { runPause } from '../../src/cli/pause.js';
import type { EmulatorControlApi, OutboxMessage } from '../../src/ops/emulator-control.js';
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

/**
 * Stands in for the emulator's control API: its own clock, every call recorded, and an outbox
 * scripted in minutes after the start.
 */
function fakeControl(script: (start: number) => OutboxMessage[]) {
  const start = 1_717_416_000;
  let now = start;
  const calls: string[] = [];
  const control: EmulatorControlApi = {
    async clock() {
      calls.push('clock');
      return now;
    },
    async advance(seconds) {
      calls.push(`advance ${seconds}`);
      now += seconds;
      return now;
    },
    async outage(monitor, seconds) {
      calls.push(`outage ${monitor} ${seconds}`);
    },
    async outbox(since) {
      calls.push(`outbox ${since - start}`);
      // Like the emulator: only what has happened by now.
      return script(start).filter((m) => m.time <= now);
    },
  };
  return { control, calls, start };
}

describe('monsync drill: orchestration and report', () => {
  it('forces the outage, advances minute by minute, ends it, recovers, and reports messages by destination label', async () => {
    const msg = (min: number, alert: string, monitor: string, destination: string, kind: 'down' | 'up', subject: string, delivered = true) =>
      (start: number): OutboxMessage => ({ time: start + min * 60, alert, monitor, destination, kind, subject, body: '', delivered });
    const { eu, us } = acct.monitors;
    const { euDown } = acct.alerts;
    const { opsMail, oncallSms, legacyMail } = acct.destinations;
    const script = [
      ...[15, 25, 45].flatMap((m) => [
        msg(m, euDown, eu, opsMail, 'down', 'mx-eu-1 is DOWN'),
        msg(m, euDown, eu, oncallSms, 'down', 'mx-eu-1 is DOWN'),
        msg(m, euDown, eu, legacyMail, 'down', 'mx-eu-1 is DOWN', false),
      ]),
      msg(20, acct.alerts.usDown, us, oncallSms, 'down', 'mx-us-1 is DOWN'), // another monitor: not this drill's
      msg(-3, euDown, eu, opsMail, 'down', 'old'), // before the drill
      msg(61, euDown, eu, opsMail, 'up', 'mx-eu-1 is UP'),
      msg(61, euDown, eu, oncallSms, 'up', 'mx-eu-1 is UP'),
      msg(61, euDown, eu, legacyMail, 'up', 'mx-eu-1 is UP', false),
    ];
    const fake = fakeControl((start) => script.map((f) => f(start)));
    const io = captureIo(v1Env(emu.url));
    expect(await runDrillCommand('mx-eu-1', { minutes: '60' }, io, async () => fake.control)).toBe(0);

    // timer 5: recovery is one test interval plus two minutes.
    expect(fake.calls).toEqual([
      'clock',
      `outage ${eu} 3600`,
      ...Array(60).fill('advance 60'),
      `outage ${eu} 0`,
      ...Array(7).fill('advance 60'),
      'outbox 0',
    ]);
    expect(io.stderr).toContain('Advancing the emulator clock minute by minute: 60 of outage, then 7 to 21 until the monitor has recovered');
    expect(io.stdout.split('\n')).toEqual([
      'Drill: forced outage of mx-eu-1 (smtp, tests every 5m) for 1h, then 7m of recovery.',
      '',
      'Alerts of mx-eu-1:',
      '  "mx-eu-1 is DOWN"  after 15m of failures, repeats, recovery message -> ops-mail, oncall-sms, legacy-mail (not subscribed)',
      '  "mx-eu-1 is SLOW"  after 30m of failures, down only (no recovery message) -> ops-mail',
      '',
      'What would be sent (minutes after the outage began):',
      "  (an alert fires once its timeout has passed since the monitor's last successful test, not since the first failed one)",
      '    +15m  DOWN  "mx-eu-1 is DOWN" -> ops-mail (email ops@example.com), oncall-sms (sms +15555550100); not subscribed: legacy-mail',
      '    +25m  DOWN  "mx-eu-1 is DOWN" (repeat) -> ops-mail (email ops@example.com), oncall-sms (sms +15555550100); not subscribed: legacy-mail',
      '    +45m  DOWN  "mx-eu-1 is DOWN" (repeat) -> ops-mail (email ops@example.com), oncall-sms (sms +15555550100); not subscribed: legacy-mail',
      '    +60m  ----  the outage ends',
      '    +61m  UP    "mx-eu-1 is UP" -> ops-mail (email ops@example.com), oncall-sms (sms +15555550100); not subscribed: legacy-mail',
      '  3 down messages, 1 recovery message.',
      '',
      'Not subscribed (their owners opted out; they receive nothing): legacy-mail (email legacy@example.com) — 4 messages not sent',
      '',
      'The emulator clock moved forward by 67 minutes; it cannot be moved back.',
      '',
    ]);
  });

  it('keeps the clock running until every alert that fired has recovered, and says so when one never does', async () => {
    const { eu } = acct.monitors;
    const at = (min: number, alert: string, kind: 'down' | 'up') => (start: number): OutboxMessage =>
      ({ time: start + min * 60, alert, monitor: eu, destination: acct.destinations.opsMail, kind, subject: kind, body: '', delivered: true });
    // The SLOW alert is down only: it never sends an up message, and nothing waits for one.
    const late = [at(16, acct.alerts.euDown, 'down'), at(31, acct.alerts.euSlow, 'down'), at(49, acct.alerts.euDown, 'up')];
    const fake = fakeControl((start) => late.map((f) => f(start)));
    const io = captureIo(v1Env(emu.url));
    await runDrillCommand('mx-eu-1', { minutes: '40' }, io, async () => fake.control);
    // 7 minutes at least; then one more minute at a time until the up message is there (+49).
    expect(fake.calls.filter((c) => c.startsWith('advance'))).toHaveLength(49);
    expect(fake.calls.filter((c) => c.startsWith('outbox'))).toHaveLength(3);
    expect(io.stdout).toContain('for 40m, then 9m of recovery.');
    expect(io.stdout).not.toContain('No recovery message');

    const never = fakeControl((start) => [at(16, acct.alerts.euDown, 'down')].map((f) => f(start)));
    const stuck = captureIo(v1Env(emu.url));
    await runDrillCommand('mx-eu-1', { minutes: '20' }, stuck, async () => never.control);
    expect(never.calls.filter((c) => c.startsWith('advance'))).toHaveLength(20 + 21);
    expect(stuck.stdout).toContain('No recovery message 21m after the outage ended, for an alert that had fired; the drill stopped looking there.');
    expect(stuck.stdout).toContain('The emulator clock moved forward by 41 minutes');
  });

  it('with nothing sent it says why: alerts paused, or an outage shorter than the alert timeout', async () => {
    await runPause({ alert: ['mx-eu-1:mx-eu-1 is DOWN'], for: '2h' }, captureIo(v1Env(emu.url)));
    const fake = fakeControl(() => []);
    const io = captureIo(v1Env(emu.url));
    await runDrillCommand('mx-eu-1', { minutes: '20' }, io, async () => fake.control);
    expect(io.stdout).toContain('"mx-eu-1 is DOWN"  after 15m of failures, repeats, recovery message -> ops-mail, oncall-sms, legacy-mail (not subscribed)  [paused for 2h more at the start]');
    expect(io.stdout).toContain(
      [
        'No message would be sent.',
        '  "mx-eu-1 is DOWN" was paused at the start (2h left).',
        '  "mx-eu-1 is SLOW" fires after 30m of failures; the outage lasted 20m.',
      ].join('\n'),
    );
    expect(io.stdout).toContain('The emulator clock moved forward by 27 minutes');

    const quiet = captureIo(v1Env(emu.url));
    await runDrillCommand('mx-quiet', { minutes: '5' }, quiet, async () => fakeControl(() => []).control);
    expect(quiet.stdout).toContain('mx-quiet has no alerts: an outage of it notifies nobody.');
  });

  it('ends the outage even when advancing the clock fails part way', async () => {
    const fake = fakeControl(() => []);
    let n = 0;
    const advance = fake.control.advance.bind(fake.control);
    fake.control.advance = async (s) => {
      if (++n === 3) throw new Error('emulator went away');
      return advance(s);
    };
    await expect(runDrillCommand('mx-eu-1', { minutes: '10' }, captureIo(v1Env(emu.url)), async () => fake.control)).rejects.toThrow(
      'emulator went away',
    );
    expect(fake.calls.at(-1)).toBe(`outage ${acct.monitors.eu} 0`);
  });

  it('refuses bad --minutes and unknown labels before touching the emulator', async () => {
    const fake = fakeControl(() => []);
    const io = captureIo(v1Env(emu.url));
    await expect(runDrillCommand('mx-eu-1', { minutes: '0' }, io, async () => fake.control)).rejects.toThrow(/--minutes must be a whole number of at least 1/);
    await expect(runDrillCommand('mx-eu-1', { minutes: '5000' }, io, async () => fake.control)).rejects.toThrow(/at most 1440/);
    await expect(runDrillCommand('mx-eu', { minutes: '5' }, io, async () => fake.control)).rejects.toThrow(/did you mean "mx-eu-1"/);
    expect(fake.calls).toEqual([]);
  });
});

describe('monsync drill: only against an emulator', () => {
  it('refuses a non-loopback service without sending anything', async () => {
    const io = captureIo({ ...v1Env(emu.url), MONSYNC_URL: 'https://api.knowledgefront.com' });
    await expect(runDrillCommand('mx-eu-1', { minutes: '5' }, io)).rejects.toThrow(
      /api\.knowledgefront\.com is not a loopback address; drill only runs against the monsync emulator/,
    );
  });

  it('refuses a loopback server that does not answer GET /_emulator/clock, and sends it no credentials', async () => {
    const seen: { url: string; headers: IncomingHttpHeaders }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>not here</h1>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const io = captureIo({ ...v1Env(url) });
      await expect(runDrillCommand('mx-eu-1', { minutes: '5' }, io)).rejects.toThrow(
        /does not answer GET \/_emulator\/clock \(emulator control: GET \/_emulator\/clock answered 404 without JSON\)/,
      );
      expect(seen.map((s) => s.url)).toEqual(['/_emulator/clock']);
      expect(seen[0]?.headers.authorization).toBeUndefined();
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('accepts the test emulator (its clock answers)', async () => {
    const { EmulatorControl } = await import('../../src/ops/emulator-control.js');
    const control = await EmulatorControl.connect(emu.url);
    const before = await control.clock();
    expect(await control.advance(120)).toBeGreaterThanOrEqual(before + 120);
    expect((await emu.control.clock()).offset_seconds).toBe(120);
  });
});
