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

/** Values below this (whole milliseconds: most round trips are under a minute) are counted in an array indexed by the value. */
const DENSE_MS = 65_536;

type MedianAndP95 = { medianMs: number | null; p95Ms: number | null };
const NO_VALUES: MedianAndP95 = { medianMs: null, p95Ms: null };

/** The 1-based nearest ranks of the median and the 95th percentile among `n` values. */
const ranksOf = (n: number): [number, number] => [Math.max(1, Math.ceil(0.5 * n)), Math.max(1, Math.ceil(0.95 * n))];

/** A monitor's values (a few thousand): sorted, the ranks read off. */
function medianAndP95Of(values: readonly number[]): MedianAndP95 {
  if (values.length === 0) return NO_VALUES;
  const sorted = Int32Array.from(values).sort();
  const [m, p] = ranksOf(sorted.length);
  return { medianMs: sorted[m - 1] as number, p95Ms: sorted[p - 1] as number };
}

/**
 * Many monitors' values (the account, its days, a group) as counts: below DENSE_MS in an array
 * indexed by the value (256 KB, resident only where values land), the rarer longer ones in a Map.
 * Memory is the distinct values, never one entry per test.
 */
class Counts {
  private low: Uint32Array | null = null;
  private readonly high = new Map<number, number>();
  n = 0;

  add(v: number, count = 1): void {
    if (v < DENSE_MS) {
      const low = (this.low ??= new Uint32Array(DENSE_MS));
      low[v] = (low[v] as number) + count;
    } else this.high.set(v, (this.high.get(v) ?? 0) + count);
    this.n += count;
  }

  addAll(other: Counts): void {
    const low = other.low;
    if (low) for (let v = 0; v < DENSE_MS; v++) if (low[v] !== 0) this.add(v, low[v] as number);
    for (const [v, c] of other.high) this.add(v, c);
  }

  /** The nearest-rank median and 95th percentile: the counts walked in value order. */
  medianAndP95(): MedianAndP95 {
    if (this.n === 0) return NO_VALUES;
    const ranks = ranksOf(this.n);
    const found: number[] = [];
    let seen = 0;
    const walk = (v: number, c: number) => {
      seen += c;
      while (found.length < 2 && seen >= (ranks[found.length] as number)) found.push(v);
    };
    const low = this.low;
    if (low) for (let v = 0; v < DENSE_MS && found.length < 2; v++) if (low[v] !== 0) walk(v, low[v] as number);
    for (const v of [...this.high.keys()].sort((x, y) => x - y)) walk(v, this.high.get(v) as number);
    return { medianMs: found[0] as number, p95Ms: found[1] as number };
  }
}

/**
 * Finds the runs of consecutive failed tests of one monitor as its tests stream past, in time
 * order (window after window of the data endpoint): only the run in progress is held.
 */
export class OutageScanner {
  readonly outages: Outage[] = [];
  private run: { start: number; tests: number } | null = null;

  /** One test: its start (unix seconds) and whether it failed. */
  addTest(start: number, failed: boolean): void {
    if (failed) {
      if (this.run) this.run.tests++;
      else this.run = { start, tests: 1 };
    } else if (this.run) {
      const run = this.run;
      if (run.tests >= MIN_OUTAGE_TESTS) this.outages.push({ start: run.start, end: start, seconds: start - run.start, tests: run.tests, ongoing: false });
      this.run = null;
    }
  }

  /** The outages, the one still running at the period's end `to` included (`ongoing`). */
  finish(to: number): Outage[] {
    const run = this.run;
    if (run && run.tests >= MIN_OUTAGE_TESTS) this.outages.push({ start: run.start, end: to, seconds: to - run.start, tests: run.tests, ongoing: true });
    this.run = null;
    return this.outages;
  }
}

/** Runs of consecutive failed tests, in time order; `tests` sorted by start, all within [from, to). */
export function outagesOf(tests: readonly RawTest[], to: number): Outage[] {
  const scan = new OutageScanner();
  for (const t of tests) scan.addTest(t.t, t.failed);
  return scan.finish(to);
}

