/**
 * What `monsync test` does, without printing: choose the SMTP monitors (all, those `--target`
 * names, or with `changed` those the plan would create or change: planFlow, which reads the
 * account), then test each one's mail path from here (src/mailpath/test-paths.ts) within the run's
 * deadline. Tells `mail-paths` as the tests start; returns the report and its outcome.
 */
import type { DesiredMonitor, DesiredState } from '../model/desired.js';
import type { MailPathReport } from '../mailpath/test-paths.js';
import type { MailDns } from '../mailpath/dns.js';
import type { CommandContext } from './context.js';
import { NO_EVENTS, type Events } from './events.js';

export interface TestFlowOptions {
  targets?: string[];
  /** Only the monitors the plan would create or change. */
  changed?: boolean;
  /** Fail on the checks' warnings too. */
  strict?: boolean;
  concurrency: number;
  stepMs: number;
  deadlineSeconds: number;
  dns: MailDns;
  port?: number;
  mailFrom: string;
  heloName: string;
  /** Extra trusted CA certificates (PEM) for the servers' certificates. */
  ca?: string[];
  allowPrivate?: boolean;
}

export type TestOutcome = 'pass' | 'fail' | 'inconclusive';

/** Nothing failed, but no mail server could be reached from here: neither a pass nor a failure. */
export const EXIT_INCONCLUSIVE = 3;

export async function testFlow(ctx: CommandContext, opts: TestFlowOptions, events: Events = NO_EVENTS): Promise<{ report: MailPathReport; outcome: TestOutcome }> {
  const { desired, monitors } = await chooseMonitors(ctx, opts, events);
  events({ kind: 'mail-paths', monitors: monitors.length, concurrency: opts.concurrency, stepSeconds: opts.stepMs / 1000 });
  const { testMailPaths } = await import('../mailpath/test-paths.js');
  // The whole run's bound: whatever the servers do, the job ends (a DNS query in flight within its step).
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(`the run's deadline of ${opts.deadlineSeconds} s passed (--deadline)`), Math.round(opts.deadlineSeconds * 1000));
  try {
    const report = await testMailPaths(desired, monitors, {
      dns: opts.dns,
      stepMs: opts.stepMs,
      concurrency: opts.concurrency,
      portOverride: opts.port,
      heloName: opts.heloName,
      mailFrom: opts.mailFrom,
      ca: opts.ca,
      now: ctx.io.now(),
      signal: deadline.signal,
      ...(opts.allowPrivate && { allowPrivate: true }),
    });
    return { report, outcome: outcomeOf(report, opts.strict) };
  } finally {
    clearTimeout(timer);
  }
}

async function chooseMonitors(ctx: CommandContext, opts: TestFlowOptions, events: Events): Promise<{ desired: DesiredState; monitors: readonly DesiredMonitor[] }> {
  if (opts.changed) {
    const { planFlow } = await import('./plan.js');
    const { desired, plan } = await planFlow(ctx, { targets: opts.targets, fingerprint: false }, events);
    const changed = new Set(plan.changes.filter((c) => c.kind === 'monitor' && c.action !== 'delete').map((c) => c.key));
    return { desired, monitors: desired.monitors.filter((m) => changed.has(m.label)) };
  }
  const [{ desired }, { matchesAny }] = await Promise.all([ctx.loadConfiguration({}, events), import('../util/glob.js')]);
  // As plan's --target: a label, or the name of a declared group the monitor is in.
  const targets = opts.targets ?? [];
  const inGroups = new Set(desired.groups.filter((g) => matchesAny(targets, g.name)).flatMap((g) => g.monitors ?? []));
  return { desired, monitors: desired.monitors.filter((m) => targets.length === 0 || matchesAny(targets, m.label) || inGroups.has(m.label)) };
}

function outcomeOf(report: { counts: Record<string, number>; inconclusive: boolean }, strict = false): TestOutcome {
  if (report.counts.fail! > 0 || (strict && report.counts.warning! > 0)) return 'fail';
  if (report.inconclusive || report.counts.inconclusive! > 0) return 'inconclusive';
  return 'pass';
}

export function testExitCode(o: TestOutcome): number {
  return o === 'fail' ? 1 : o === 'inconclusive' ? EXIT_INCONCLUSIVE : 0;
}
