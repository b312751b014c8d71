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
  // Locals, not property loads, in the loops: this is the report's innermost code.
  const ak = a.keys;
  const ac = a.counts;
  const an = a.n;
  const bk = b.keys;
  const bc = b.counts;
  const bn = b.n;
  // Counted first, so that the result is allocated once at its size (a long-lived run holds no spare).
  let n = 0;
  let i = 0;
  let j = 0;
  while (i < an && j < bn) {
    const x = ak[i] as number;
    const y = bk[j] as number;
    if (x <= y) i++;
    if (y <= x) j++;
    n++;
  }
  n += an - i + (bn - j);
  const keys = new Int32Array(n);
  const counts = new Uint32Array(n);
  i = 0;
  j = 0;
  let k = 0;
  while (i < an && j < bn) {
    const x = ak[i] as number;
    const y = bk[j] as number;
    if (x < y) {
      keys[k] = x;
      counts[k++] = ac[i++] as number;
    } else if (y < x) {
      keys[k] = y;
      counts[k++] = bc[j++] as number;
    } else {
      keys[k] = x;
      counts[k++] = (ac[i++] as number) + (bc[j++] as number);
    }
  }
  if (i < an) {
    keys.set(ak.subarray(i, an), k);
    counts.set(ac.subarray(i, an), k);
  } else if (j < bn) {
    keys.set(bk.subarray(j, bn), k);
    counts.set(bc.subarray(j, bn), k);
  }
  return { keys, counts, n };
}

/** Values below this (whole ms) are counted in a dense array by a sum: most round trips are under a minute. */
export const DENSE_LIMIT_MS = 65_536;

/**
 * Counts `values[from..to)` below DENSE_LIMIT_MS in `low` and appends the others to `high`. A
 * function of its own, apart from the method's bookkeeping: V8 compiles the loop of a long call
 * while it runs, and left in the method that code met the lines after the loop without their
 * types yet, dropped back to the interpreter, and did so again call after call (measured: 25 ns a
 * value instead of 2-3).
 */
function countDense(low: Uint32Array, high: number[], values: Int32Array, from: number, to: number): void {
  for (let i = from; i < to; i++) {
    const v = values[i] as number;
    if (v < DENSE_LIMIT_MS) low[v] = (low[v] as number) + 1;
    else high.push(v);
  }
}

/** The scratch a monitor's values are ordered in: percentiles and merges run synchronously, one set at a time. */
let scratch = new Int32Array(16_384);

/** `scratch`, at least `n` long. */
function scratchOf(n: number): Int32Array {
  if (scratch.length < n) scratch = new Int32Array(Math.max(n, scratch.length * 2));
  return scratch;
}

/** Partition rounds of one selection before the rest of its range is sorted instead (a guard against a quadratic input). */
const MAX_SELECT_ROUNDS = 64;

/**
 * The value of rank `k` (0-based) of `a[lo..hi]` (inclusive), found by selection (Hoare's
 * partition around the middle element, repeated on the side holding `k`): `a[lo..k-1]` are then
 * all at most the result and `a[k+1..hi]` at least. Linear on average, where a sort is n log n;
 * an input that keeps it partitioning has its remaining range sorted instead.
 */
function select(a: Int32Array, lo: number, hi: number, k: number): number {
  for (let round = 0; hi > lo; round++) {
    if (round === MAX_SELECT_ROUNDS) {
      a.subarray(lo, hi + 1).sort();
      break;
    }
    const pivot = a[(lo + hi) >>> 1] as number;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while ((a[i] as number) < pivot) i++;
      while ((a[j] as number) > pivot) j--;
      if (i <= j) {
        const t = a[i] as number;
        a[i++] = a[j] as number;
        a[j--] = t;
      }
    }
    // [lo, j] <= pivot, (j, i) == pivot, [i, hi] >= pivot.
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k] as number;
  }
  return a[k] as number;
}

