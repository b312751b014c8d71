/**
 * One read of the account for `monsync exporter`, beyond the account read every command makes
 * (monitors, alerts, groups, destinations): the pauses, and `Status/Filter` swept over every
 * monitor (src/ops/status-filter.ts), turned into MonitorSamples (metrics.ts). The requests do not
 * depend on the number of scrapes, and hardly on the number of monitors (docs/exporter.md says
 * what one read costs).
 *
 * What the filter can tell, and the rules that follow from it (pure: `monitorSamples`):
 * - It gives a monitor's last test and last failed test among the tests started in the last `t`
 *   seconds. A test whose reply is still awaited is neither completed nor failed ("in flight"); a
 *   test that gets no reply stays so until the service gives up on it (its ttl). So the outcome of
 *   a monitor is its last test *with a result*: the last test when it has one; else, when the last
 *   failed test is the one just before the test in flight (started less than one and a half timers
 *   earlier), that failure; else the test before completed (when the window holds one and it has
 *   had the time to get its result; a short timer with a long ttl may leave two in flight). What a
 *   read cannot see, the previous reads saw: the outcome is remembered (`ExporterMemory`) and
 *   only a newer one replaces it.
 * - Counters of tests and failed tests count each test once, when its result is settled: a read
 *   asks for two windows ending now, `elapsed + settle` and `settle` seconds long, whose difference
 *   is the tests started in the `elapsed` seconds that ended `settle` seconds ago. `settle` outlasts
 *   the longest wait for a reply (the largest ttl, 300 s without one, plus a minute).
 * - The first read looks back far enough to see every monitor's last two tests and counts nothing
 *   (the counters start at 0 with the process).
 */
import type { DataItem, FilteredStatusEntry, MonitoringApi, PausedAlert, TestData } from '../../api/types.js';
import type { Monitor } from '../../model/live.js';
import { filterEntries } from '../status-filter.js';
import type { MonitorSample } from './metrics.js';

/** The wait for a reply when a monitor sets no ttl (the service gives up then), seconds. */
export const DEFAULT_REPLY_WAIT_SECONDS = 300;
/** Slack on top of the longest wait for a reply. */
const SETTLE_SLACK_SECONDS = 60;
/** The filter's longest window that the service keeps results for (emulator: 7 days). */
const MAX_WINDOW_SECONDS = 7 * 86_400;

/** What the exporter remembers of a monitor between reads. */
export interface MonitorMemory {
  /** Start of the test the outcome comes from, Unix seconds. */
  outcomeAt: number;
  up: 0 | 1;
  roundTripSeconds: number | null;
  lastTestSeconds: number | null;
}

export interface ExporterMemory {
  /** The service's time of the previous successful read, Unix seconds; null before the first. */
  previousAt: number | null;
  monitors: Map<string, MonitorMemory>;
}

export function emptyMemory(): ExporterMemory {
  return { previousAt: null, monitors: new Map() };
}

/** Seconds after its start by which a test of this monitor has its result: its ttl, or the service's wait without one. */
export function replyWaitSeconds(m: Pick<Monitor, 'ttl'>): number {
  return m.ttl !== null && m.ttl > DEFAULT_REPLY_WAIT_SECONDS ? m.ttl : DEFAULT_REPLY_WAIT_SECONDS;
}

/** Seconds after its start by which any test of these monitors has its result, with a minute of slack (the counters' lag). */
export function settleSeconds(monitors: readonly Pick<Monitor, 'ttl'>[]): number {
  let longest = DEFAULT_REPLY_WAIT_SECONDS;
  for (const m of monitors) longest = Math.max(longest, replyWaitSeconds(m));
  return longest + SETTLE_SLACK_SECONDS;
}

/** The windows of one read: `wide` for outcomes (and counts), `settled` (counts subtracted) or null on the first read. */
export function readWindows(monitors: readonly Pick<Monitor, 'ttl' | 'timer'>[], nowSeconds: number, previousAt: number | null): { wide: number; settled: number | null } {
  const settle = settleSeconds(monitors);
  if (previousAt === null) {
    const longestTimer = Math.max(5, ...monitors.map((m) => m.timer ?? 5)) * 60;
    return { wide: Math.min(MAX_WINDOW_SECONDS, settle + 2 * longestTimer), settled: null };
  }
  const elapsed = Math.max(0, nowSeconds - previousAt);
  return { wide: Math.min(MAX_WINDOW_SECONDS, elapsed + settle), settled: settle };
}

