/** `monsync test`: `testFlow` (src/workflow/test.ts), the mail path of each (or each changed) SMTP monitor, as text, JSON or Markdown. */
import type { Command } from 'commander';
import { UsageError } from '../util/errors.js';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { collect, CONFIG_PATHS, CONNECTION_ENV, parsePositiveInt } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface TestOptions extends ConnectionOptions {
  target?: string[];
  changed?: boolean;
  json?: boolean;
  format?: string;
  strict?: boolean;
  concurrency: string;
  stepTimeout: string;
  deadline?: string;
  allowPrivate?: boolean;
  smtpPort?: string;
  mailFrom?: string;
}

export function register(program: Command): void {
  command<TestOptions>(program, {
    name: 'test',
    description: "test each SMTP monitor's mail path from here (DNS, connection, greeting, TLS, MAIL FROM, RCPT TO) without sending a message",
    args: [['[paths...]', CONFIG_PATHS]],
    options: (cmd) =>
      cmd
        .option('--target <glob>', 'limit the plan to matching labels / group names (repeatable)', collect)
        .option('--changed', 'test only the monitors the plan would create or change (reads the account: needs credentials)')
        .option('--json', 'print the results as JSON (same as --format json)')
        .option('--format <format>', 'text, json or markdown (a pull-request comment)', 'text')
        .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
        .option('--concurrency <n>', 'monitors tested at once', '32')
        .option('--step-timeout <seconds>', 'time limit of each step (a DNS query, the connection, each SMTP reply, the TLS handshake)', '10')
        .option('--deadline <seconds>', 'time limit of all the tests together (after the configuration and, with --changed, the account are read): what is not tested by then is inconclusive', '300')
        .option('--allow-private', 'connect to loopback, link-local (169.254.169.254) and private addresses too (never on pull requests from forks)')
        .option('--smtp-port <n>', "connect to this port instead of each monitor's port (a tunnel or relay standing in for the servers)")
        .option('--mail-from <address>', 'the reverse path of MAIL FROM (default: the null sender <>)'),
    service: true,
    help: {
      about: [
        'Never sends a message: the dialogue stops after RCPT TO with RSET and QUIT (no DATA). Exit 0 when',
        'every monitor passes, 1 when any fails, 3 when nothing failed but no mail server could be reached',
        'from this machine (outbound port 25 is blocked on many CI runners): inconclusive. DNS is asked',
        'through the system resolver, or the servers in MONSYNC_DNS_SERVERS (host:port, comma separated).',
        'At most 5 delivery hosts a monitor are tried. A loopback, link-local or private address is named',
        'and not connected to (inconclusive) unless --allow-private.',
      ],
      examples: [
        'monsync test monitoring/                                  # every SMTP monitor, from this machine',
        'monsync test monitoring/ --changed --format markdown      # in CI on a pull request: the new and changed ones',
        "monsync test monitoring/ --target 'mx-eu-*' --json        # some of them, as JSON",
        'MONSYNC_DNS_SERVERS=10.0.0.53 monsync test monitoring/    # ask the DNS server the service would see',
      ],
      env: [...CONNECTION_ENV, 'MONSYNC_DNS_SERVERS', '${VAR}', 'NO_COLOR'],
    },
    each: (ctx, { opts, io }) => runTest(ctx.paths, opts, io, { context: ctx }),
  });
}

export interface TestRunExtras {
  /** Extra trusted CA certificates (PEM) for the servers' certificates; the CLI trusts Node's (NODE_EXTRA_CA_CERTS included). */
  ca?: string[];
  /** The command context (src/workflow/context.ts): the account's files, variables and owner. Default: `paths`, no account. */
  context?: CommandContext;
}

/** A number of seconds above 0, as typed. */
function seconds(value: string, flag: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new UsageError(`${flag} must be a number of seconds above 0, got "${value}"`);
  return n;
}

export async function runTest(paths: string[], opts: TestOptions, io: CommandIo, extras: TestRunExtras = {}): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  const concurrency = parsePositiveInt(opts.concurrency, '--concurrency');
  const stepMs = Math.round(seconds(opts.stepTimeout, '--step-timeout') * 1000);
  const port = opts.smtpPort === undefined ? undefined : parsePositiveInt(opts.smtpPort, '--smtp-port');
  if (port !== undefined && port > 65535) throw new UsageError(`--smtp-port must be at most 65535, got ${port}`);
  const mailFrom = opts.mailFrom ?? '';
  if (/[<>\s]/.test(mailFrom)) throw new UsageError(`--mail-from must be a bare address (no <>, no spaces), got "${opts.mailFrom}"`);
  const deadlineSeconds = seconds(opts.deadline ?? '300', '--deadline');
  const [{ createMailDns }, { hostname }, { commandContext }, { testFlow, testExitCode }, render, { printProgress }] = await Promise.all([
    import('../mailpath/dns.js'),
    import('node:os'),
    import('../workflow/context.js'),
    import('../workflow/test.js'),
    import('../render/mailpath.js'),
    import('./progress.js'),
  ]);
  // Read before anything else: a bad MONSYNC_DNS_SERVERS is a usage error.
  const dns = createMailDns(io.env, stepMs);
  const { report, outcome } = await testFlow(
    extras.context ?? commandContext(io, paths, opts),
    {
      ...(opts.target && { targets: opts.target }),
      ...(opts.changed && { changed: true }),
      ...(opts.strict && { strict: true }),
      ...(opts.allowPrivate && { allowPrivate: true }),
      ...(port !== undefined && { port }),
      ...(extras.ca && { ca: extras.ca }),
      concurrency,
      stepMs,
      deadlineSeconds,
      dns,
      mailFrom,
      heloName: hostname() || 'localhost',
    },
    printProgress(io),
  );
  const where = paths.length ? paths.join(' ') : 'monsync.yaml';
  if (format === 'json') io.out(render.renderMailPathJson(report, outcome));
  else io.out(format === 'markdown' ? render.renderMailPathMarkdown(report, { where }) : render.renderMailPathText(report, { color: io.color, where }));
  return testExitCode(outcome);
}
