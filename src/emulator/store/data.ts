/**
 * Data (API 4.8): the simulated tests of a monitor, raw or averaged per UTC hour or day, and the
 * hop analysis of its SMTP test messages; unless data was set for the monitor through the control
 * API (POST /_emulator/data), which then replaces its simulated data and hop analysis.
 */
import { alertMatches, timeoutMinutes, type MatchRule } from '../alerting.js';
import { badRequest } from '../errors.js';
import { hopsOf, timerMinutes, type Hop, type TestResult } from '../simulation.js';
import { utcIso, zonedIso } from '../time.js';
import { isObject, type JsonObject } from '../validate.js';
import { results, sync } from './simulation.js';
import { labelOf, metaMatches, type StoreState } from './state.js';
import type { Average, DataItemIn, MonitorDataView, MonitorRec } from './types.js';

export function addData(st: StoreState, monitorId: string, items: unknown, analysis: unknown): { items: number; analysis: number } {
  st.monitorRec(monitorId);
  const newItems = items === undefined ? [] : parseDataItems(items);
  const newAnalysis = analysis === undefined ? [] : parseAnalysis(analysis);
  const d = st.data.get(monitorId) ?? { items: [], analysis: [] };
  d.items.push(...newItems);
  d.items.sort((a, b) => a.utc_mktime - b.utc_mktime);
  d.analysis.push(...newAnalysis);
  st.data.set(monitorId, d);
  st.changed();
  return { items: d.items.length, analysis: d.analysis.length };
}

/**
 * Raw: one item per test started in [begin, end]. `hour`/`day`: one item per UTC hour/day
 * bucket (epoch-aligned) holding tests of the range: `value` the mean of the values present,
 * `samples` the number of tests, `failed` true when every test of the bucket failed.
 */
export function monitorData(st: StoreState, monitorId: string, begin: number, end: number, average: Average): MonitorDataView {
  sync(st);
  const m = st.monitorRec(monitorId);
  const tz = typeof m.raw.time_zone === 'string' ? m.raw.time_zone : undefined;
  const stored = st.data.get(monitorId);
  let items: DataItemIn[];
  if (stored) items = stored.items.filter((i) => i.utc_mktime >= begin && i.utc_mktime <= end);
  else {
    const { sim, results: tests } = results(st, monitorId, m, begin, end);
    // Not used for SMTP monitors (API 2.8).
    const matches = sim.smtp ? undefined : alertMatches(st.sim, sim, tests, matchRules(st, m));
    items = tests.map((r, i) => dataItemOf(r, matches?.[i] ?? []));
  }
  const shaped = average === 'raw' ? items : averageItems(items, average === 'hour' ? 3600 : 86400);
  return { monitor: monitorId, monitor_label: labelOf(m), data: shaped.map((i) => renderDataItem(i, tz)) };
}

export function allMonitorData(st: StoreState, begin: number, end: number, average: Average, meta: [string, string][] | undefined): MonitorDataView[] {
  const out: MonitorDataView[] = [];
  for (const [id, m] of st.monitors) {
    if (meta && !metaMatches(m, meta)) continue;
    out.push(monitorData(st, id, begin, end, average));
  }
  return out;
}

/** One array of hops per SMTP test message that came back, started in [begin, end]. */
export function responseAnalysis(st: StoreState, monitorId: string, begin: number, end: number): Hop[][] {
  sync(st);
  const m = st.monitorRec(monitorId);
  const stored = st.data.get(monitorId);
  if (stored) {
    return stored.analysis
      .filter((hops) => hops.length > 0 && (hops[0] as Hop).time >= begin && (hops[0] as Hop).time <= end)
      .map((hops) => hops.map((h) => ({ ...h })));
  }
  const { sim, results: tests } = results(st, monitorId, m, begin, end);
  const out: Hop[][] = [];
  for (const r of tests) {
    const hops = hopsOf(sim, r);
    if (hops) out.push(hops);
  }
  return out;
}

function matchRules(st: StoreState, m: MonitorRec): MatchRule[] {
  const rules: MatchRule[] = [];
  for (const alert of m.alerts) {
    const a = st.alerts.get(alert);
    if (!a) continue;
    const since = st.alertStates.get(alert)?.since ?? m.created;
    rules.push({ alert, since, timeout: timeoutMinutes(a.timeout, timerMinutes(m.raw.timer)) });
  }
  return rules;
}

