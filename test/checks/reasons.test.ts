/**
 * The reasons the timing checks give, played out in the emulator, which applies the service's
 * alert rule literally (docs/emulator-reference.md, "The simulated service"): a day of tests on a 5-minute timer
 * with no failed test at all, and alerts whose timeouts are below, at and above the timer. Measured
 * with this seed: 283, 19, 8 and 0 down messages (timeouts 3, 5, 6, 10).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
const downs = new Map<number, number>();
const TIMEOUTS = [3, 5, 6, 10];

beforeAll(async () => {
  emu = await startTestEmulator({ seed: 'empty' });
  await emu.control.simulation({ failure_rate: 0, seed: 'checks' });
  const { destinations } = await emu.control.seed({
    destinations: [{ label: 'ops', destination: 'ops@example.com', type: 'email', subscribed: true }],
  });
  const monitor = (label: string) => ({
    type: 'smtp', label, timer: 5, ttl: 0, time_zone: 'UTC', ip_address: 'mx.example.com', test_account: 'p@example.com', meta: {}, alerts: [], groups: [],
  });
  const { monitors } = await emu.control.seed({ monitors: TIMEOUTS.map((t) => monitor(`timeout-${t}`)) });
  await emu.control.seed({
    alerts: monitors.map((m, i) => ({
      type: 'up-down', monitor: m, subject_init: `down ${TIMEOUTS[i]}`, subject_term: `up ${TIMEOUTS[i]}`, timeout: TIMEOUTS[i],
      alert_destinations: destinations, message_init: '', message_term: '', down_only: false, repeat: false,
    })),
  });
  const { now } = await emu.control.clock();
  await emu.control.advance(86_400);
  for (const m of await emu.control.outbox(now)) {
    if (m.kind === 'down') downs.set(Number(m.subject.slice(5)), (downs.get(Number(m.subject.slice(5))) ?? 0) + 1);
  }
}, 60_000);

afterAll(async () => {
  await emu?.close();
});

describe('the alert rule behind the timing checks, in the emulator (no test fails all day)', () => {
  it('alert/timeout-below-timer: a timeout shorter than the timer triggers between tests, in nearly every interval', () => {
    // 288 intervals in a day.
    expect(downs.get(3)).toBeGreaterThan(250);
  });

  it('alert/timeout-at-timer: a timeout equal to the timer triggers on replies merely slower than the one before', () => {
    expect(downs.get(5)).toBeGreaterThan(0);
    // A minute of slack leaves only replies over a minute slower (fewer).
    expect(downs.get(6) ?? 0).toBeLessThan(downs.get(5)!);
  });

  it('twice the timer never triggers without a failed test', () => {
    expect(downs.get(10) ?? 0).toBe(0);
  });
});
