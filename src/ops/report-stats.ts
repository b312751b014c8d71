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

/**
 * A sorted run of whole-millisecond values with their counts: `keys` ascending and distinct,
 * `counts[i]` how often `keys[i]` was seen, `n` entries used.
 */
interface Run {
  keys: Int32Array;
  counts: Uint32Array;
  n: number;
}

const EMPTY_RUN: Run = { keys: new Int32Array(0), counts: new Uint32Array(0), n: 0 };
/** Pending entries merged at once at the least; below it a flush costs more than it saves. */
const MIN_FLUSH_ENTRIES = 4096;

/** A sorted Int32Array as a run (equal values counted). */
function runOf(sorted: Int32Array): Run {
  let distinct = 0;
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct++;
  const keys = new Int32Array(distinct);
  const counts = new Uint32Array(distinct);
  let k = -1;
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i] as number;
    if (k < 0 || keys[k] !== v) keys[++k] = v;
    counts[k] = (counts[k] as number) + 1;
  }
  return { keys, counts, n: distinct };
}

/** Two runs as one: a linear merge, equal keys' counts added. */
function mergeRuns(a: Run, b: Run): Run {
  if (a.n === 0) return b;
  if (b.n === 0) return a;
  const keys = new Int32Array(a.n + b.n);
  const counts = new Uint32Array(a.n + b.n);
  let i = 0;
  let j = 0;
  let k = 0;
  while (i < a.n && j < b.n) {
    const x = a.keys[i] as number;
    const y = b.keys[j] as number;
    if (x < y) {
      keys[k] = x;
      counts[k++] = a.counts[i++] as number;
    } else if (y < x) {
      keys[k] = y;
      counts[k++] = b.counts[j++] as number;
    } else {
      keys[k] = x;
      counts[k++] = (a.counts[i++] as number) + (b.counts[j++] as number);
    }
  }
  while (i < a.n) {
    keys[k] = a.keys[i] as number;
    counts[k++] = a.counts[i++] as number;
  }
  while (j < b.n) {
    keys[k] = b.keys[j] as number;
    counts[k++] = b.counts[j++] as number;
  }
  // Trimmed, so that a long-lived run holds no spare half.
  return k === keys.length ? { keys, counts, n: k } : { keys: keys.slice(0, k), counts: counts.slice(0, k), n: k };
}

/**
 * Counts of response values, keyed by whole milliseconds: exact percentiles that merge cheaply.
 * Values come in as sorted runs (a monitor sorts its values once, a numeric sort of a typed
 * array); runs wait until they hold as many entries as the main run, then merge pairwise into it,
 * so each entry is merged O(log n) times whatever the number of monitors, and memory is the
 * distinct values seen (at most twice), never one entry per test.
 */
export class ValueCounts {
  private main: Run = EMPTY_RUN;
  private pending: Run[] = [];
  private pendingEntries = 0;
  /** Values counted. */
  total = 0;

  /** Adds values sorted ascending (whole milliseconds). */
  addSorted(sorted: Int32Array): void {
    if (sorted.length === 0) return;
    this.addRun(runOf(sorted));
  }

  /** Adds every value another ValueCounts holds. */
  addAll(other: ValueCounts): void {
    const run = other.run();
    if (run.n > 0) this.addRun(run);
  }

  private addRun(run: Run): void {
    for (let i = 0; i < run.n; i++) this.total += run.counts[i] as number;
    this.pending.push(run);
    this.pendingEntries += run.n;
    if (this.pendingEntries >= Math.max(MIN_FLUSH_ENTRIES, this.main.n)) this.flush();
  }

  private flush(): void {
    let runs = [this.main, ...this.pending];
    while (runs.length > 1) {
      const next: Run[] = [];
      for (let i = 0; i < runs.length; i += 2) next.push(i + 1 < runs.length ? mergeRuns(runs[i] as Run, runs[i + 1] as Run) : (runs[i] as Run));
      runs = next;
    }
    this.main = runs[0] as Run;
    this.pending = [];
    this.pendingEntries = 0;
  }