/**
 * Nearest-rank values of `a[from..to)` (unordered; reordered in place) for 1-based `ranks`,
 * ascending: the largest is selected first, each smaller one then among the values below it.
 */
function selectRanks(a: Int32Array, from: number, to: number, ranks: readonly number[]): number[] {
  const out = new Array<number>(ranks.length);
  let hi = to - 1;
  for (let r = ranks.length - 1; r >= 0; r--) {
    const k = from + (ranks[r] as number) - 1;
    out[r] = select(a, from, hi, k);
    hi = k;
  }
  return out;
}

/** The 1-based nearest ranks of percentiles `ps` (0..100, ascending) among `total` values. */
function ranksOf(ps: readonly number[], total: number): number[] {
  return ps.map((p) => Math.min(total, Math.max(1, Math.ceil((p / 100) * total))));
}

/** Tail values of an aggregate wait in a plain array until this many (or the main run's size) make one run. */
const TAIL_BATCH = 4096;

/**
 * Counts of response values, keyed by whole milliseconds: exact percentiles that merge cheaply.
 *
 * A plain set (`dense: false`) keeps its values in an array of small integers, copied into one
 * shared scratch typed array when its percentiles are read and the ranks selected there (a
 * monitor's tally keeps its values in MonitorValues instead, with their days). A set many monitors add
 * to (`dense: true`: the account, its days, a group) counts the values below DENSE_LIMIT_MS in a
 * typed array indexed by the value (256 KB, resident only where values land), so adding a monitor
 * costs one sum per value; the rarer values above it gather in batches that become sorted runs of
 * (value, count), merged pairwise among themselves and once into the main run when they hold as
 * many entries as it (each entry merged O(log n) times). Memory is the distinct values seen, never
 * one entry per test, and does not grow with the number of monitors.
 */
export class ValueCounts {
  /** A monitor's values. */
  private values: number[] = [];
  /** Dense counts of values below DENSE_LIMIT_MS (an aggregate's set). */
  private low: Uint32Array | null = null;
  /** Values at or above DENSE_LIMIT_MS not yet in a run (an aggregate's set). */
  private high: number[] = [];
  private main: Run = EMPTY_RUN;
  private pending: Run[] = [];
  private pendingEntries = 0;
  /** Values counted. */
  total = 0;

  constructor(private readonly dense = false) {}

  /** Adds one value (whole milliseconds). */
  add(value: number): void {
    if (this.dense) this.addDenseCount(value, 1);
    else {
      this.values.push(value);
      this.total++;
    }
  }

  /** Adds every value another ValueCounts holds. */
  addAll(other: ValueCounts): void {
    if (other.total === 0) return;
    if (other.dense) {
      // An aggregate into another: as (value, count) pairs.
      const low = other.low;
      if (low) for (let v = 0; v < low.length; v++) if (low[v] !== 0) this.addCount(v, low[v] as number);
      other.flush();
      for (let i = 0; i < other.main.n; i++) this.addCount(other.main.keys[i] as number, other.main.counts[i] as number);
      return;
    }
    const values = other.values;
    if (!this.dense) {
      for (let i = 0; i < values.length; i++) this.values.push(values[i] as number);
      this.total += values.length;
      return;
    }
    const low = this.lowArray();
    for (let i = 0; i < values.length; i++) {
      const v = values[i] as number;
      if (v < DENSE_LIMIT_MS) low[v] = (low[v] as number) + 1;
      else this.high.push(v);
    }
    this.total += values.length;
    if (this.high.length >= Math.max(TAIL_BATCH, this.main.n)) this.batchHigh();
  }

  /** Adds `values[from..to)` (whole milliseconds). */
  addValues(values: Int32Array, from: number, to: number): void {
    if (to <= from) return;
    if (!this.dense) {
      for (let i = from; i < to; i++) this.values.push(values[i] as number);
      this.total += to - from;
      return;
    }
    countDense(this.lowArray(), this.high, values, from, to);
    this.total += to - from;
    if (this.high.length >= Math.max(TAIL_BATCH, this.main.n)) this.batchHigh();
  }

