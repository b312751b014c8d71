/**
 * `monsync report`: every usage error before a request, `reportFlow` (src/workflow/report.ts), the
 * report rendered in the format asked for and written to stdout or `--out`. Progress goes to stderr
 * through the one progress view (src/cli/progress.ts), only where a person looks: a CI log gets the
 * one line that says where the report went.
 */
import type { Command } from 'commander';
import type { ReportFormat } from '../render/report-format.js';
import { UsageError, UserError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { collect, CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface ReportOptions extends ConnectionOptions, AccountChoice {
  since?: string;
  month?: string;
  until?: string;
  monitor?: string[];
  group?: string[];
  format: string;
  out?: string;
  outages?: boolean;
  parallelism: string;
}

const FORMATS = ['text', 'markdown', 'csv', 'json', 'html'] as const;
type Format = (typeof FORMATS)[number] & ReportFormat;

export function register(program: Command): void {
  command<ReportOptions>(program, {
    name: 'report',
    description: 'uptime and alerting over a period: availability, outages, response times and alerts per monitor, group and account',
    args: [['[paths...]', 'configuration files or directories: their objectives (slo:) get error budgets']],
    options: (cmd) =>
      cmd
        .option('--since <duration>', 'how far back: 90m, 24h, 7d, ...')
        .option('--month <YYYY-MM>', 'a whole UTC month, e.g. 2026-10 (instead of --since/--until)')
        .option('--until <date>', 'end of the period: a UTC date or date-time such as 2026-10-15 or 2026-10-15T12:00Z (default: now)')
        .option('--monitor <label>', 'this monitor (repeatable; with --group, added to its monitors)', collect)
        .option('--group <name>', "this group's monitors (repeatable)", collect)
        .option('--format <format>', 'text, markdown, csv, json or html', 'text')
        .option('--out <file>', 'write the report to this file (default: stdout)')
        .option('--outages', 'list every outage, not only the longest ten (CSV: one row per outage)')
        .option('--parallelism <n>', 'API calls in flight at once', '8'),
    service: true,
    help: {
      about: [
        'Reads raw test data (availability is the share of tests that completed) and Status/Filter (alerts).',
        '--since also takes a date (2026-10-01). Without --since or --month: the last 30 days. No configuration is read',
        "without PATH (but monsync.yaml's settings.accounts, for --account): monitors and groups are named as the account names them.",
        'With PATH (or a declared account), each monitor and group with an objective (slo:) gets its error budget.',
        'Details: docs/report.md.',
      ],
      examples: [
        'monsync report --month 2026-10                            # last month, in the terminal',
        'monsync report --month 2026-10 --format html --out uptime.html',
        'monsync report --since 7d --group europe --format markdown',
        'monsync report --since 2026-10-01 --until 2026-10-15 --format csv --outages --out outages.csv',
        'monsync report --month 2026-10 --account production --format html --out production.html',
        'monsync report . --month 2026-10 --format markdown             # error budgets of the objectives in ./',
      ],
      env: [...CONNECTION_ENV, 'NO_COLOR'],
    },
    check: ({ opts }) => checkReportAccounts(opts),
    each: (ctx, { opts, io }) => runReport(opts, io, ctx),
  });
}

/**
 * Several accounts print one report after the other, each under a heading; one `--out` file would
 * keep only the last, so it takes one account (a usage error before anything is read).
 */
export function checkReportAccounts(opts: ReportOptions): void {
  const toFile = opts.out !== undefined && opts.out !== '-';
  if (toFile && (opts.allAccounts || (opts.account?.length ?? 0) > 1)) throw new UsageError('--out writes the report of one account: give one --account NAME');
}

export async function runReport(opts: ReportOptions, io: CommandIo, ctx?: CommandContext): Promise<number> {
  const format = opts.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${opts.format}"`);
  const { parseIntIn } = await import('./common.js');
  const parallelism = parseIntIn(opts.parallelism, '--parallelism', 1, 64);
  if (opts.out !== undefined && opts.out.trim() === '') throw new UsageError('--out needs a file name');
  const asked = { ...(opts.since !== undefined && { since: opts.since }), ...(opts.month !== undefined && { month: opts.month }), ...(opts.until !== undefined && { until: opts.until }) };
  const [{ resolvePeriod }, { commandContext }, { reportFlow }, { printProgress }, { writeFile }, { resolve }, { redactEach }] = await Promise.all([
    import('../ops/report.js'),
    import('../workflow/context.js'),
    import('../workflow/report.js'),
    import('./progress.js'),
    import('node:fs/promises'),
    import('node:path'),
    import('../util/redact.js'),
  ]);
  // Checked on the local clock before any request; resolved again on the service's once it answered.
  resolvePeriod(asked, Math.floor(io.now() / 1000));
  const report = await reportFlow(
    ctx ?? commandContext(io, [], opts),
    { period: asked, ...(opts.monitor && { monitors: opts.monitor }), ...(opts.group && { groups: opts.group }), concurrency: parallelism },
    printProgress(io),
  );
  const toFile = opts.out !== undefined && opts.out !== '-';
  const pieces = await (await import('../render/report-format.js')).renderReportIn(report, format, { color: !toFile && io.color, outages: opts.outages === true });
  if (!toFile) {
    io.out([...pieces].join(''));
    return 0;
  }
  try {
    // A piece at a time (writeFile takes an iterable): the file is never one string in memory.
    await writeFile(resolve(io.cwd, opts.out as string), redactEach(pieces));
  } catch (err) {
    throw new UserError(`--out: cannot write ${opts.out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const a = report.account.figures;
  io.err(`Wrote ${opts.out} (${format}, ${report.monitors.length} monitors, availability ${a.availability === null ? '—' : `${a.availability.toFixed(3)}%`}).\n`);
  return 0;
}
