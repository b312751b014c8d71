import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, collect, CONNECTION_ENV } from './common.js';
import type { ReportOptions } from './report-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('report')
    .description('uptime and alerting over a period: availability, outages, response times and alerts per monitor, group and account')
    .argument('[paths...]', 'configuration files or directories: their objectives (slo:) get error budgets')
    .option('--since <duration>', 'how far back: 90m, 24h, 7d, ...')
    .option('--month <YYYY-MM>', 'a whole UTC month, e.g. 2026-10 (instead of --since/--until)')
    .option('--until <date>', 'end of the period: a UTC date or date-time such as 2026-10-15 or 2026-10-15T12:00Z (default: now)')
    .option('--monitor <label>', 'this monitor (repeatable; with --group, added to its monitors)', collect)
    .option('--group <name>', "this group's monitors (repeatable)", collect)
    .option('--format <format>', 'text, markdown, csv, json or html', 'text')
    .option('--out <file>', 'write the report to this file (default: stdout)')
    .option('--outages', 'list every outage, not only the longest ten (CSV: one row per outage)')
    .option('--parallelism <n>', 'API calls in flight at once', '8');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
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
      "monsync report --since 7d --group europe --format markdown",
      'monsync report --since 2026-10-01 --until 2026-10-15 --format csv --outages --out outages.csv',
      'monsync report --month 2026-10 --account production --format html --out production.html',
      'monsync report . --month 2026-10 --format markdown             # error budgets of the objectives in ./',
    ],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (paths: string[], opts: ReportOptions, self: Command) => {
    const [{ runReport, checkReportAccounts }, { processIo }] = await Promise.all([import('./report-run.js'), import('./output.js')]);
    checkReportAccounts(opts);
    process.exitCode = await (await import('./accounts.js')).runPerAccount(paths, opts, processIo(self), (ctx) => runReport(opts, ctx.io, ctx));
  });
}
