/**
 * Prints a command's progress (the progress among its events, src/workflow/events.ts) on stderr, so stdout
 * carries only the result; the timings only under MONSYNC_TIMINGS. Which account is read is said
 * before the read. In a log that is a line of its own and the counts follow on another (an HTTP trace
 * on stderr may come between them). On a terminal it is one line: the account, a spinner with the
 * seconds spent while a slow read lasts, then the counts in its place. A report's reads are a ticker
 * drawn in place where a person looks (a terminal, or colour asked for) and cleared at the end; a log
 * gets none of it.
 */
import { renderAccountLine, renderProgress, renderReadingHead, renderReportTicker, renderWaiting } from '../render/progress.js';
import { isProgress, type Events, type PlanProgress, type Progress, type ReportReadProgress } from '../workflow/events.js';
import type { CommandIo } from './output.js';

/** A spinner appears only on reads slower than this: a fast one stays a plain line. */
const SPINNER_AFTER_MS = 300;
/** The report ticker is redrawn at most this often (its last count always). */
const TICKER_EVERY_MS = 200;

const isReport = (p: Progress): p is ReportReadProgress => p.kind.startsWith('report-');

/** The progress view: draws the progress events, passes over the others (the command's own view shows those). */
export function printProgress(io: CommandIo): Events {
  const lines = lineProgress(io);
  const ticker = reportTicker(io);
  return (p) => {
    if (!isProgress(p)) return;
    if (isReport(p)) ticker(p);
    else lines(p);
  };
}

function reportTicker(io: CommandIo): (p: ReportReadProgress) => void {
  if (!io.errTerminal && !io.errColor) return () => undefined;
  let last = 0;
  return (p) => {
    if (p.kind === 'report-data') {
      const t = io.now();
      if (p.done !== p.total && t - last < TICKER_EVERY_MS) return;
      last = t;
    }
    io.err(`\r\x1b[2K${renderReportTicker(p)}`);
  };
}

function lineProgress(io: CommandIo): (p: Exclude<Progress, ReportReadProgress>) => void {
  if (!io.errTerminal) {
    return (p) => {
      if (p.kind === 'timings' && !io.env.MONSYNC_TIMINGS) return;
      io.err(renderProgress(p));
    };
  }
  let reading: Extract<PlanProgress, { kind: 'reading' }> | null = null;
  let started = 0;
  let timer: NodeJS.Timeout | undefined;
  const head = () => (reading === null ? '' : `${renderReadingHead(reading)} `);
  const draw = () => {
    const ms = performance.now() - started;
    io.err(`\r\x1b[2K${head()}${ms < SPINNER_AFTER_MS ? '' : renderWaiting(ms)}`);
  };
  const stop = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };
  return (p) => {
    if (p.kind === 'timings' && !io.env.MONSYNC_TIMINGS) return;
    switch (p.kind) {
      case 'reading':
        reading = p;
        started = performance.now();
        io.err(head());
        timer = setInterval(draw, 100);
        // Never what keeps the process alive.
        timer.unref();
        return;
      case 'account':
        stop();
        io.err(`\r\x1b[2K${reading === null ? renderProgress(p) : renderAccountLine(reading, p)}`);
        reading = null;
        return;
      case 'account-failed':
        stop();
        if (reading !== null) io.err(`\r\x1b[2K${head()}failed.\n`);
        reading = null;
        return;
      default:
        // Another line while the account line is open: above it, which is then drawn again.
        if (reading !== null) io.err(`\r\x1b[2K${renderProgress(p)}${head()}`);
        else io.err(renderProgress(p));
    }
  };
}