  /** Every value as one sorted run. */
  private run(): Run {
    if (this.pending.length > 0) this.flush();
    return this.main;
  }

  /** The nearest-rank percentile (`p` in 0..100) of the counted values; null without values. */
  percentile(p: number): number | null {
    if (this.total === 0) return null;
    const run = this.run();
    const rank = Math.max(1, Math.ceil((p / 100) * this.total));
    let seen = 0;
    for (let i = 0; i < run.n; i++) {
      seen += run.counts[i] as number;
      if (seen >= rank) return run.keys[i] as number;
    }
    return run.keys[run.n - 1] as number;
  }
}

/**
 * Finds the runs of consecutive failed tests of one monitor as its tests stream past, in time
 * order (window after window of the data endpoint): only the run in progress is held.
 */
export class OutageScanner {
  readonly outages: Outage[] = [];
  private run: { start: number; tests: number } | null = null;

  add(t: RawTest): void {
    if (t.failed) {
      if (this.run) this.run.tests++;
      else this.run = { start: t.t, tests: 1 };
    } else if (this.run) {
      const run = this.run;
      if (run.tests >= MIN_OUTAGE_TESTS) this.outages.push({ start: run.start, end: t.t, seconds: t.t - run.start, tests: run.tests, ongoing: false });
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
  for (const t of tests) scan.add(t);
  return scan.finish(to);
}

interface Day {
  tests: number;
  failed: number;
  /** Response values of the day (null where per-day values are not kept). */
  values: ValueCounts | null;
}

/**
 * What is kept of a monitor (or a group, or the account) while the report is read: counts and
 * value counts, per period and per UTC day; merged without ever averaging averages.
 */
export class Tally {
  /**
   * `perDayValues: false` keeps no value counts per day (a group's daily median and p95 are then
   * null): a group's days would hold 31 sets of the values its period holds already.
   */
  constructor(private readonly perDayValues = true) {}

  tests = 0;
  failed = 0;
  outages = 0;
  outageSeconds = 0;
  longest: number | null = null;
  alerts: number | null = 0;
  readonly values = new ValueCounts();
  readonly days = new Map<number, Day>();

  private day(day: number): Day {
    let d = this.days.get(day);
    if (!d) {
      d = { tests: 0, failed: 0, values: this.perDayValues ? new ValueCounts() : null };
      this.days.set(day, d);
    }
    return d;
  }

  /**
   * Adds a monitor's tests (any order). Each UTC day's values are sorted once (a numeric sort of
   * a typed array) and added as one run to the day and to the period.
   */
  addTests(tests: readonly RawTest[]): void {
    const byDay = new Map<number, number[]>();
    for (const t of tests) {
      this.tests++;
      const day = Math.floor(t.t / DAY_SECONDS) * DAY_SECONDS;
      const d = this.day(day);
      d.tests++;
      if (t.failed) {
        this.failed++;
        d.failed++;
      } else if (t.value !== null && Number.isFinite(t.value)) {
        const list = byDay.get(day);
        if (list) list.push(Math.round(t.value));
        else byDay.set(day, [Math.round(t.value)]);
      }
    }
    for (const [day, list] of byDay) {
      const sorted = Int32Array.from(list).sort();
      this.values.addSorted(sorted);
      this.days.get(day)?.values?.addSorted(sorted);
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
    this.values.addAll(other.values);
    for (const [day, d] of other.days) {
      const mine = this.day(day);
      mine.tests += d.tests;
      mine.failed += d.failed;
      if (mine.values && d.values) mine.values.addAll(d.values);
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
        medianMs: d?.values ? d.values.percentile(50) : null,
        p95Ms: d?.values ? d.values.percentile(95) : null,
      });
    }
    return {
      tests: this.tests,
      failed: this.failed,
      availability: percent(this.tests - this.failed, this.tests),
      outages: this.outages,
      longestOutageSeconds: this.longest,
      outageSeconds: this.outageSeconds,
      medianMs: this.values.percentile(50),
      p95Ms: this.values.percentile(95),
      alerts: this.alerts,
      days,
    };
  }
}
