/**
 * The arithmetic of `monsync report`, pure: from a monitor's raw tests to its figures, and from
 * monitors to groups and the account.
 *
 * The accounting (stated in every report, `ACCOUNTING`):
 * - a test counts in the period when it STARTED in [from, to) (UTC);
 * - availability = tests that completed / tests run (raw data: an hourly or daily average marks
 *   its hour failed only when every test in it failed, so it cannot give this);
 * - an outage is a run of at least MIN_OUTAGE_TESTS consecutive failed tests of one monitor: from
 *   the start of its first failed test to the start of the next test that completed (or the end
 *   of the period, when it was still failing then: `ongoing`); its duration is that difference. A
 *   lone failed test counts against availability but is not an outage (at a 1% failure rate a
 *   month of 5-minute tests has about 90 of them: an outage list of noise);
 * - response times are the `value` of completed tests (milliseconds), median and 95th percentile
 *   by the nearest-rank method over values rounded to whole milliseconds;
 * - groups and the account add up TESTS (never averages of averages): their availability is all
 *   their completed tests over all their tests, their percentiles are over all their tests'
 *   values; a monitor in two groups counts in both, and once in the account.
 */

export const DAY_SECONDS = 86_400;
/** Consecutive failed tests that make an outage. */
export const MIN_OUTAGE_TESTS = 2;

/** One raw test as the report needs it (API 2.8 data item, `average=raw`). */
export interface RawTest {
  /** Unix seconds the test started. */
  t: number;
  failed: boolean;
  /** Milliseconds; null when there was no response. */
  value: number | null;
}

export interface Outage {
  /** Unix seconds: start of the first failed test. */
  start: number;
  /** Unix seconds: start of the next completed test, or the period's end while `ongoing`. */
  end: number;
  seconds: number;
  /** Failed tests in the run. */
  tests: number;
  ongoing: boolean;
}

/** Counts of response values, keyed by whole milliseconds: exact percentiles that merge cheaply. */
export type ValueCounts = Map<number, number>;

export interface DayFigures {
  /** Unix seconds of the UTC day's start. */
  day: number;
  tests: number;
  failed: number;
  /** Completed / tests, percent; null without tests. */
  availability: number | null;
  medianMs: number | null;
  p95Ms: number | null;
}

export interface Figures {
  tests: number;
  failed: number;
  availability: number | null;
  outages: number;
  /** Seconds of the longest outage; null without any. */
  longestOutageSeconds: number | null;
  /** Seconds spent in outages within the period. */
  outageSeconds: number;
  medianMs: number | null;
  p95Ms: number | null;
  /** Down messages (triggers and repeats) in the period; null when the service could not say. */
  alerts: number | null;
  days: DayFigures[];
}

export const ACCOUNTING = [
  'A test counts when it started within the period (UTC).',
  'Availability is the share of tests that completed, from raw test data.',
  'An outage is a run of two or more consecutive failed tests: from the start of its first failed test to the start of the next test that completed (or the end of the period while it lasted). A lone failed test counts against availability, not as an outage.',
  'Response times are those of completed tests: median and 95th percentile (nearest rank, whole milliseconds).',
  'Groups and the account add up tests, not averages: a monitor in two groups counts in both and once in the account.',
  'Alerts are the down messages (triggers and repeats) counted by Status/Filter over the period.',
] as const;

export function percent(completed: number, tests: number): number | null {
  return tests === 0 ? null : (completed / tests) * 100;
}

/** The nearest-rank percentile (`p` in 0..100) of the counted values; null without values. */
export function percentile(counts: ValueCounts, p: number): number | null {
  let n = 0;
  for (const c of counts.values()) n += c;
  if (n === 0) return null;
  const rank = Math.max(1, Math.ceil((p / 100) * n));
  const keys = [...counts.keys()].sort((a, b) => a - b);
  let seen = 0;
  for (const k of keys) {
    seen += counts.get(k) as number;
    if (seen >= rank) return k;
  }
  return keys[keys.length - 1] as number;
}

export function addValue(counts: ValueCounts, value: number): void {
  const k = Math.round(value);
  counts.set(k, (counts.get(k) ?? 0) + 1);
}

export function mergeCounts(into: ValueCounts, from: ValueCounts): void {
  for (const [k, c] of from) into.set(k, (into.get(k) ?? 0) + c);
}