  private addCount(value: number, count: number): void {
    if (this.dense) this.addDenseCount(value, count);
    else for (let c = 0; c < count; c++) this.add(value);
  }

  private addDenseCount(value: number, count: number): void {
    if (value < DENSE_LIMIT_MS) {
      const low = this.lowArray();
      low[value] = (low[value] as number) + count;
    } else this.pushRun({ keys: Int32Array.of(value), counts: Uint32Array.of(count), n: 1 });
    this.total += count;
  }

  /**
   * The dense counts, allocated whole at first use: 256 KB of zeroed memory that the system maps
   * lazily, so only the pages values land on are resident (a Ping monitor's 20-300 ms touch one).
   */
  private lowArray(): Uint32Array {
    this.low ??= new Uint32Array(DENSE_LIMIT_MS);
    return this.low;
  }

  /** The tail values gathered so far, as one sorted run. */
  private batchHigh(): void {
    if (this.high.length === 0) return;
    const sorted = Int32Array.from(this.high).sort();
    this.high = [];
    this.pushRun(runOf(sorted));
  }

  private pushRun(run: Run): void {
    this.pending.push(run);
    this.pendingEntries += run.n;
    if (this.pendingEntries >= Math.max(MIN_FLUSH_ENTRIES, this.main.n)) this.flush();
  }

  private flush(): void {
    this.batchHigh();
    // The pending runs pairwise among themselves (each entry merged log(k) times), then once into the main run.
    let runs = this.pending;
    while (runs.length > 1) {
      const next: Run[] = [];
      for (let i = 0; i < runs.length; i += 2) next.push(i + 1 < runs.length ? mergeRuns(runs[i] as Run, runs[i + 1] as Run) : (runs[i] as Run));
      runs = next;
    }
    if (runs.length === 1) this.main = mergeRuns(this.main, runs[0] as Run);
    this.pending = [];
    this.pendingEntries = 0;
  }

  /** The nearest-rank percentile (`p` in 0..100) of the counted values; null without values. */
  percentile(p: number): number | null {
    return this.percentiles([p])[0] as number | null;
  }

  /** Nearest-rank percentiles (each `p` in 0..100, ascending) of the counted values, from one sort or one walk; nulls without values. */
  percentiles(ps: readonly number[]): (number | null)[] {
    if (this.total === 0) return ps.map(() => null);
    const ranks = ps.map((p) => Math.max(1, Math.ceil((p / 100) * this.total)));
    if (!this.dense) {
      const n = this.values.length;
      const a = scratchOf(n);
      for (let i = 0; i < n; i++) a[i] = this.values[i] as number;
      return selectRanks(a, 0, n, ranksOf(ps, n));
    }
    this.flush();
    const out: (number | null)[] = [];
    let next = 0;
    let seen = 0;
    const low = this.low;
    if (low !== null) {
      for (let v = 0; v < low.length && next < ranks.length; v++) {
        seen += low[v] as number;
        while (next < ranks.length && seen >= (ranks[next] as number)) {
          out.push(v);
          next++;
        }
      }
    }
    const run = this.main;
    for (let i = 0; i < run.n && next < ranks.length; i++) {
      seen += run.counts[i] as number;
      while (next < ranks.length && seen >= (ranks[next] as number)) {
        out.push(run.keys[i] as number);
        next++;
      }
    }
    while (out.length < ranks.length) out.push(run.n > 0 ? (run.keys[run.n - 1] as number) : null);
    return out;
  }
}

type MedianAndP95 = { medianMs: number | null; p95Ms: number | null };
const MEDIAN_P95 = [50, 95] as const;
const NO_PERCENTILES: MedianAndP95 = { medianMs: null, p95Ms: null };

