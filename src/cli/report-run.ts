/**
 * `monsync report`: parse the options (every usage error before a request), read the report
 * (`reportFlow`, src/workflow/report.ts), render it in the format asked for, and write it to stdout
 * or `--out`. Progress goes to stderr through the one progress printer (src/cli/progress.ts), only
 * where a person looks: a CI log gets the one line that says where the report went.
 */
import { writeFile } from 'node:fs/promises';
import { redactEach } from '../util/redact.js';
import { resolve } from 'node:path';
import { resolvePeriod, type Report } from '../ops/report.js';
import { UsageError, UserError } from '../util/errors.js';
import type { AccountChoice } from '../workflow/accounts.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { reportFlow } from '../workflow/report.js';
import type { CommandIo } from './output.js';
import { printProgress } from './progress.js';

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

/**
 * Several accounts print one report after the other, each under a heading; one `--out` file would
 * keep only the last, so it takes one account (a usage error before anything is read).
 */
export function checkReportAccounts(opts: ReportOptions): void {
  const toFile = opts.out !== undefined && opts.out !== '-';
  if (toFile && (opts.allAccounts || (opts.account?.length ?? 0) > 1)) throw new UsageError('--out writes the report of one account: give one --account NAME');
}

const FORMATS = ['text', 'markdown', 'csv', 'json', 'html'] as const;
type Format = (typeof FORMATS)[number];

/**
 * The report in `format`, in pieces (JSON: a piece per monitor, see reportJsonPieces; the others
 * one piece); only that format's renderer is loaded (the four others are about 20 ms of CPU to load).
 */
async function render(r: Report, format: Format, opts: { color: boolean; outages: boolean }): Promise<Iterable<string>> {
  switch (format) {
    case 'text':
      return [(await import('../render/report-text.js')).renderReportText(r, opts)];
    case 'markdown':
      return [(await import('../render/report-markdown.js')).renderReportMarkdown(r, opts)];
    case 'csv':
      return [(await import('../render/report-csv.js')).renderReportCsv(r, opts)];
    case 'json':
      return (await import('../render/report-json.js')).reportJsonPieces(r);
    case 'html':
      return [(await import('../render/report-html.js')).renderReportHtml(r, opts)];
  }
}

export async function runReport(opts: ReportOptions, io: CommandIo, ctx: CommandContext = commandContext(io, [], opts)): Promise<number> {
  const format = opts.format as Format;
  if (!FORMATS.includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}, got "${opts.format}"`);
  const parallelism = Number(opts.parallelism);
  if (!Number.isInteger(parallelism) || parallelism < 1 || parallelism > 64) {
    throw new UsageError(`--parallelism must be a whole number from 1 to 64, got "${opts.parallelism}"`);
  }
  if (opts.out !== undefined && opts.out.trim() === '') throw new UsageError('--out needs a file name');
  const asked = { ...(opts.since !== undefined && { since: opts.since }), ...(opts.month !== undefined && { month: opts.month }), ...(opts.until !== undefined && { until: opts.until }) };
  // Checked on the local clock before any request; resolved again on the service's once it answered.
  resolvePeriod(asked, Math.floor(io.now() / 1000));
  const report = await reportFlow(ctx, {
    period: asked,
    ...(opts.monitor && { monitors: opts.monitor }),
    ...(opts.group && { groups: opts.group }),
    concurrency: parallelism,
    onProgress: printProgress(io),
  });
  const toFile = opts.out !== undefined && opts.out !== '-';
  const pieces = await render(report, format, { color: !toFile && io.color, outages: opts.outages === true });
  if (!toFile) {
    io.out([...pieces].join(''));
    return 0;
  }
  const path = resolve(io.cwd, opts.out as string);
  try {
    // A piece at a time (writeFile takes an iterable): the file is never one string in memory.
    await writeFile(path, redactEach(pieces));
  } catch (err) {
    throw new UserError(`--out: cannot write ${opts.out}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const a = report.account.figures;
  io.err(`Wrote ${opts.out} (${format}, ${report.monitors.length} monitors, availability ${a.availability === null ? '—' : `${a.availability.toFixed(3)}%`}).\n`);
  return 0;
}