/** The service's answers of one read, beyond the account read. */
export interface ServiceReadings {
  pauses: PausedAlert[];
  wide: Map<string, FilteredStatusEntry>;
  settled: Map<string, FilteredStatusEntry> | null;
}

/** The pauses and the filter's windows of one read (readWindows), asked side by side. */
export async function readServiceState(api: MonitoringApi, monitors: readonly Monitor[], nowSeconds: number, memory: ExporterMemory): Promise<ServiceReadings> {
  const windows = readWindows(monitors, nowSeconds, memory.previousAt);
  const [pauses, wide, settled] = await Promise.all([
    api.listPausedAlerts(),
    entriesOf(api, windows.wide, monitors, nowSeconds, true),
    windows.settled === null ? Promise.resolve(null) : entriesOf(api, windows.settled, monitors, nowSeconds, false),
  ]);
  return { pauses, wide, settled };
}

/**
 * Every monitor's entry over the last `t` seconds. The filter needs a label prefix, and none
 * selects a monitor labelled "" (a prefix of "" is no filter, and the API wants one), so
 * such a monitor's entry is made from its data (`GET /v1/Data/Monitor/{id}/`, its raw tests of
 * the window) and its alert from `GET /v1/Status/` (`alerts`: in the wide window only): one
 * request per unlabelled monitor, and one more, only when there is one.
 */
async function entriesOf(api: MonitoringApi, t: number, monitors: readonly Monitor[], nowSeconds: number, alerts: boolean): Promise<Map<string, FilteredStatusEntry>> {
  const unlabelled = monitors.filter((m) => m.label === '');
  const entries = await filterEntries(api, t, unlabelled.length === 0 ? monitors : monitors.filter((m) => m.label !== ''));
  if (unlabelled.length === 0) return entries;
  const active = alerts ? new Map((await api.getStatus()).monitors.map((e) => [e.id, e.alert_active])) : new Map<string, boolean>();
  for (const m of unlabelled) {
    const data = await api.getMonitorData(m.id, { begin: nowSeconds - t + 1, end: nowSeconds, average: 'raw' });
    entries.set(m.id, entryFromData(m, data.data, active.get(m.id) ?? false));
  }
  return entries;
}

/** A filter entry from a monitor's raw data items, in the filter's units (durationScale). */
export function entryFromData(m: Pick<Monitor, 'id' | 'label' | 'type' | 'data_label'>, items: readonly DataItem[], alertActive: boolean): FilteredStatusEntry {
  // Data values are milliseconds; the filter's durations are seconds where durationScale says 1.
  const perUnit = durationScale(m) === 1 ? 1000 : 1;
  const test = (i: DataItem): TestData => {
    const inFlight = !i.failed && i.value === null && i.error === null;
    return {
      duration: i.value === null ? null : i.value / perUnit,
      error: i.error ?? (i.failed ? 'failed' : null),
      complete: !i.failed && !inFlight,
      time_init: i.time,
      time_term: null,
      utc_mktime: i.utc_mktime,
      utc_time_init: i.utc_time,
      utc_time_term: null,
    };
  };
  const sorted = [...items].sort((a, b) => a.utc_mktime - b.utc_mktime);
  const failed = sorted.filter((i) => i.failed);
  const last = sorted[sorted.length - 1];
  const lastFailed = failed[failed.length - 1];
  return {
    monitor: m.id,
    label: m.label,
    alert_active: alertActive,
    alert_count: 0,
    fail_count: failed.length,
    test_count: sorted.length,
    last_alert: null,
    last_failed: lastFailed ? test(lastFailed) : null,
    last_test: last ? test(last) : null,
  };
}

/**
 * Seconds per unit of a test's `duration`: seconds for SMTP round trips (API 2.7), else the unit
 * its `data_label` names (`milliseconds` for most other types).
 */
export function durationScale(m: Pick<Monitor, 'type' | 'data_label'>): number {
  return m.type !== 'smtp' && m.data_label?.toLowerCase() === 'milliseconds' ? 0.001 : 1;
}

/** A test that has a result: completed, or failed with an error (an in-flight test has neither). */
function hasResult(t: TestData): boolean {
  return t.complete || t.error !== null;
}

/** What the outcome of a monitor's entry depends on besides the entry. */
export interface OutcomeContext {
  timerSeconds: number;
  /** Tests that started before this Unix second have their result by now (replyWaitSeconds before the read). */
  settledBefore: number;
  /** Seconds per unit of `duration` (durationScale). */
  secondsPerUnit?: number;
}

