/**
 * `monsync report` against the configuration's service-level objectives (`slo:`, issue 46): per
 * monitor and per group with one, over the report's period, the attainment (the share of good
 * tests), and the error budget the objective allowed, spent and left, in tests and in time.
 *
 * Contract (pure but for the counter's state):
 * - A test is bad when it failed, or completed with a round trip longer than the objective's bound
 *   (`round_trip`); the attainment is good tests over tests, in percent.
 * - The budget in tests is `(1 - objective) * tests`; spent is the bad tests; left the difference
 *   (negative when overspent). In time it is `(1 - objective) * period`, spent `bad / tests *
 *   period` (each test stands for the time until the next), so tests and time tell the same share.
 * - A group adds up its monitors' tests (as its availability does), judged by the group's objective
 *   and bound, whatever its members' own.
 * - The day the budget ran out is the first UTC day by the end of which the bad tests so far
 *   exceeded the period's budget (the HTML strip marks it).
 * - The budget is over the report's period, not the objective's window: a period shorter than the
 *   window is flagged (`shorterThanWindow`), and every format says so.
 *
 * Kept apart from report-stats.ts on purpose: the tally of availability and response times does not
 * know objectives, and this counter adds one comparison per test only for monitors that have one.
 */
import type { ServiceLevel } from '../model/fields.js';
import { DAY_SECONDS } from './report-stats.js';

/** The error budget of one objective over the report's period. */
export interface Budget {
  /** Ratio in (0, 1): 0.995 for 99.5%. */
  objective: number;
  windowSeconds: number;
  /** The bound of a good test's round trip, seconds; null without one. */
  roundTripSeconds: number | null;
  /** The period is shorter than the window: the budget is the period's, not the window's. */
  shorterThanWindow: boolean;
  tests: number;
  /** Tests that count against the objective: failed, plus `slow`. */
  bad: number;
  /** Completed tests slower than the bound. */
  slow: number;
  /** Good tests over tests, percent; null without tests. */
  attainment: number | null;
  /** Whether the attainment meets the objective; null without tests. */
  met: boolean | null;
  allowedTests: number;
  leftTests: number;
  allowedSeconds: number;
  spentSeconds: number;
  leftSeconds: number;
  /** Left over allowed, percent (negative when overspent); null when nothing was allowed (no tests). */
  leftPercent: number | null;
  /** Start of the UTC day by whose end the budget was spent; null while some is left. */
  goneOn: number | null;
}

/** One monitor's tests as an objective sees them: per bound asked for, the slow ones, in total and per UTC day. */
export class SlowCounter {
  private readonly slowBy: number[];
  private readonly daily: Map<number, number>[];
  /** `bounds`: seconds, each a round-trip bound some objective of the monitor (or of a group of it) declares. */
  constructor(readonly bounds: readonly number[]) {
    this.slowBy = bounds.map(() => 0);
    this.daily = bounds.map(() => new Map());
  }

  /** One test: its start (unix seconds), whether it failed, its round trip (milliseconds, null without one). */
  add(t: number, failed: boolean, valueMs: number | null): void {
    if (failed || valueMs === null) return;
    for (let i = 0; i < this.bounds.length; i++) {
      if (valueMs > this.bounds[i]! * 1000) {
        this.slowBy[i]!++;
        const day = t - (t % DAY_SECONDS);
        this.daily[i]!.set(day, (this.daily[i]!.get(day) ?? 0) + 1);
      }
    }
  }

  /** The slow tests for `bound` (0 for a bound not counted, or none), in total and per UTC day start. */
  slow(bound: number | undefined): { total: number; days: ReadonlyMap<number, number> } {
    const i = bound === undefined ? -1 : this.bounds.indexOf(bound);
    return i < 0 ? { total: 0, days: new Map() } : { total: this.slowBy[i]!, days: this.daily[i]! };
  }
}

/** The distinct bounds a monitor's tests are to be judged by: its own objective's and its groups'. */
export function boundsFor(own: ServiceLevel | undefined, groups: readonly (ServiceLevel | undefined)[]): number[] {
  const out = new Set<number>();
  for (const s of [own, ...groups]) if (s?.round_trip_seconds !== undefined) out.add(s.round_trip_seconds);
  return [...out];
}

/** Tests, failed and slow tests of a monitor or group, per UTC day (start) and in total. */
export interface BadTests {
  tests: number;
  failed: number;
  slow: number;
  /** Bad tests (failed or slow) per UTC day start, in any order. */
  badByDay: ReadonlyMap<number, number>;
}

/** BadTests of one monitor from its day figures and its slow counts for `bound`. */
export function badTestsOf(days: readonly { day: number; tests: number; failed: number }[], slow: { total: number; days: ReadonlyMap<number, number> }): BadTests {
  const badByDay = new Map<number, number>();
  let tests = 0;
  let failed = 0;
  for (const d of days) {
    tests += d.tests;
    failed += d.failed;
    badByDay.set(d.day, d.failed + (slow.days.get(d.day) ?? 0));
  }
  return { tests, failed, slow: slow.total, badByDay };
}

