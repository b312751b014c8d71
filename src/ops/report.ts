/**
 * `monsync report`: uptime and alerting of an account over a period, read from the service.
 *
 * Contract: `buildReport(api, request)` reads the monitors (and the groups it needs), then each
 * monitor's RAW test data over the period in windows of at most DATA_WINDOW_SECONDS (a month of
 * 5-minute tests is 8,640 items; a window keeps every answer a few hundred kilobytes), at most
 * `concurrency` monitors at a time on top of the client's own cap. Each window passes the data
 * rules (data-rules.ts: repeats counted once, values no test can have and times outside the window
 * left out, all said in one note) and streams into the monitor's figures, then is dropped; the
 * account and groups keep counts of values (report-stats.ts), so memory grows with
 * neither the number of tests nor the number of monitors, beyond each monitor's own row. Alert counts come from
 * `Status/Filter`, whose `t` is "seconds back from now" (API 4.2, no maximum documented): the
 * alerts of (from, to] are `alert_count(t = now - from) - alert_count(t = now - to)`, read with
 * one `prefix` per first character of the selected labels (the API wants at least one filter).
 * Nothing is written to the service. Problems the user can act on are UserErrors.
 *
 * The period is in UTC: `--month 2026-10` is [2026-10-01, 2026-11-01), `--since 30d` the 30 days
 * before `--until` (default: the service's now). A period reaching past now ends at now.
 */
import type { DataItem, MonitoringApi, PausedAlert } from '../api/types.js';
import type { Monitor } from '../model/live.js';
import { UsageError, UserError } from '../util/errors.js';
import { quote } from '../util/safe-text.js';
import { parseDuration } from '../util/duration.js';
import { resolveMonitor, suggestions } from './resolve.js';
import { filterEntries } from './status-filter.js';
import { admitData, leftOutNotes, noneLeftOut, type LeftOut } from '../api/data-rules.js';
import { ACCOUNTING, DAY_SECONDS, OutageScanner, Tally, type Figures, type Outage } from './report-stats.js';
import { ObjectiveBook, shorterThanWindowNote, type Budget, type ReportObjectives, type SlowCounter } from './report-slo.js';
import { formatDuration } from '../util/duration.js';

export const REPORT_VERSION = 1;
/** The longest data read in one request. */
export const DATA_WINDOW_SECONDS = 7 * DAY_SECONDS;
export const DEFAULT_REPORT_CONCURRENCY = 8;

export interface ReportPeriod {
  /** Unix seconds, inclusive. */
  from: number;
  /** Unix seconds, exclusive. */
  to: number;
  /** How the period was asked for: `2026-10`, `last 30 days`, ... */
  label: string;
}

export interface PeriodRequest {
  since?: string;
  month?: string;
  until?: string;
}

export interface ReportMonitor {
  id: string;
  label: string;
  type: string;
  groups: string[];
  figures: Figures;
  outages: Outage[];
  /** Alerts of the monitor paused at the time of the report, and the longest time left (seconds); null when none is. */
  pausedNow: { alerts: number; of: number; secondsLeft: number } | null;
  /** Its error budget over the period, with an objective in the configuration (report-slo.ts). */
  budget?: Budget;
}

export interface ReportGroup {
  name: string;
  monitors: number;
  figures: Figures;
  /** Its error budget over its monitors' tests, with an objective in the configuration. */
  budget?: Budget;
}

/** Versioned plain data: what every renderer draws and `--format json` prints (schemas/report.schema.json). */
export interface Report {
  version: typeof REPORT_VERSION;
  /** Unix seconds of the service's clock when the report was read. */
  generatedAt: number;
  period: ReportPeriod;
  accounting: string[];
  account: { monitors: number; figures: Figures };
  groups: ReportGroup[];
  monitors: ReportMonitor[];
  /** What the report could not know, said once. */
  notes: string[];
}

