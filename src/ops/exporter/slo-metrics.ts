/**
 * The service-level and membership families of `monsync exporter` (issue 46), kept beside the
 * per-monitor ones of metrics.ts, which calls in at three points (a monitor's read, its end, the
 * end of a read). What the burn-rate rules of examples/prometheus read:
 *
 * - per monitor with an objective (`slo:` in the configuration), with the labels of every
 *   per-monitor series (`monitor`, `id`, `type`, and `account` with accounts), so a rule divides
 *   one by another without `on()`: `monsync_monitor_slo_objective_ratio`,
 *   `monsync_monitor_slo_window_seconds`, `monsync_monitor_slo_round_trip_bound_seconds` (only
 *   with a bound) and the counter `monsync_monitor_slo_bad_tests_total` (tests that count against
 *   the objective: failed, or completed slower than the bound; counted as
 *   `monsync_monitor_tests_total` is, since the exporter started), so the indicator is
 *   `1 - rate(bad) / rate(tests)`;
 * - `monsync_monitor_info{monitor, id, group}` = 1, one series per group membership (`group=""`
 *   for a monitor in no group), for rules and panels that aggregate by group;
 * - `monsync_build_info{version, node}` = 1.
 *
 * A monitor's objective leaving the configuration ends its objective series and its counter; a
 * membership ending ends its info series.
 */
import { Counter, Gauge, type Registry } from 'prom-client';
import type { ServiceLevel } from '../../model/fields.js';
import { VERSION } from '../../version.js';

type Labels = Record<string, string>;

/** What one read found of a monitor's objective and memberships (src/ops/exporter/slo.ts fills it). */
export interface ServiceLevelSample {
  id: string;
  label: string;
  /** Its objective; null or absent without one. */
  slo?: ServiceLevel | null;
  /** Tests since the previous read that count against the objective (failed, or slower than its bound). */
  newBadTests?: number;
  /** Names of the groups it is in (none: `group=""`); absent: none known. */
  groups?: readonly string[];
}

/** The HELP texts' note on values that change only when the account is read. */
export const AS_OF_READ = 'As of the last read of the account (every --interval, 60 s by default).';

export class ServiceLevelMetrics {
  private readonly objective: Gauge;
  private readonly window: Gauge;
  private readonly bound: Gauge;
  readonly bad: Counter;
  private readonly info: Gauge;
  /** Per account: each monitor's info label sets now exported, by monitor id. */
  private readonly memberships = new Map<string, Map<string, Labels[]>>();

  constructor(registry: Registry, monitorLabels: readonly string[], accountLabel: readonly string[]) {
    const registers = [registry];
    const labelNames = [...monitorLabels];
    this.objective = new Gauge({ name: 'monsync_monitor_slo_objective_ratio', help: `Share of the monitor's tests that must be good by its service-level objective (slo: in the configuration), e.g. 0.995. ${AS_OF_READ}`, labelNames, registers });
    this.window = new Gauge({ name: 'monsync_monitor_slo_window_seconds', help: `The rolling window of the monitor's service-level objective, in seconds. ${AS_OF_READ}`, labelNames, registers });
    this.bound = new Gauge({ name: 'monsync_monitor_slo_round_trip_bound_seconds', help: `Round trip above which a completed test of the monitor counts against its objective, in seconds (only with a bound). ${AS_OF_READ}`, labelNames, registers });
    this.bad = new Counter({ name: 'monsync_monitor_slo_bad_tests_total', help: 'Tests of the monitor that count against its service-level objective (failed, or slower than its round-trip bound), seen by the exporter since it started, counted once their result is known; SLI = 1 - rate(bad) / rate(monsync_monitor_tests_total).', labelNames, registers });
    this.info = new Gauge({ name: 'monsync_monitor_info', help: `One series per group the monitor is in (group="" when in none), value 1: for rules and panels that aggregate by group. ${AS_OF_READ}`, labelNames: ['monitor', 'id', 'group', ...accountLabel], registers });
    new Gauge({ name: 'monsync_build_info', help: 'The monsync version and the Node.js version it runs on, value 1.', labelNames: ['version', 'node'], registers }).set({ version: VERSION, node: process.versions.node }, 1);
  }

  /** One monitor of a read: its objective's series set (or ended), its bad tests counted, its memberships noted. */
  monitor(labels: Labels, m: ServiceLevelSample, account: Labels, now: Map<string, Labels[]>): void {
    const slo = m.slo ?? null;
    if (slo === null) this.removeObjective(labels);
    else {
      this.objective.set(labels, slo.objective);
      this.window.set(labels, slo.window_seconds);
      if (slo.round_trip_seconds !== undefined) this.bound.set(labels, slo.round_trip_seconds);
      else this.bound.remove(labels);
      this.bad.inc(labels, m.newBadTests ?? 0);
    }
    const groups = m.groups !== undefined && m.groups.length > 0 ? [...new Set(m.groups)].sort() : [''];
    now.set(
      m.id,
      groups.map((group) => ({ monitor: m.label, id: m.id, group, ...account })),
    );
  }

  /** The end of one account's read: memberships (and monitors) gone lose their info series, the others are set. */
  endRead(key: string, now: Map<string, Labels[]>): void {
    const before = this.memberships.get(key) ?? new Map<string, Labels[]>();
    const kept = new Set<string>();
    for (const sets of now.values()) for (const labels of sets) kept.add(JSON.stringify(labels));
    for (const sets of before.values()) for (const labels of sets) if (!kept.has(JSON.stringify(labels))) this.info.remove(labels);
    for (const sets of now.values()) for (const labels of sets) this.info.set(labels, 1);
    this.memberships.set(key, now);
  }

  /** A monitor's objective series end (its objective left the configuration, or it left the account). */
  removeObjective(labels: Labels): void {
    this.objective.remove(labels);
    this.window.remove(labels);
    this.bound.remove(labels);
    this.bad.remove(labels);
  }
}