/** Several monitors' BadTests added up (a group's). */
export function addBadTests(parts: readonly BadTests[]): BadTests {
  const badByDay = new Map<number, number>();
  let tests = 0, failed = 0, slow = 0;
  for (const p of parts) {
    tests += p.tests;
    failed += p.failed;
    slow += p.slow;
    for (const [day, n] of p.badByDay) badByDay.set(day, (badByDay.get(day) ?? 0) + n);
  }
  return { tests, failed, slow, badByDay };
}

/** The budget of `slo` over the period [from, to) for these tests. */
export function budgetOf(slo: ServiceLevel, t: BadTests, period: { from: number; to: number }): Budget {
  const seconds = period.to - period.from;
  // Rounded: 1 - 0.999 is 0.0010000000000000009 in binary, which every format would show.
  const allowance = Number((1 - slo.objective).toPrecision(12));
  const bad = t.failed + t.slow;
  const allowedTests = allowance * t.tests;
  const allowedSeconds = allowance * seconds;
  const spentSeconds = t.tests === 0 ? 0 : (bad / t.tests) * seconds;
  const attainment = t.tests === 0 ? null : ((t.tests - bad) / t.tests) * 100;
  let goneOn: number | null = null;
  if (t.tests > 0 && bad > allowedTests) {
    let sum = 0;
    for (const day of [...t.badByDay.keys()].sort((a, b) => a - b)) {
      sum += t.badByDay.get(day)!;
      if (sum > allowedTests) {
        goneOn = day;
        break;
      }
    }
  }
  return {
    objective: slo.objective,
    windowSeconds: slo.window_seconds,
    roundTripSeconds: slo.round_trip_seconds ?? null,
    shorterThanWindow: seconds < slo.window_seconds,
    tests: t.tests,
    bad,
    slow: t.slow,
    attainment,
    met: attainment === null ? null : attainment >= slo.objective * 100 - 1e-9,
    allowedTests,
    leftTests: allowedTests - bad,
    allowedSeconds,
    spentSeconds,
    leftSeconds: allowedSeconds - spentSeconds,
    leftPercent: allowedTests > 0 ? ((allowedTests - bad) / allowedTests) * 100 : null,
    goneOn,
  };
}

/** The note every format prints when some objective's window is longer than the period. */
export function shorterThanWindowNote(budgets: readonly Budget[], periodSeconds: number, dur: (s: number) => string): string | null {
  const longer = [...new Set(budgets.filter((b) => b.shorterThanWindow).map((b) => b.windowSeconds))].sort((a, b) => a - b);
  if (longer.length === 0) return null;
  return `The period (${dur(periodSeconds)}) is shorter than the window of ${longer.length === 1 ? 'an objective' : 'some objectives'} (${longer.map(dur).join(', ')}): each budget is the period's own, (1 − objective) × the period, not the window's.`;
}

/** The configuration's objectives a report is judged by: monitors by label, groups by name. */
export interface ReportObjectives {
  monitors: ReadonlyMap<string, ServiceLevel>;
  groups: ReadonlyMap<string, ServiceLevel>;
}

/**
 * What buildReport keeps for the objectives while it reads: a SlowCounter for each monitor some
 * objective bounds, and each group's members' tests, until the group's budget is made.
 */
export class ObjectiveBook {
  private readonly groupParts = new Map<string, BadTests[]>();
  constructor(private readonly objectives: ReportObjectives | undefined) {}

  /** The counter to read a monitor's tests into, when an objective of it or of a group of it has a bound. */
  counterFor(label: string, groups: readonly string[]): SlowCounter | undefined {
    if (this.objectives === undefined) return undefined;
    const bounds = boundsFor(this.objectives.monitors.get(label), groups.map((g) => this.objectives!.groups.get(g)));
    return bounds.length > 0 ? new SlowCounter(bounds) : undefined;
  }

  /** A monitor read: its budget (undefined without an objective); its tests noted for its groups with one. */
  monitorRead(label: string, groups: readonly string[], days: readonly { day: number; tests: number; failed: number }[], counter: SlowCounter | undefined, period: { from: number; to: number }): Budget | undefined {
    if (this.objectives === undefined) return undefined;
    const none = { total: 0, days: new Map<number, number>() };
    for (const g of groups) {
      const slo = this.objectives.groups.get(g);
      if (slo === undefined) continue;
      const parts = this.groupParts.get(g) ?? [];
      parts.push(badTestsOf(days, counter?.slow(slo.round_trip_seconds) ?? none));
      this.groupParts.set(g, parts);
    }
    const own = this.objectives.monitors.get(label);
    return own === undefined ? undefined : budgetOf(own, badTestsOf(days, counter?.slow(own.round_trip_seconds) ?? none), period);
  }

  /** A group's budget over its members' tests; undefined without an objective. */
  groupBudget(name: string, period: { from: number; to: number }): Budget | undefined {
    const slo = this.objectives?.groups.get(name);
    return slo === undefined ? undefined : budgetOf(slo, addBadTests(this.groupParts.get(name) ?? []), period);
  }
}
