/**
 * The metrics of `monsync exporter` (docs/exporter.md): their names, labels and the rule that turns
 * one read of an account into their values. Built on prom-client, which writes the exposition
 * formats (Prometheus text 0.0.4 and OpenMetrics 1.0) and escapes label values by their rules
 * (backslash, double quote, new line): nothing here writes the format by hand.
 *
 * The contract: one series per monitor and metric (labels `monitor`, `id`, `type`, and `account`
 * when accounts are declared), removed when the monitor is gone from the account; no label takes
 * a value from an unbounded set but the monitor's own (a status code is a label of the request
 * counter, and there are few). A failed read changes nothing but `monsync_up`: the last values are
 * kept. Nothing here knows a credential; labels are labels, ids and types of the service.
 */
import { Counter, Gauge, Registry } from 'prom-client';
import { AS_OF_READ, ServiceLevelMetrics, type ServiceLevelSample } from './slo-metrics.js';

/** What one read found about one monitor (src/ops/exporter/read.ts makes it; slo.ts adds its objective and groups). */
export interface MonitorSample extends ServiceLevelSample {
  id: string;
  label: string;
  type: string;
  /** 1 when its last test with a result completed, 0 when it did not; null while none is known. */
  up: 0 | 1 | null;
  /** The round trip of its last completed test, seconds; null while none is known. */
  roundTripSeconds: number | null;
  /** Start of its last test, Unix seconds; null while none is known. */
  lastTestSeconds: number | null;
  alertActive: boolean;
  /** Some alert of the monitor is paused now. */
  paused: boolean;
  /** The longest pause of its alerts still to run, seconds (0 when none). */
  pausedSecondsLeft: number;
  /** A declared maintenance window covering it is open now; null without a configuration. */
  inMaintenance: boolean | null;
  /** Tests (and failed tests) since the previous read, to add to the counters. */
  newTests: number;
  newFailedTests: number;
}

/** What `plan` would change now, by action. */
export interface DriftCounts {
  add: number;
  change: number;
  destroy: number;
}

/** One successful read of one account. */
export interface AccountSample {
  monitors: MonitorSample[];
  /** When the read succeeded, on the service's clock, Unix seconds. */
  atSeconds: number;
  readSeconds: number;
  /**
   * With a configuration: the drift, or null when the configuration does not load or plan (its
   * problems went to the log; `monsync_configuration_valid` is then 0). Undefined: no configuration.
   */
  drift?: DriftCounts | null;
}

const MONITOR_LABELS = ['monitor', 'id', 'type'] as const;
export const DRIFT_ACTIONS = ['add', 'change', 'destroy'] as const;

type Labels = Record<string, string>;

/**
 * The registry of one exporter process. `accounts`: the process serves declared accounts
 * (`--account`/`--all-accounts`), and every series carries `account`.
 */
export class ExporterMetrics {
  readonly registry = new Registry();
  private readonly accountLabel: string[];
  private readonly perMonitor: Gauge[];
  private readonly monitorUp: Gauge;
  private readonly roundTrip: Gauge;
  private readonly lastTest: Gauge;
  private readonly alertActive: Gauge;
  private readonly paused: Gauge;
  private readonly pausedLeft: Gauge;
  private readonly inMaintenance: Gauge | null;
  private readonly tests: Counter;
  private readonly failedTests: Counter;
  private readonly drift: Gauge | null;
  private readonly configurationValid: Gauge | null;
  private readonly up: Gauge;
  private readonly lastSuccess: Gauge;
  private readonly readDuration: Gauge;
  private readonly requests: Counter;
  /** The service-level, membership and build families (slo-metrics.ts). */
  private readonly serviceLevels: ServiceLevelMetrics;
  /** Counters by their full name: OpenMetrics rendering strips `_total` from prom-client's objects (renderMetrics). */
  private readonly counters: Counter[];
  /** Per account: the label sets of its monitors' series now exported, by monitor id. */
  private readonly series = new Map<string, Map<string, Labels>>();
  private rendering: Promise<unknown> = Promise.resolve();
  /**
   * The last rendering in each format, until a value changes: values change only while the account
   * is read, so scrapes between two reads cost a lookup (at 10,000 monitors a rendering takes ~1 s).
   */
  private readonly rendered = new Map<boolean, { contentType: string; body: string }>();
  private version = 0;