function dataItemOf(r: TestResult, matches: string[]): DataItemIn {
  // A test in flight has not failed (yet): API 2.8's `failed` is about tests that did not complete.
  return { utc_mktime: r.t, value: r.ms, failed: !r.complete && !r.inFlight, error: r.error, samples: null, alert_matches: matches };
}

function averageItems(items: DataItemIn[], bucketSeconds: number): DataItemIn[] {
  const buckets = new Map<number, DataItemIn[]>();
  for (const i of items) {
    const b = Math.floor(i.utc_mktime / bucketSeconds) * bucketSeconds;
    const list = buckets.get(b);
    if (list) list.push(i);
    else buckets.set(b, [i]);
  }
  const out: DataItemIn[] = [];
  for (const [start, list] of buckets) {
    const values = list.map((i) => i.value).filter((v): v is number => v !== null);
    out.push({
      utc_mktime: start,
      value: values.length ? values.reduce((a, b) => a + b, 0) / values.length : null,
      failed: list.every((i) => i.failed),
      error: null,
      samples: list.length,
      alert_matches: [...new Set(list.flatMap((i) => i.alert_matches))],
    });
  }
  return out;
}

function renderDataItem(i: DataItemIn, tz: string | undefined): JsonObject {
  const ms = i.utc_mktime * 1000;
  return {
    value: i.value,
    failed: i.failed,
    error: i.error,
    samples: i.samples,
    alert_matches: [...i.alert_matches],
    time: i.time ?? zonedIso(ms, tz),
    utc_time: i.utc_time ?? utcIso(ms),
    utc_mktime: i.utc_mktime,
  };
}

// ---------------------------------------------------------------------------------------------
// Bodies of POST /_emulator/data

function parseDataItems(v: unknown): DataItemIn[] {
  if (!Array.isArray(v)) throw badRequest('items: must be an array of data items');
  return v.map((o, i) => {
    if (!isObject(o)) throw badRequest(`items[${i}]: must be an object`);
    const t = o.utc_mktime;
    if (typeof t !== 'number' || !Number.isInteger(t)) throw badRequest(`items[${i}].utc_mktime: required integer unix seconds`);
    const value = o.value ?? null;
    if (value !== null && typeof value !== 'number') throw badRequest(`items[${i}].value: must be a number or null`);
    const failed = o.failed ?? false;
    if (typeof failed !== 'boolean') throw badRequest(`items[${i}].failed: must be a boolean`);
    const error = o.error ?? null;
    if (error !== null && typeof error !== 'string') throw badRequest(`items[${i}].error: must be a string or null`);
    const samples = o.samples ?? null;
    if (samples !== null && (typeof samples !== 'number' || !Number.isInteger(samples))) {
      throw badRequest(`items[${i}].samples: must be an integer or null`);
    }
    const matches = o.alert_matches ?? [];
    if (!Array.isArray(matches) || !matches.every((x) => typeof x === 'string')) {
      throw badRequest(`items[${i}].alert_matches: must be an array of alert ids`);
    }
    const item: DataItemIn = { utc_mktime: t, value, failed, error, samples, alert_matches: matches as string[] };
    if (typeof o.time === 'string') item.time = o.time;
    if (typeof o.utc_time === 'string') item.utc_time = o.utc_time;
    return item;
  });
}

function parseAnalysis(v: unknown): Hop[][] {
  if (!Array.isArray(v)) throw badRequest('analysis: must be an array of arrays of hops');
  return v.map((hops, i) => {
    if (!Array.isArray(hops)) throw badRequest(`analysis[${i}]: must be an array of hops`);
    return hops.map((h, j) => {
      const where = `analysis[${i}][${j}]`;
      if (!isObject(h)) throw badRequest(`${where}: must be an object`);
      if (typeof h.source !== 'string' || typeof h.destination !== 'string') {
        throw badRequest(`${where}: source and destination must be strings`);
      }
      if (!Number.isInteger(h.time) || !Number.isInteger(h.duration)) {
        throw badRequest(`${where}: time and duration must be integers`);
      }
      return { source: h.source, destination: h.destination, time: h.time as number, duration: h.duration as number };
    });
  });
}
