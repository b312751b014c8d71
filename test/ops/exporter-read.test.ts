import { describe, expect, it } from 'vitest';
import type { FilteredStatusEntry, TestData } from '../../src/api/types.js';
import type { Monitor } from '../../src/model/live.js';
import { emptyMemory, monitorSamples, outcomeOf, readWindows, settleSeconds, type ServiceReadings } from '../../src/ops/exporter/read.js';
import { labelPrefixes } from '../../src/ops/status-filter.js';

const T = 1_800_000_000;

function test(at: number, how: 'ok' | 'failed' | 'in flight', duration = 12): TestData {
  return {
    duration: how === 'ok' ? duration : null,
    error: how === 'failed' ? 'no response: the test message did not come back' : null,
    complete: how === 'ok',
    time_init: null,
    time_term: null,
    utc_mktime: at,
    utc_time_init: null,
    utc_time_term: null,
  };
}

function entry(id: string, e: Partial<FilteredStatusEntry>): FilteredStatusEntry {
  return { monitor: id, label: id, alert_active: false, alert_count: 0, fail_count: 0, test_count: 0, last_alert: null, last_failed: null, last_test: null, ...e };
}

function monitor(id: string, extra: Partial<Monitor> = {}): Monitor {
  return { id, label: `mx-${id}`, type: 'smtp', timer: 5, ttl: 0, data_label: 'seconds', alerts: [], groups: [], meta: {}, ...extra } as Monitor;
}

/** A read 30 s after T of a monitor with this timer and no ttl (results known 300 s after a start). */
function at(timerSeconds: number): { timerSeconds: number; settledBefore: number } {
  return { timerSeconds, settledBefore: T + 30 - 300 };
}

function readings(wide: FilteredStatusEntry[], settled: FilteredStatusEntry[] | null = null, pauses: ServiceReadings['pauses'] = []): ServiceReadings {
  return { pauses, wide: new Map(wide.map((e) => [e.monitor, e])), settled: settled === null ? null : new Map(settled.map((e) => [e.monitor, e])) };
}

describe('the outcome of a monitor from its filter entry', () => {
  it('is its last test when that test has a result: up with its round trip, or down', () => {
    expect(outcomeOf(entry('1', { test_count: 1, last_test: test(T, 'ok', 14) }), at(300))).toEqual({ outcomeAt: T, up: 1, roundTripSeconds: 14 });
    expect(outcomeOf(entry('1', { test_count: 1, last_test: test(T, 'failed'), last_failed: test(T, 'failed') }), at(300))).toEqual({ outcomeAt: T, up: 0, roundTripSeconds: null });
  });

  it('is the failure just before a test still in flight (an outage: every test waits for its ttl)', () => {
    const e = entry('1', { test_count: 2, fail_count: 1, last_test: test(T, 'in flight'), last_failed: test(T - 300, 'failed') });
    expect(outcomeOf(e, at(300))).toEqual({ outcomeAt: T - 300, up: 0, roundTripSeconds: null });
  });

  it('is a completed test when the test before the one in flight is not the last failure', () => {
    const e = entry('1', { test_count: 3, fail_count: 1, last_test: test(T, 'in flight'), last_failed: test(T - 600, 'failed') });
    expect(outcomeOf(e, at(300))).toEqual({ outcomeAt: T - 300, up: 1, roundTripSeconds: null });
  });

  it('is unknown when the test before the one in flight may itself still wait for its reply (short timer, long ttl)', () => {
    const e = entry('1', { test_count: 3, fail_count: 0, last_test: test(T, 'in flight'), last_failed: null });
    // Timer 3 minutes, ttl 1800 s: the test of T - 180 may get its reply until T + 1620.
    expect(outcomeOf(e, { timerSeconds: 180, settledBefore: T + 10 - 1800 })).toBeNull();
    expect(outcomeOf(e, { timerSeconds: 180, settledBefore: T + 1700 - 1800 })).toEqual({ outcomeAt: T - 180, up: 1, roundTripSeconds: null });
  });

  it('is unknown when the window holds nothing but a test in flight, or no test', () => {
    expect(outcomeOf(entry('1', { test_count: 1, last_test: test(T, 'in flight') }), at(300))).toBeNull();
    expect(outcomeOf(entry('1', {}), at(300))).toBeNull();
  });

  it('reads a non-SMTP duration in the unit its data_label names', () => {
    expect(outcomeOf(entry('1', { test_count: 1, last_test: test(T, 'ok', 250) }), { ...at(300), secondsPerUnit: 0.001 })?.roundTripSeconds).toBe(0.25);
  });
});

