/**
 * Status (API 4.1, 4.2): the one place alert activity is computed. A monitor is alerting when
 * some alert of it is triggered and not paused, or the manual override is on, and not all of its
 * alerts are paused.
 */
import { displayType } from '../monitor-types.js';
import { renderTestData, retentionOf, type TestResult } from '../simulation.js';
import { zonedIso } from '../time.js';
import type { JsonObject } from '../validate.js';
import { monitorPaused, pausedUntil } from './pauses.js';
import { results, sync } from './simulation.js';
import { labelOf, metaMatches, type StoreState } from './state.js';
import { asString, type FilterQuery, type MonitorRec, type StatusEntry } from './types.js';

/**
 * Manual override (control API `alert-active`): the monitor counts as alerting whatever the
 * simulation says, until set back. Pauses still hide it.
 */
export function setAlertActive(st: StoreState, monitorId: string, active: boolean): void {
  st.monitorRec(monitorId);
  if (active) st.activeMonitors.add(monitorId);
  else st.activeMonitors.delete(monitorId);
  st.changed();
}

function alertActive(st: StoreState, id: string, m: MonitorRec, now: number): boolean {
  if (monitorPaused(st, m, now)) return false;
  if (st.activeMonitors.has(id)) return true;
  for (const a of m.alerts) {
    if (st.alertStates.get(a)?.triggered && pausedUntil(st, a, now) === undefined) return true;
  }
  return false;
}

/** v1 entries: display-form types (`SMTP`, `DNS Query`). */
export function statusEntries(st: StoreState): StatusEntry[] {
  sync(st);
  const now = st.clock.nowMs();
  const out: StatusEntry[] = [];
  for (const [id, m] of st.monitors) {
    out.push({ id, label: labelOf(m), type: displayType(asString(m.raw.type)), alert_active: alertActive(st, id, m, now) });
  }
  return out;
}

/**
 * Status over the last `t` seconds (at most the retention window): tests started in
 * (now - t, now], down messages (triggers and repeats) of its alerts in that period, and the
 * most recent of each within it (null when none).
 */
export function filterStatus(st: StoreState, q: FilterQuery): JsonObject[] {
  sync(st);
  const nowMs = st.clock.nowMs();
  const now = Math.floor(nowMs / 1000);
  const from = now - Math.min(q.t, retentionOf(st.sim));
  const out: JsonObject[] = [];
  for (const [id, m] of st.monitors) {
    const label = labelOf(m);
    if (q.prefix !== undefined && !label.startsWith(q.prefix)) continue;
    if (q.suffix !== undefined && !label.endsWith(q.suffix)) continue;
    if (q.contains !== undefined && !label.includes(q.contains)) continue;
    if (q.meta && !metaMatches(m, q.meta)) continue;
    const { sim, results: tests } = results(st, id, m, from + 1, now);
    let lastFailed: TestResult | undefined;
    for (const r of tests) if (!r.complete && !r.inFlight) lastFailed = r;
    const lastTest = tests[tests.length - 1];
    let alertCount = 0;
    let lastAlert: { alert: string; time: number } | undefined;
    for (const a of m.alerts) {
      for (const e of st.alertStates.get(a)?.events ?? []) {
        if (e.kind === 'up' || e.time <= from || e.time > now) continue;
        alertCount++;
        if (!lastAlert || e.time >= lastAlert.time) lastAlert = { alert: a, time: e.time };
      }
    }
    out.push({
      monitor: id,
      label,
      alert_active: alertActive(st, id, m, nowMs),
      alert_count: alertCount,
      fail_count: tests.filter((r) => !r.complete && !r.inFlight).length,
      test_count: tests.length,
      last_alert: lastAlert ? { alert: lastAlert.alert, monitor: id, time: zonedIso(lastAlert.time * 1000, sim.timeZone) } : null,
      // The API document's sample names `complete` `flag` in these objects; served as shown.
      last_failed: lastFailed ? (renderTestData(sim, lastFailed, 'flag') as JsonObject) : null,
      last_test: lastTest ? (renderTestData(sim, lastTest, 'flag') as JsonObject) : null,
    });
  }
  return out;
}