/** The outcome this read shows for one monitor, or null when it shows none (module docblock). */
export function outcomeOf(entry: FilteredStatusEntry, ctx: OutcomeContext): Omit<MonitorMemory, 'lastTestSeconds'> | null {
  const last = entry.last_test;
  if (!last || last.utc_mktime === null) return null;
  if (hasResult(last)) {
    const roundTrip = last.complete && last.duration !== null ? last.duration * (ctx.secondsPerUnit ?? 1) : null;
    return { outcomeAt: last.utc_mktime, up: last.complete ? 1 : 0, roundTripSeconds: roundTrip };
  }
  const failed = entry.last_failed;
  if (failed && failed.utc_mktime !== null && failed.utc_mktime > last.utc_mktime - 1.5 * ctx.timerSeconds) {
    return { outcomeAt: failed.utc_mktime, up: 0, roundTripSeconds: null };
  }
  // The test before the one in flight is in the window, has had the time to get its result, and is
  // not the failure: it completed (its round trip unseen). Still in flight itself: nothing known.
  const before = last.utc_mktime - ctx.timerSeconds;
  if (entry.test_count >= 2 && before < ctx.settledBefore) return { outcomeAt: before, up: 1, roundTripSeconds: null };
  return null;
}

export interface SampleInput {
  monitors: readonly Monitor[];
  readings: ServiceReadings;
  memory: ExporterMemory;
  nowSeconds: number;
  /** Ids of the monitors a maintenance window covers now; null without a configuration. */
  inMaintenance: ReadonlySet<string> | null;
}

/** The samples of one read and the memory for the next. Pure. */
export function monitorSamples(input: SampleInput): { samples: MonitorSample[]; memory: ExporterMemory } {
  const { readings } = input;
  const pausedLeft = new Map<string, number>();
  for (const p of readings.pauses) if (p.seconds > 0) pausedLeft.set(p.monitor, Math.max(p.seconds, pausedLeft.get(p.monitor) ?? 0));
  const remembered = new Map<string, MonitorMemory>();
  const samples: MonitorSample[] = [];
  for (const m of input.monitors) {
    const entry = readings.wide.get(m.id);
    const before = input.memory.monitors.get(m.id);
    let memory = before;
    if (entry) {
      const seen = outcomeOf(entry, { timerSeconds: (m.timer ?? 5) * 60, settledBefore: input.nowSeconds - replyWaitSeconds(m), secondsPerUnit: durationScale(m) });
      const lastTest = entry.last_test?.utc_mktime ?? null;
      if (seen && (!memory || seen.outcomeAt >= memory.outcomeAt)) {
        // The last completed test's round trip: a failure, or a completion this read cannot see the round trip of, keeps the one known.
        memory = { ...seen, roundTripSeconds: seen.roundTripSeconds ?? memory?.roundTripSeconds ?? null, lastTestSeconds: lastTest ?? memory?.lastTestSeconds ?? null };
      } else if (memory && lastTest !== null && (memory.lastTestSeconds === null || lastTest > memory.lastTestSeconds)) {
        memory = { ...memory, lastTestSeconds: lastTest };
      }
    }
    if (memory) remembered.set(m.id, memory);
    const counted = counts(entry, readings.settled?.get(m.id), readings.settled !== null);
    const left = pausedLeft.get(m.id) ?? 0;
    samples.push({
      id: m.id,
      label: m.label,
      type: m.type,
      up: memory?.up ?? null,
      roundTripSeconds: memory?.roundTripSeconds ?? null,
      lastTestSeconds: memory?.lastTestSeconds ?? entry?.last_test?.utc_mktime ?? null,
      alertActive: entry?.alert_active ?? false,
      paused: left > 0,
      pausedSecondsLeft: left,
      inMaintenance: input.inMaintenance === null ? null : input.inMaintenance.has(m.id),
      newTests: counted.tests,
      newFailedTests: counted.failed,
    });
  }
  return { samples, memory: { previousAt: input.nowSeconds, monitors: remembered } };
}

/** Tests settled since the previous read: the wide window's counts less the recent window's (never below 0). */
function counts(wide: FilteredStatusEntry | undefined, recent: FilteredStatusEntry | undefined, counting: boolean): { tests: number; failed: number } {
  if (!counting || !wide) return { tests: 0, failed: 0 };
  return {
    tests: Math.max(0, wide.test_count - (recent?.test_count ?? 0)),
    failed: Math.max(0, wide.fail_count - (recent?.fail_count ?? 0)),
  };
}
