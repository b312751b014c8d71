/** `monsync test`: the mail path of each (or each changed) SMTP monitor, as text, JSON or Markdown. */
import { hostname } from 'node:os';
import type { DesiredMonitor, DesiredState } from '../model/desired.js';
import { UsageError } from '../util/errors.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { matchesAny } from '../util/glob.js';
import { parsePositiveInt } from './common.js';
import type { CommandIo } from './output.js';
import { printProgress } from './progress.js';

export interface TestOptions extends ConnectionOptions {
  target?: string[];
  changed?: boolean;
  json?: boolean;
  format?: string;
  strict?: boolean;
  concurrency: string;
  stepTimeout: string;
  smtpPort?: string;
  mailFrom?: string;
}

/** Nothing failed, but no mail server could be reached from here: neither a pass nor a failure. */
export const EXIT_INCONCLUSIVE = 3;

export interface TestRunExtras {
  /** Extra trusted CA certificates (PEM) for the servers' certificates; the CLI trusts Node's (NODE_EXTRA_CA_CERTS included). */
  ca?: string[];
  /** The command context (src/workflow/context.ts): the account's files, variables and owner. Default: `paths`, no account. */
  context?: CommandContext;
}

export async function runTest(paths: string[], opts: TestOptions, io: CommandIo, extras: TestRunExtras = {}): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  const concurrency = parsePositiveInt(opts.concurrency, '--concurrency');
  const stepSeconds = Number(opts.stepTimeout);
  if (!Number.isFinite(stepSeconds) || stepSeconds <= 0) throw new UsageError(`--step-timeout must be a number of seconds above 0, got "${opts.stepTimeout}"`);
  const port = opts.smtpPort === undefined ? undefined : parsePositiveInt(opts.smtpPort, '--smtp-port');
  if (port !== undefined && port > 65535) throw new UsageError(`--smtp-port must be at most 65535, got ${port}`);
  const mailFrom = opts.mailFrom ?? '';
  if (/[<>\s]/.test(mailFrom)) throw new UsageError(`--mail-from must be a bare address (no <>, no spaces), got "${opts.mailFrom}"`);
  const stepMs = Math.round(stepSeconds * 1000);
  const { createMailDns } = await import('../mailpath/dns.js');
  // Read before anything else: a bad MONSYNC_DNS_SERVERS is a usage error.
  const dns = createMailDns(io.env, stepMs);

  const ctx = extras.context ?? commandContext(io, paths, opts);
  let desired: DesiredState;
  let monitors: readonly DesiredMonitor[];
  if (opts.changed) {
    const { planFlow } = await import('../workflow/plan.js');
    const flow = await planFlow(ctx, {
      targets: opts.target,
      onProgress: printProgress(io),
      fingerprint: false,
    });
    await flow.api.destroy?.();
    desired = flow.desired;
    const changed = new Set(flow.plan.changes.filter((c) => c.kind === 'monitor' && c.action !== 'delete').map((c) => c.key));
    monitors = desired.monitors.filter((m) => changed.has(m.label));
  } else {
    ({ desired } = await ctx.loadConfiguration({ onProgress: printProgress(io) }));
    // As plan's --target: a label, or the name of a declared group the monitor is in.
    const targets = opts.target ?? [];
    const inGroups = new Set(desired.groups.filter((g) => matchesAny(targets, g.name)).flatMap((g) => g.monitors ?? []));
    monitors = desired.monitors.filter((m) => targets.length === 0 || matchesAny(targets, m.label) || inGroups.has(m.label));
  }

  printProgress(io)({ kind: 'mail-paths', monitors: monitors.length, concurrency, stepSeconds });
  const { testMailPaths } = await import('../mailpath/test-paths.js');
  const report = await testMailPaths(desired, monitors, {
    dns,
    stepMs,
    concurrency,
    portOverride: port,
    heloName: hostname() || 'localhost',
    mailFrom,
    ca: extras.ca,
    now: io.now(),
  });

  const where = paths.length ? paths.join(' ') : 'monsync.yaml';
  if (format === 'json') {
    const { SERVICE_SENDING_ADDRESSES } = await import('../mailpath/sending-addresses.js');
    const { inconclusiveLine } = await import('../render/mailpath.js');
    const body = {
      format_version: 1,
      outcome: outcomeOf(report, opts.strict),
      inconclusive: report.inconclusive ? inconclusiveLine(report) : null,
      counts: report.counts,
      elapsed_ms: Math.round(report.elapsedMs),
      monitors: report.monitors,
      not_tested: 'the return leg: the test account forwarding the message back to the service (`monsync apply --verify`)',
      service_sending_addresses: SERVICE_SENDING_ADDRESSES,
    };
    io.out(`${JSON.stringify(body, null, 2)}\n`);
  } else {
    const { renderMailPathMarkdown, renderMailPathText } = await import('../render/mailpath.js');
    io.out(format === 'markdown' ? renderMailPathMarkdown(report, { where }) : renderMailPathText(report, { color: io.color, where }));
  }
  return exitOf(outcomeOf(report, opts.strict));
}

type RunOutcome = 'pass' | 'fail' | 'inconclusive';

function outcomeOf(report: { counts: Record<string, number>; inconclusive: boolean }, strict = false): RunOutcome {
  if (report.counts.fail! > 0 || (strict && report.counts.warning! > 0)) return 'fail';
  if (report.inconclusive || report.counts.inconclusive! > 0) return 'inconclusive';
  return 'pass';
}

function exitOf(o: RunOutcome): number {
  return o === 'fail' ? 1 : o === 'inconclusive' ? EXIT_INCONCLUSIVE : 0;
}
