import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runDrillCommand } from '../../src/cli/drill.js';
import { runPause } from '../../src/cli/pause.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { captureIo } from '../helpers/io.js';
import { seedAccount, v1Env } from './helpers.js';

/**
 * The drill against the emulator's own simulation (tests every `timer` minutes, alerts evaluated
 * every minute, repeats at doubling gaps, recovery). Exact minutes depend on where the monitor's
 * test schedule falls, so they are pinned within one test interval: first DOWN about the alert's
 * timeout in, repeats 10 and 20 minutes apart, one UP after the outage, none for a down-only alert,
 * nothing for unsubscribed destinations or other monitors.
 */
let emu: TestEmulator;

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
});
afterAll(async () => {
  await emu.close();
});

interface Line {
  minute: number;
  kind: string;
  subject: string;
  rest: string;
}

function timeline(stdout: string): Line[] {
  return [...stdout.matchAll(/^\s+\+(\d+)m {2}(DOWN|UP) +("[^"]*")(.*)$/gm)].map((m) => ({
    minute: Number(m[1]),
    kind: m[2] as string,
    subject: JSON.parse(m[3] as string) as string,
    rest: m[4] as string,
  }));
}

describe('monsync drill against the emulator simulation', () => {
  // The alert measures time since the last successful reply. That reply may predate the outage by
  // up to one test interval (timer 5), or come in during it from a test started before it (the
  // emulator's replies take up to 5 minutes): the first DOWN comes 15 - 5 to 15 + 5 + 1 minutes in.
  it.each([
    ['just created (no test has run yet)', 0],
    ['that has been running for 12 minutes', 12 * 60 + 17],
  ])('an hour of outage of a monitor %s: DOWN after the timeout, repeats, SLOW once, UP after the end, legacy-mail left out', async (_what, ranFor) => {
    await seedAccount(emu);
    if (ranFor > 0) await emu.control.advance(ranFor);
    const before = (await emu.control.clock()).now;
    const io = captureIo(v1Env(emu.url));
    expect(await runDrillCommand('mx-eu-1', { minutes: '60' }, io)).toBe(0);
    const after = (await emu.control.clock()).now;
    // 60 of outage, then at least timer + 2 of recovery, more only while the recovery is pending.
    const moved = Number(/The emulator clock moved forward by (\d+) minutes; it cannot be moved back\./.exec(io.stdout)?.[1]);
    expect(moved).toBeGreaterThanOrEqual(67);
    expect(moved).toBeLessThanOrEqual(60 + 21);
    expect(Math.round((after - before) / 60)).toBe(moved);
    expect(io.stdout).toContain('    +60m  ----  the outage ends');
    expect(io.stdout).not.toContain('No recovery message');

    const lines = timeline(io.stdout);
    const downs = lines.filter((l) => l.subject === 'mx-eu-1 is DOWN' && l.kind === 'DOWN');
    const slow = lines.filter((l) => l.subject === 'mx-eu-1 is SLOW');
    const ups = lines.filter((l) => l.kind === 'UP');
    expect(downs[0]?.minute).toBeGreaterThanOrEqual(15 - 5);
    expect(downs[0]?.minute).toBeLessThanOrEqual(15 + 5 + 1);
    // Repeats at doubling gaps (10, 20 minutes) while the outage lasts.
    expect(downs.map((l) => l.minute - (downs[0]?.minute ?? 0))).toEqual([0, 10, 30]);
    expect(io.stdout).toMatch(/"mx-eu-1 is DOWN" \(repeat\)/);
    expect(slow.map((l) => l.kind)).toEqual(['DOWN']);
    expect(slow[0]?.minute).toBeGreaterThanOrEqual(30 - 5);
    expect(slow[0]?.minute).toBeLessThanOrEqual(30 + 5 + 1);
    // Both alerts count from the same last reply.
    expect((slow[0]?.minute ?? 0) - (downs[0]?.minute ?? 0)).toBe(15);
    expect(ups.map((l) => l.subject)).toEqual(['mx-eu-1 is UP']);
    expect(ups[0]?.minute).toBeGreaterThan(60);
    for (const l of [...downs, ...ups]) {
      expect(l.rest).toMatch(/-> ops-mail \(email ops@example\.com\), oncall-sms \(sms \+15555550100\); not subscribed: legacy-mail$/);
    }
    expect(slow[0]?.rest).toBe(' -> ops-mail (email ops@example.com)');
    expect(lines.some((l) => l.subject.startsWith('mx-us-1'))).toBe(false);
    expect(io.stdout).toContain('Not subscribed (their owners opted out; they receive nothing): legacy-mail (email legacy@example.com) — 4 messages not sent');

    // The outage ended: the monitor recovered, so no alert of it stays active.
    const status = (await fetch(`${emu.url}/v1/Status/`, { headers: { authorization: emu.v1Auth } }).then((r) => r.json())) as {
      monitor_list: { label: string; alert_active: boolean }[];
    };
    expect(status.monitor_list.find((m) => m.label === 'mx-eu-1')?.alert_active).toBe(false);
  });

  it('a pause in effect during the drill keeps that alert silent', async () => {
    await seedAccount(emu);
    await runPause({ alert: ['mx-eu-1:mx-eu-1 is DOWN'], for: '3h' }, captureIo(v1Env(emu.url)));
    const io = captureIo(v1Env(emu.url));
    await runDrillCommand('mx-eu-1', { minutes: '40' }, io);
    const lines = timeline(io.stdout);
    expect(lines.map((l) => [l.kind, l.subject])).toEqual([['DOWN', 'mx-eu-1 is SLOW']]);
    expect(io.stdout).toContain('[paused for 3h more at the start]');
  });
});