describe('the windows of a read', () => {
  it('settle past the longest wait for a reply: 300 s without a ttl, the largest ttl else, plus a minute', () => {
    expect(settleSeconds([{ ttl: 0 }, { ttl: 60 }])).toBe(360);
    expect(settleSeconds([{ ttl: 1800 }])).toBe(1860);
  });

  it('look back two timers past the settling time on the first read, then cover the time since the previous read', () => {
    expect(readWindows([{ ttl: 0, timer: 30 }], T, null)).toEqual({ wide: 360 + 3600, settled: null });
    expect(readWindows([{ ttl: 0, timer: 5 }], T, T - 60)).toEqual({ wide: 420, settled: 360 });
  });
});

describe('the samples of a read', () => {
  it('count the tests settled since the previous read: the wide window less the settling one', () => {
    const m = monitor('1');
    const first = monitorSamples({ monitors: [m], readings: readings([entry('1', { test_count: 9, fail_count: 2, last_test: test(T, 'ok') })]), memory: emptyMemory(), nowSeconds: T, inMaintenance: null });
    expect(first.samples[0]).toMatchObject({ newTests: 0, newFailedTests: 0, up: 1 });
    const second = monitorSamples({
      monitors: [m],
      readings: readings([entry('1', { test_count: 3, fail_count: 1, last_test: test(T + 60, 'ok') })], [entry('1', { test_count: 2, fail_count: 0 })]),
      memory: first.memory,
      nowSeconds: T + 60,
      inMaintenance: null,
    });
    expect(second.samples[0]).toMatchObject({ newTests: 1, newFailedTests: 1 });
  });

  it('keep what earlier reads saw when this one sees no result, and take only a newer outcome', () => {
    const m = monitor('1');
    const down = monitorSamples({
      monitors: [m],
      readings: readings([entry('1', { test_count: 2, fail_count: 1, last_test: test(T, 'in flight'), last_failed: test(T - 300, 'failed') })]),
      memory: { previousAt: T - 60, monitors: new Map([['1', { outcomeAt: T - 600, up: 1, roundTripSeconds: 9, lastTestSeconds: T - 600 }]]) },
      nowSeconds: T,
      inMaintenance: null,
    });
    // Down now; the last completed round trip is still the one known; the last test is the one in flight.
    expect(down.samples[0]).toMatchObject({ up: 0, roundTripSeconds: 9, lastTestSeconds: T });
    const quiet = monitorSamples({ monitors: [m], readings: readings([entry('1', { test_count: 1, last_test: test(T, 'in flight') })]), memory: down.memory, nowSeconds: T + 60, inMaintenance: null });
    expect(quiet.samples[0]).toMatchObject({ up: 0, roundTripSeconds: 9 });
  });

  it('say which monitors are paused, for how long, and which a maintenance window covers', () => {
    const made = monitorSamples({
      monitors: [monitor('1'), monitor('2')],
      readings: readings([], null, [
        { id: 'a1', monitor: '1', seconds: 120 },
        { id: 'a2', monitor: '1', seconds: 600 },
        { id: 'a3', monitor: '2', seconds: 0 },
      ]),
      memory: emptyMemory(),
      nowSeconds: T,
      inMaintenance: new Set(['2']),
    });
    expect(made.samples.map((s) => [s.id, s.paused, s.pausedSecondsLeft, s.inMaintenance, s.up])).toEqual([
      ['1', true, 600, false, null],
      ['2', false, 0, true, null],
    ]);
  });
});

describe('the filter sweep', () => {
  it('asks one prefix per distinct first character, whole code points, so every label is covered', () => {
    expect(labelPrefixes(['mx-eu', 'mx-us', 'backup', '😀 smile', '😀 frown', ''])).toEqual(['b', 'm', '😀']);
  });
});