function medianAndP95(values: ValueCounts | null): MedianAndP95 {
  const [medianMs = null, p95Ms = null] = values ? values.percentiles(MEDIAN_P95) : [];
  return { medianMs, p95Ms };
}

function medianAndP95Of(values: readonly number[]): MedianAndP95 {
  return { medianMs: values[0] ?? null, p95Ms: values[1] ?? null };
}

/**
 * Finds the runs of consecutive failed tests of one monitor as its tests stream past, in time
 * order (window after window of the data endpoint): only the run in progress is held.
 */
export class OutageScanner {
  readonly outages: Outage[] = [];
  private run: { start: number; tests: number } | null = null;

  add(t: RawTest): void {
    this.addTest(t.t, t.failed);
  }

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
  for (const t of tests) scan.add(t);
  return scan.finish(to);
}

/** Buffers of monitors' values given back by `Tally.release`: a report holds a pair per monitor in flight. */
const spare: Int32Array[] = [];
/**
 * Buffers kept for reuse at most: a report has 8 monitors in flight by default, 2 buffers each. More
 * in flight (`--parallelism`) leave theirs to the garbage collector; a long period's buffers are
 * large (a year of 1-minute tests is 2-4 MB each), and spares are kept for the life of the process.
 */
const MAX_SPARE = 16;
const FIRST_CAPACITY = 4096;

function takeBuffer(min: number): Int32Array {
  for (let i = spare.length - 1; i >= 0; i--) {
    const b = spare[i] as Int32Array;
    if (b.length >= min) {
      spare.splice(i, 1);
      return b;
    }
  }
  return new Int32Array(Math.max(min, FIRST_CAPACITY));
}

function giveBuffer(b: Int32Array): void {
  if (b.length > 0 && spare.length < MAX_SPARE) spare.push(b);
}

const NO_VALUES: Int32Array = new Int32Array(0);

/**
 * A monitor's response values, each with the slot of its UTC day, in two typed arrays taken from
 * (and given back to) a shared spare list: no JavaScript array, object or new buffer per value
 * set, so nothing of a monitor in flight grows the heap the garbage collector copies and promotes
 * while the monitor waits for its next window. They arrive grouped by day (a monitor's tests come
 * in time order, window after window) and are read in place, a day's values a range of the array;
 * tests in any other order are grouped once, by a counting sort, when first read.
 */
class MonitorValues {
  values: Int32Array = NO_VALUES;
  slots: Int32Array = NO_VALUES;
  n = 0;
  /** Whether the values are grouped by slot, in slot order. */
  private grouped = true;
  private lastSlot = 0;

  add(value: number, slot: number): void {
    if (this.n === this.values.length) this.grow();
    if (slot < this.lastSlot) this.grouped = false;
    this.lastSlot = slot;
    this.values[this.n] = value;
    this.slots[this.n] = slot;
    this.n++;
  }

  private grow(): void {
    const values = takeBuffer(this.n * 2);
    const slots = takeBuffer(this.n * 2);
    values.set(this.values.subarray(0, this.n));
    slots.set(this.slots.subarray(0, this.n));
    this.release();
    this.values = values;
    this.slots = slots;
  }

  /** Gives the buffers back; the values are gone (`n` is kept: it says the set was not empty). */
  release(): void {
    giveBuffer(this.values);
    giveBuffer(this.slots);
    this.values = NO_VALUES;
    this.slots = NO_VALUES;
  }