interface Day {
  tests: number;
  failed: number;
  /** A monitor's values of the day. */
  values: number[];
  /** An aggregate's values of the day (null where per-day values are not kept). */
  counts: Counts | null;
}

/**
 * What is kept of a monitor (or a group, or the account) while the report is read: counts and
 * response values, per period and per UTC day; merged without ever averaging averages. A monitor's
 * tally keeps its values by day (sorted when its figures are read); an aggregate (`aggregate:
 * true`), which many monitors are merged into, keeps counts.
 */
export class Tally {
  /**
   * `perDayValues: false` keeps no values per day (a group's daily median and p95 are then null):
   * a group's days would hold 31 sets of the values its period holds already.
   */
  constructor(
    private readonly perDayValues = true,
    private readonly aggregate = false,
  ) {}

  tests = 0;
  failed = 0;
  outages = 0;
  outageSeconds = 0;
  longest: number | null = null;
  alerts: number | null = 0;
  /** An aggregate's values over the period. */
  private readonly counts = new Counts();
  readonly days = new Map<number, Day>();

  private day(day: number): Day {
    let d = this.days.get(day);
    if (!d) {
      d = { tests: 0, failed: 0, values: [], counts: this.aggregate && this.perDayValues ? new Counts() : null };
      this.days.set(day, d);
    }
    return d;
  }

  /** Adds a monitor's tests (any order). */
  addTests(tests: readonly RawTest[]): void {
    for (const t of tests) this.addTest(t.t, t.failed, t.value);
  }

  /** One test: its start (unix seconds), whether it failed, its value (ms; null without a response). */
  addTest(start: number, failed: boolean, value: number | null): void {
    this.tests++;
    const d = this.day(Math.floor(start / DAY_SECONDS) * DAY_SECONDS);
    d.tests++;
    if (failed) {
      this.failed++;
      d.failed++;
    } else if (value !== null && Number.isFinite(value)) this.addValue(d, Math.round(value));
  }

  private addValue(d: Day, v: number): void {
    if (this.aggregate) {
      this.counts.add(v);
      d.counts?.add(v);
    } else d.values.push(v);
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
    if (other.aggregate && !this.aggregate) throw new Error("Tally: an aggregate's values merge only into an aggregate");
    this.tests += other.tests;
    this.failed += other.failed;
    this.outages += other.outages;
    this.outageSeconds += other.outageSeconds;
    if (other.longest !== null) this.longest = this.longest === null ? other.longest : Math.max(this.longest, other.longest);
    this.addAlerts(other.alerts);
    if (other.aggregate) this.counts.addAll(other.counts);
    for (const [day, d] of other.days) {
      const mine = this.day(day);
      mine.tests += d.tests;
      mine.failed += d.failed;
      if (!other.aggregate) for (const v of d.values) this.addValue(mine, v);
      else if (mine.counts && d.counts) mine.counts.addAll(d.counts);
    }
  }

  /** The figures, with one entry per UTC day of [from, to) (days without tests included). */
  figures(from: number, to: number): Figures {
    const days: DayFigures[] = [];
    for (let day = Math.floor(from / DAY_SECONDS) * DAY_SECONDS; day < to; day += DAY_SECONDS) {
      const d = this.days.get(day);
      const p = !d || !this.perDayValues ? NO_VALUES : this.aggregate ? (d.counts as Counts).medianAndP95() : medianAndP95Of(d.values);
      // Every field written out, no spread: a report keeps 31 of these per monitor to its end.
      days.push({
        day,
        tests: d?.tests ?? 0,
        failed: d?.failed ?? 0,
        availability: d ? percent(d.tests - d.failed, d.tests) : null,
        medianMs: p.medianMs,
        p95Ms: p.p95Ms,
      });
    }
    const period = this.aggregate ? this.counts.medianAndP95() : medianAndP95Of([...this.days.values()].flatMap((d) => d.values));
    return {
      tests: this.tests,
      failed: this.failed,
      availability: percent(this.tests - this.failed, this.tests),
      outages: this.outages,
      longestOutageSeconds: this.longest,
      outageSeconds: this.outageSeconds,
      medianMs: period.medianMs,
      p95Ms: period.p95Ms,
      alerts: this.alerts,
      days,
    };
  }
}