  constructor(opts: { accounts: boolean; configuration: boolean }) {
    this.accountLabel = opts.accounts ? ['account'] : [];
    const registers = [this.registry];
    const monitorLabels = [...MONITOR_LABELS, ...this.accountLabel];
    const gauge = (name: string, help: string, labelNames: string[] = monitorLabels) => new Gauge({ name, help, labelNames, registers });
    const counter = (name: string, help: string, labelNames: string[] = monitorLabels) => new Counter({ name, help, labelNames, registers });
    this.monitorUp = gauge('monsync_monitor_up', `Whether the last test of the monitor with a result completed its round trip (1) or not (0). ${AS_OF_READ}`);
    this.roundTrip = gauge('monsync_monitor_round_trip_seconds', `Round trip of the last completed test of the monitor, in seconds. ${AS_OF_READ}`);
    this.lastTest = gauge('monsync_monitor_last_test_timestamp_seconds', `Start of the last test of the monitor, Unix time in seconds. ${AS_OF_READ}`);
    this.alertActive = gauge('monsync_monitor_alert_active', `Whether an alert of the monitor is active (triggered, not reset, not paused). ${AS_OF_READ}`);
    this.paused = gauge('monsync_monitor_paused', `Whether alerts of the monitor are paused. ${AS_OF_READ}`);
    this.pausedLeft = gauge('monsync_monitor_paused_seconds_left', `Seconds until the longest pause of the monitor's alerts ends (0 when none is paused). ${AS_OF_READ}`);
    this.inMaintenance = opts.configuration ? gauge('monsync_monitor_in_maintenance', `Whether a maintenance window of the configuration covering the monitor is open. ${AS_OF_READ}`) : null;
    this.tests = counter('monsync_monitor_tests_total', 'Tests of the monitor seen by the exporter since it started, counted at each read once their result is known.');
    this.failedTests = counter('monsync_monitor_failed_tests_total', 'Tests of the monitor that did not complete, seen by the exporter since it started, counted at each read.');
    this.perMonitor = [this.monitorUp, this.roundTrip, this.lastTest, this.alertActive, this.paused, this.pausedLeft, ...(this.inMaintenance ? [this.inMaintenance] : [])];
    this.drift = opts.configuration ? gauge('monsync_drift_changes', `Changes \`monsync plan\` would make, by action (with a configuration). ${AS_OF_READ}`, ['action', ...this.accountLabel]) : null;
    this.configurationValid = opts.configuration
      ? gauge('monsync_configuration_valid', `Whether the configuration loads and plans (1) or has problems, told in the log (0). ${AS_OF_READ}`, this.accountLabel)
      : null;
    this.up = gauge('monsync_up', 'Whether the last read of the account succeeded.', this.accountLabel);
    this.lastSuccess = gauge('monsync_last_read_success_timestamp_seconds', 'When the last successful read of the account ended, Unix time in seconds (service clock).', this.accountLabel);
    this.readDuration = gauge('monsync_read_duration_seconds', 'How long the last successful read of the account took, in seconds.', this.accountLabel);
    this.requests = counter('monsync_service_requests_total', 'Requests sent to the service, by HTTP status of the answer ("none": no answer), 429s included.', ['code', ...this.accountLabel]);
    this.serviceLevels = new ServiceLevelMetrics(this.registry, monitorLabels, this.accountLabel);
    this.counters = [this.tests, this.failedTests, this.requests, this.serviceLevels.bad];
  }

  private accountOf(account: string | undefined): Labels {
    return this.accountLabel.length > 0 ? { account: account ?? '' } : {};
  }

  /** Before the first read: the account's series that exist from the start (`monsync_up 0`). */
  declareAccount(account?: string): void {
    this.changed();
    const a = this.accountOf(account);
    this.up.set(a, 0);
    this.requests.inc({ code: '200', ...a }, 0);
  }

  /** One request to the service answered `status` (null: no answer). */
  request(status: number | null, account?: string): void {
    this.changed();
    this.requests.inc({ code: status === null ? 'none' : String(status), ...this.accountOf(account) });
  }

  /** A read failed: the last values stay, `monsync_up` says they are old. */
  readFailed(account?: string): void {
    this.changed();
    this.up.set(this.accountOf(account), 0);
  }