  /**
   * Where each slot's values lie in `values` (`starts[slot]` to `starts[slot + 1]`), given how many
   * each slot has; grouped first when they did not come so. Reordering values within a slot's
   * range (a selection) keeps them grouped.
   */
  bySlot(counts: readonly number[]): number[] {
    // A plain array: a typed array this small would still be a buffer outside the heap, one per call.
    const starts = new Array<number>(counts.length + 1);
    starts[0] = 0;
    for (let s = 0; s < counts.length; s++) starts[s + 1] = (starts[s] as number) + (counts[s] as number);
    if (!this.grouped) {
      const values = takeBuffer(this.n);
      const slots = takeBuffer(this.n);
      const next = starts.slice(0, counts.length);
      for (let i = 0; i < this.n; i++) {
        const s = this.slots[i] as number;
        const at = next[s] as number;
        values[at] = this.values[i] as number;
        slots[at] = s;
        next[s] = at + 1;
      }
      this.release();
      this.values = values;
      this.slots = slots;
      this.grouped = true;
      this.lastSlot = this.n > 0 ? (slots[this.n - 1] as number) : 0;
    }
    return starts;
  }
}

interface Day {
  day: number;
  tests: number;
  failed: number;
  /** An aggregate's response values of the day (null where per-day values are not kept, and for a monitor: its values carry their day). */
  values: ValueCounts | null;
  /** The day's place in `Tally.dayList`, the slot its values carry in a monitor's MonitorValues. */
  slot: number;
  /** Values of the day (a monitor's). */
  count: number;
}

/**
 * What is kept of a monitor (or a group, or the account) while the report is read: counts and
 * response values, per period and per UTC day; merged without ever averaging averages.
 *
 * A monitor's tally (`aggregate: false`) keeps its values once, each with its day, in pooled
 * typed arrays (MonitorValues); its period's and days' percentiles are selected from them when its
 * figures are read. An aggregate keeps ValueCounts. A monitor's tally is merged into others (an
 * aggregate's into an aggregate), then `release`d: its buffers serve the next monitor.
 */
export class Tally {
  /**
   * `perDayValues: false` keeps no value counts per day (a group's daily median and p95 are then
   * null): a group's days would hold 31 sets of the values its period holds already.
   */
  constructor(
    private readonly perDayValues = true,
    /** Many monitors add to it (the account, a group): value counts kept dense (ValueCounts). */
    private readonly aggregate = false,
  ) {
    this.values = aggregate ? new ValueCounts(true) : null;
    this.own = aggregate ? null : new MonitorValues();
  }

  tests = 0;
  failed = 0;
  outages = 0;
  outageSeconds = 0;
  longest: number | null = null;
  alerts: number | null = 0;
  /** An aggregate's values over the period. */
  private readonly values: ValueCounts | null;
  /** A monitor's values, each with its day. */
  private readonly own: MonitorValues | null;
  private released = false;
  readonly days = new Map<number, Day>();
  /** The days in order of first test: a Day's `slot` is its index. */
  private readonly dayList: Day[] = [];

  /** The day a monitor's tests last went to: tests come in time order, 288 a day at a 5-minute timer. */
  private last: Day | null = null;

  private day(day: number): Day {
    if (this.last?.day === day) return this.last;
    let d = this.days.get(day);
    if (!d) {
      d = { day, tests: 0, failed: 0, values: this.perDayValues && this.aggregate ? new ValueCounts(true) : null, slot: this.dayList.length, count: 0 };
      this.days.set(day, d);
      this.dayList.push(d);
    }
    this.last = d;
    return d;
  }

  /** Adds a monitor's tests (any order). */
  addTests(tests: readonly RawTest[]): void {
    for (const t of tests) this.addTest(t.t, t.failed, t.value);
  }