export interface ReportRequest {
  /** The period, or how to find it from the service's now (known after the first answer's Date header). */
  period: ReportPeriod | ((now: number) => ReportPeriod);
  monitors?: readonly string[];
  groups?: readonly string[];
  concurrency?: number;
  /** The configuration's objectives (`slo:`): monitors and groups with one get a budget. */
  objectives?: ReportObjectives;
  /** Service time now, unix seconds (the runner passes its clock plus the service's offset). */
  now: () => number;
  onProgress?: (p: ReportProgress) => void;
}

export type ReportProgress = { kind: 'start'; monitors: number } | { kind: 'monitor'; done: number; total: number } | { kind: 'alerts' };

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;
const DATE = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/;

/** A date or date-time (UTC unless it says otherwise) in unix seconds; a UsageError naming the flag otherwise. */
export function parseInstant(text: string, flag: string): number {
  const t = text.trim();
  if (!DATE.test(t)) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a date; give e.g. 2026-10-01 or 2026-10-01T12:00Z`);
  const iso = t.length === 10 ? `${t}T00:00:00Z` : /Z|[+-]\d{2}:\d{2}$/.test(t) ? t : `${t}Z`;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) throw new UsageError(`${flag}: ${JSON.stringify(text)} is not a date on the calendar`);
  return Math.floor(ms / 1000);
}

/** The period asked for, in UTC; `now` in unix seconds. */
export function resolvePeriod(req: PeriodRequest, now: number): ReportPeriod {
  if (req.month !== undefined && (req.since !== undefined || req.until !== undefined)) {
    throw new UsageError('--month is a whole month: give it alone, or --since/--until instead');
  }
  if (req.month !== undefined) {
    const m = MONTH.exec(req.month.trim());
    if (!m) throw new UsageError(`--month: ${JSON.stringify(req.month)} is not a month; give it as YYYY-MM, e.g. 2026-10`);
    const [y, mo] = [Number(m[1]), Number(m[2])];
    const from = Date.UTC(y, mo - 1, 1) / 1000;
    const end = Date.UTC(y, mo, 1) / 1000;
    if (from >= now) throw new UsageError(`--month ${req.month} has not begun yet`);
    return { from, to: Math.min(end, now), label: end > now ? `${req.month.trim()} (to date)` : req.month.trim() };
  }
  const to = req.until === undefined ? now : Math.min(parseInstant(req.until, '--until'), now);
  const since = req.since ?? '30d';
  const from = DATE.test(since.trim()) ? parseInstant(since, '--since') : to - parseDuration(since, '--since');
  if (from >= to) throw new UsageError(`--since must be before --until (and before now): the period is empty`);
  const label = DATE.test(since.trim()) ? `${since.trim()} to ${req.until?.trim() ?? 'now'}` : `last ${since.trim()}${req.until ? ` before ${req.until.trim()}` : ''}`;
  return { from, to, label };
}

/** Runs `work` over `items`, at most `limit` at a time, in order of start. */
async function pool<T>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await work(items[i] as T, i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** One window's items through the data rules, straight into the tally and the outage scanner: no copy per test. */
function countWindow(items: readonly DataItem[], window: { from: number; to: number }, leftOut: LeftOut, tally: Tally, scan: OutageScanner, slow: SlowCounter | undefined): void {
  for (const d of admitData(items, window, leftOut)) {
    tally.addTest(d.utc_mktime, d.failed, d.failed ? null : d.value);
    scan.addTest(d.utc_mktime, d.failed);
    slow?.add(d.utc_mktime, d.failed, d.value);
  }
}

/**
 * Streams one monitor's raw tests over [from, to), window by window, into its tally and its
 * outages: each window's items pass the data rules (data-rules.ts: the window is the period asked
 * for), then are dropped, so a monitor holds one window's answer at a time. What the rules left
 * out is added to `leftOut`.
 */
export async function readMonitor(api: MonitoringApi, id: string, from: number, to: number, leftOut: LeftOut, slow?: SlowCounter): Promise<{ tally: Tally; outages: Outage[] }> {
  const tally = new Tally();
  const scan = new OutageScanner();
  for (let begin = from; begin < to; begin += DATA_WINDOW_SECONDS) {
    // `begin` and `end` are both inclusive on the service: windows end one second before the next.
    const end = Math.min(begin + DATA_WINDOW_SECONDS, to) - 1;
    // Counted by a function of its own, so that no reference to the answer outlives it in this frame.
    countWindow((await api.getMonitorData(id, { begin, end, average: 'raw' })).data, { from: begin, to: end + 1 }, leftOut, tally, scan, slow);
  }
  const outages = scan.finish(to);
  tally.addOutages(outages);
  return { tally, outages };
}

interface Selection {
  monitors: Monitor[];
  /** Group name -> member ids (every group of the account, or the ones asked for). */
  groups: Map<string, Set<string>>;
}

async function select(api: MonitoringApi, req: ReportRequest, concurrency: number): Promise<Selection> {
  const [all, summaries] = await Promise.all([api.listMonitors(), api.listGroups()]);
  const names = new Set(summaries.map((g) => g.name));
  for (const name of req.groups ?? []) {
    if (!names.has(name)) {
      const near = suggestions(name, [...names]);
      throw new UserError(`--group: no group named ${quote(name)}${near.length ? `; did you mean ${near.map(quote).join(' or ')}?` : ''}`);
    }
  }
  const wanted = req.groups?.length ? summaries.filter((g) => req.groups?.includes(g.name)) : summaries;
  const groups = new Map<string, Set<string>>();
  await pool(wanted, concurrency, async (g) => {
    const full = await api.getGroup(g.id);
    const members = groups.get(g.name) ?? new Set<string>();
    for (const m of full.members) members.add(m.id);
    groups.set(g.name, members);
  });
  let monitors: Monitor[];
  if (!req.monitors?.length && !req.groups?.length) {
    monitors = all;
  } else {
    const ids = new Set<string>();
    for (const label of req.monitors ?? []) {
      try {
        ids.add(resolveMonitor(label, all).id);
      } catch (err) {
        if (err instanceof UserError) throw new UserError(`--monitor: ${err.message}`, { details: err.details });
        throw err;
      }
    }
    if (req.groups?.length) for (const members of groups.values()) for (const id of members) ids.add(id);
    monitors = all.filter((m) => ids.has(m.id));
  }
  monitors.sort((a, b) => a.label.localeCompare(b.label) || Number(a.id) - Number(b.id));
  return { monitors, groups };
}

/** Down messages per monitor id in (from, to], or null where the service did not answer for it. */
async function readAlerts(api: MonitoringApi, monitors: readonly Monitor[], period: ReportPeriod, now: number): Promise<Map<string, number | null>> {
  const count = async (t: number): Promise<Map<string, number>> =>
    new Map([...(await filterEntries(api, t, monitors))].map(([id, e]) => [id, e.alert_count]));
  const upToNow = await count(Math.max(1, now - period.from));
  // Alerts after the period's end are taken off; none when the period ends now.
  const after = period.to < now ? await count(now - period.to) : new Map<string, number>();
  const result = new Map<string, number | null>();
  for (const m of monitors) {
    const all = upToNow.get(m.id);
    const late = after.get(m.id) ?? 0;
    result.set(m.id, all === undefined || all < late ? null : all - late);
  }
  return result;
}

function pausedNow(m: Monitor, paused: readonly PausedAlert[]): ReportMonitor['pausedNow'] {
  const mine = paused.filter((p) => p.monitor === m.id && p.seconds > 0);
  if (mine.length === 0) return null;
  return { alerts: mine.length, of: Math.max(m.alerts.length, mine.length), secondsLeft: Math.max(...mine.map((p) => p.seconds)) };
}

export async function buildReport(api: MonitoringApi, req: ReportRequest): Promise<Report> {
  const concurrency = req.concurrency ?? DEFAULT_REPORT_CONCURRENCY;
  const { monitors, groups } = await select(api, req, concurrency);
  // `--since 30d` means 30 days of the service's clock (an emulator's may be anywhere).
  const period = typeof req.period === 'function' ? req.period(req.now()) : req.period;
  req.onProgress?.({ kind: 'start', monitors: monitors.length });
  const account = new Tally(true, true);
  const leftOut = noneLeftOut();
  const groupTallies = new Map<string, Tally>();
  const groupsOf = new Map<string, string[]>();
  for (const [name, members] of groups) {
    // Groups keep daily tests and failures, not daily response times (report-stats.ts Tally).
    groupTallies.set(name, new Tally(false, true));
    for (const id of members) groupsOf.set(id, [...(groupsOf.get(id) ?? []), name]);
  }
  const rows: ReportMonitor[] = new Array(monitors.length);
  const book = new ObjectiveBook(req.objectives);
  let done = 0;
  await pool(monitors, concurrency, async (m, i) => {
    const inGroups = [...(groupsOf.get(m.id) ?? [])].sort();
    const slow = book.counterFor(m.label, inGroups);
    const { tally: t, outages } = await readMonitor(api, m.id, period.from, period.to, leftOut, slow);
    // Merged at once and dropped: a monitor's value counts are thousands of entries, 1,000 monitors' would be hundreds of MB.
    account.merge(t);
    for (const g of inGroups) groupTallies.get(g)?.merge(t);
    rows[i] = { id: m.id, label: m.label, type: m.type, groups: inGroups, figures: t.figures(period.from, period.to), outages, pausedNow: null };
    const budget = book.monitorRead(m.label, inGroups, rows[i].figures.days, slow, period);
    if (budget !== undefined) rows[i].budget = budget;
    req.onProgress?.({ kind: 'monitor', done: ++done, total: monitors.length });
  });
  req.onProgress?.({ kind: 'alerts' });
  const [alerts, paused] = await Promise.all([readAlerts(api, monitors, period, req.now()), api.listPausedAlerts()]);
  const notes: string[] = [];
  monitors.forEach((m, i) => {
    const row = rows[i] as ReportMonitor;
    const n = alerts.get(m.id) ?? null;
    row.figures.alerts = n;
    row.pausedNow = pausedNow(m, paused);
    account.addAlerts(n);
    for (const g of row.groups) groupTallies.get(g)?.addAlerts(n);
  });
  notes.push(...leftOutNotes(leftOut));
  if (rows.some((r) => r.figures.alerts === null)) notes.push('Alerts are unknown (—) where Status/Filter did not list the monitor.');
  notes.push('Time paused over the period is not known: the API tells only the pauses running now (shown per monitor).');
  if (period.to > req.now() - 60) notes.push('The period ends now: tests still running at its end count as they were reported then.');
  const members = new Map<string, number>();
  for (const r of rows) for (const g of r.groups) members.set(g, (members.get(g) ?? 0) + 1);
  // A group counts the selected monitors in it; a group none of them is in is left out.
  const groupRows: ReportGroup[] = [...groupTallies]
    .filter(([name]) => members.has(name))
    .map(([name, t]): ReportGroup => {
      const budget = book.groupBudget(name, period);
      return { name, monitors: members.get(name) ?? 0, figures: t.figures(period.from, period.to), ...(budget !== undefined ? { budget } : {}) };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const windowNote = shorterThanWindowNote([...rows, ...groupRows].flatMap((x) => (x.budget ? [x.budget] : [])), period.to - period.from, (s) => formatDuration(s, 2));
  if (windowNote !== null) notes.push(windowNote);
  return {
    version: REPORT_VERSION,
    generatedAt: req.now(),
    period,
    accounting: [...ACCOUNTING],
    account: { monitors: monitors.length, figures: account.figures(period.from, period.to) },
    groups: groupRows,
    monitors: rows,
    notes,
  };
}