  /** A read succeeded: every value of the account from it; monitors gone from the account lose their series. */
  readSucceeded(sample: AccountSample, account?: string): void {
    this.changed();
    const a = this.accountOf(account);
    const key = account ?? '';
    const before = this.series.get(key) ?? new Map<string, Labels>();
    const now = new Map<string, Labels>();
    const memberships = new Map<string, Labels[]>();
    for (const m of sample.monitors) {
      const labels: Labels = { monitor: m.label, id: m.id, type: m.type, ...a };
      const old = before.get(m.id);
      // A renamed (or retyped) monitor: its old series end, as a new label set is a new series.
      if (old && !sameLabels(old, labels)) this.removeMonitor(old);
      now.set(m.id, labels);
      setOrRemove(this.monitorUp, labels, m.up);
      setOrRemove(this.roundTrip, labels, m.roundTripSeconds);
      setOrRemove(this.lastTest, labels, m.lastTestSeconds);
      this.alertActive.set(labels, m.alertActive ? 1 : 0);
      this.paused.set(labels, m.paused ? 1 : 0);
      this.pausedLeft.set(labels, m.pausedSecondsLeft);
      if (this.inMaintenance) setOrRemove(this.inMaintenance, labels, m.inMaintenance === null ? null : m.inMaintenance ? 1 : 0);
      this.tests.inc(labels, m.newTests);
      this.failedTests.inc(labels, m.newFailedTests);
      this.serviceLevels.monitor(labels, m, a, memberships);
    }
    for (const [id, labels] of before) if (!now.has(id)) this.removeMonitor(labels);
    this.series.set(key, now);
    this.serviceLevels.endRead(key, memberships);
    if (sample.drift !== undefined && this.drift && this.configurationValid) {
      this.configurationValid.set(a, sample.drift === null ? 0 : 1);
      for (const action of DRIFT_ACTIONS) {
        // Unknown while the configuration has problems: no value rather than a stale one.
        if (sample.drift === null) this.drift.remove({ action, ...a });
        else this.drift.set({ action, ...a }, sample.drift[action]);
      }
    }
    this.up.set(a, 1);
    this.lastSuccess.set(a, sample.atSeconds);
    this.readDuration.set(a, sample.readSeconds);
  }

  private changed(): void {
    this.version++;
    this.rendered.clear();
  }

  private removeMonitor(labels: Labels): void {
    for (const g of this.perMonitor) g.remove(labels);
    this.tests.remove(labels);
    this.failedTests.remove(labels);
    this.serviceLevels.removeObjective(labels);
  }

  /**
   * The exposition: OpenMetrics 1.0 when `openMetrics`, else Prometheus text 0.0.4. prom-client
   * renders a counter's OpenMetrics name by stripping `_total` from the metric object itself, so
   * renderings take turns and the text format gets the full names back first.
   */
  render(openMetrics: boolean): Promise<{ contentType: string; body: string }> {
    const run = this.rendering.then(async () => {
      const cached = this.rendered.get(openMetrics);
      if (cached) return cached;
      const contentType = openMetrics ? Registry.OPENMETRICS_CONTENT_TYPE : Registry.PROMETHEUS_CONTENT_TYPE;
      this.registry.setContentType(contentType as typeof Registry.PROMETHEUS_CONTENT_TYPE);
      if (!openMetrics) for (const c of this.counters) (c as unknown as { name: string }).name = `${baseName(c)}_total`;
      const version = this.version;
      const made = { contentType, body: await this.registry.metrics() };
      // A value that changed while rendering: this rendering is already old, not kept.
      if (version === this.version) this.rendered.set(openMetrics, made);
      return made;
    });
    this.rendering = run.catch(() => undefined);
    return run;
  }
}

function baseName(c: Counter): string {
  return (c as unknown as { name: string }).name.replace(/_total$/, '');
}

function setOrRemove(g: Gauge, labels: Labels, value: number | null): void {
  if (value === null) g.remove(labels);
  else g.set(labels, value);
}

function sameLabels(a: Labels, b: Labels): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

/** Whether a scraper's Accept header asks for OpenMetrics (Prometheus asks for it first, then text). */
export function wantsOpenMetrics(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    return type === 'application/openmetrics-text' && (q === undefined || Number(q.slice(2)) > 0);
  });
}