  /** One test: its start (unix seconds), whether it failed, its value (ms; null without a response). */
  addTest(start: number, failed: boolean, value: number | null): void {
    this.tests++;
    // Within the day of the last test (most are): its day without a remainder of a time past 2^30
    // (a floating-point one, for each of a month's 8,640 tests a monitor).
    const last = this.last;
    const d = last !== null && last.day >= 0 && start >= last.day && start < last.day + DAY_SECONDS ? last : this.day(start - (start % DAY_SECONDS));
    d.tests++;
    if (failed) {
      this.failed++;
      d.failed++;
    } else if (value !== null && Number.isFinite(value)) {
      const v = Math.round(value);
      if (this.own) {
        this.own.add(v, d.slot);
        d.count++;
      } else {
        this.values?.add(v);
        d.values?.add(v);
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

  private usable(): void {
    if (this.released) throw new Error('Tally: read after release()');
  }

  merge(other: Tally): void {
    this.usable();
    other.usable();
    this.tests += other.tests;
    this.failed += other.failed;
    this.outages += other.outages;
    this.outageSeconds += other.outageSeconds;
    if (other.longest !== null) this.longest = this.longest === null ? other.longest : Math.max(this.longest, other.longest);
    this.addAlerts(other.alerts);
    // This tally's day for each of the other's, by the other's slot.
    const mine = other.dayList.map((d) => {
      const m = this.day(d.day);
      m.tests += d.tests;
      m.failed += d.failed;
      return m;
    });
    const own = other.own;
    if (own === null) {
      if (this.values === null) throw new Error("Tally: an aggregate's values merge only into an aggregate");
      this.values.addAll(other.values as ValueCounts);
      other.dayList.forEach((d, s) => {
        const m = mine[s] as Day;
        if (m.values && d.values) m.values.addAll(d.values);
      });
      return;
    }
    const starts = own.bySlot(other.dayList.map((d) => d.count));
    const a = own.values;
    for (let s = 0; s < mine.length; s++) {
      const m = mine[s] as Day;
      const from = starts[s] as number;
      const to = starts[s + 1] as number;
      if (this.own) {
        for (let i = from; i < to; i++) this.own.add(a[i] as number, m.slot);
        m.count += to - from;
      } else {
        this.values?.addValues(a, from, to);
        m.values?.addValues(a, from, to);
      }
    }
  }

  /** Gives a monitor's buffers back for the next monitor: the tally can be read no more. */
  release(): void {
    this.own?.release();
    this.released = true;
  }

  /** The figures, with one entry per UTC day of [from, to) (days without tests included). */
  figures(from: number, to: number): Figures {
    this.usable();
    const own = this.own;
    /** A monitor's median and p95 per day slot, selected from its values grouped by day. */
    let daily: { medianMs: number | null; p95Ms: number | null }[] = [];
    let period = NO_PERCENTILES;
    if (own !== null && own.n > 0) {
      const starts = own.bySlot(this.dayList.map((d) => d.count));
      const a = own.values;
      if (this.perDayValues) {
        // In place: a selection reorders values within the day's range only.
        daily = this.dayList.map((d) => {
          const lo = starts[d.slot] as number;
          const n = (starts[d.slot + 1] as number) - lo;
          return n === 0 ? NO_PERCENTILES : medianAndP95Of(selectRanks(a, lo, lo + n, ranksOf(MEDIAN_P95, n)));
        });
      }
      // The period's selection in the scratch, which keeps the days' ranges as they are.
      const all = scratchOf(own.n);
      all.set(a.subarray(0, own.n));
      period = medianAndP95Of(selectRanks(all, 0, own.n, ranksOf(MEDIAN_P95, own.n)));
    } else if (this.values !== null) period = medianAndP95(this.values);
    const days: DayFigures[] = [];
    for (let day = Math.floor(from / DAY_SECONDS) * DAY_SECONDS; day < to; day += DAY_SECONDS) {
      const d = this.days.get(day);
      const p = d === undefined ? NO_PERCENTILES : own !== null ? (daily[d.slot] ?? NO_PERCENTILES) : medianAndP95(d.values);
      // Every field written out, no spread: an object of one shape with its fields inside it (a
      // report keeps 31 of these per monitor to the end).
      days.push({
        day,
        tests: d?.tests ?? 0,
        failed: d?.failed ?? 0,
        availability: d ? percent(d.tests - d.failed, d.tests) : null,
        medianMs: p.medianMs,
        p95Ms: p.p95Ms,
      });
    }
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