/** Runs of consecutive failed tests, in time order; `tests` sorted by start, all within [from, to). */
export function outagesOf(tests: readonly RawTest[], to: number): Outage[] {
  const out: Outage[] = [];
  let run: { start: number; tests: number } | null = null;
  for (const t of tests) {
    if (t.failed) {
      if (run) run.tests++;
      else run = { start: t.t, tests: 1 };
    } else if (run) {
      if (run.tests >= MIN_OUTAGE_TESTS) out.push({ start: run.start, end: t.t, seconds: t.t - run.start, tests: run.tests, ongoing: false });
      run = null;
    }
  }
  if (run && run.tests >= MIN_OUTAGE_TESTS) out.push({ start: run.start, end: to, seconds: to - run.start, tests: run.tests, ongoing: true });
  return out;
}

/**
 * What is kept of a monitor (or a group, or the account) while the report is read: counts and
 * value counts, per period and per UTC day; merged without ever averaging averages.
 */
export class Tally {
  /**
   * `perDayValues: false` keeps no value counts per day (a group's daily median and p95 are then
   * null): a group's days cost 31 maps of thousands of entries each, 20 groups half a gigabyte.
   */
  constructor(private readonly perDayValues = true) {}

  tests = 0;
  failed = 0;
  outages = 0;
  outageSeconds = 0;
  longest: number | null = null;
  alerts: number | null = 0;
  readonly values: ValueCounts = new Map();
  readonly days = new Map<number, { tests: number; failed: number; values: ValueCounts }>();

  addTests(tests: readonly RawTest[]): void {
    for (const t of tests) {
      this.tests++;
      const day = Math.floor(t.t / DAY_SECONDS) * DAY_SECONDS;
      let d = this.days.get(day);
      if (!d) {
        d = { tests: 0, failed: 0, values: new Map() };
        this.days.set(day, d);
      }
      d.tests++;
      if (t.failed) {
        this.failed++;
        d.failed++;
      } else if (t.value !== null && Number.isFinite(t.value)) {
        addValue(this.values, t.value);
        addValue(d.values, t.value);
      }
    }
  }

  addOutages(outages: readonly Outage[]): void {
    for (const o of outages) {
      this.outages++;
      this.outageSeconds += o.seconds;
      this.longest = this.longest === null ? o.seconds : Math.max(this.longest, o.seconds);
    }
  }

  addAlerts(n: number | null): void {
    this.alerts = this.alerts === null || n === null ? null : this.alerts + n;
  }

  merge(other: Tally): void {
    this.tests += other.tests;
    this.failed += other.failed;
    this.outages += other.outages;
    this.outageSeconds += other.outageSeconds;
    if (other.longest !== null) this.longest = this.longest === null ? other.longest : Math.max(this.longest, other.longest);
    this.addAlerts(other.alerts);
    mergeCounts(this.values, other.values);
    for (const [day, d] of other.days) {
      let mine = this.days.get(day);
      if (!mine) {
        mine = { tests: 0, failed: 0, values: new Map() };
        this.days.set(day, mine);
      }
      mine.tests += d.tests;
      mine.failed += d.failed;
      if (this.perDayValues) mergeCounts(mine.values, d.values);
    }
  }

  /** The figures, with one entry per UTC day of [from, to) (days without tests included). */
  figures(from: number, to: number): Figures {
    const days: DayFigures[] = [];
    for (let day = Math.floor(from / DAY_SECONDS) * DAY_SECONDS; day < to; day += DAY_SECONDS) {
      const d = this.days.get(day);
      days.push({
        day,
        tests: d?.tests ?? 0,
        failed: d?.failed ?? 0,
        availability: d ? percent(d.tests - d.failed, d.tests) : null,
        medianMs: d && this.perDayValues ? percentile(d.values, 50) : null,
        p95Ms: d && this.perDayValues ? percentile(d.values, 95) : null,
      });
    }
    return {
      tests: this.tests,
      failed: this.failed,
      availability: percent(this.tests - this.failed, this.tests),
      outages: this.outages,
      longestOutageSeconds: this.longest,
      outageSeconds: this.outageSeconds,
      medianMs: percentile(this.values, 50),
      p95Ms: percentile(this.values, 95),
      alerts: this.alerts,
      days,
    };
  }
}
