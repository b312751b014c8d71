/**
 * Prints a plan run's progress on stderr, so stdout carries only the plan; the timings only under
 * MONSYNC_TIMINGS. Which account is read is said before the read. In a log that is a line of its own
 * and the counts follow on another (an HTTP trace on stderr may come between them). On a terminal
 * it is one line: the account, a spinner with the seconds spent while a slow read lasts, then the
 * counts in its place.
 */
import { renderAccountLine, renderProgress, renderReadingHead, renderWaiting, type PlanProgress } from '../render/progress.js';
import type { OnProgress } from '../workflow/plan.js';
import type { CommandIo } from './output.js';

/** A spinner appears only on reads slower than this: a fast one stays a plain line. */
const SPINNER_AFTER_MS = 300;

export function printProgress(io: CommandIo): OnProgress {
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
  return (p: PlanProgress) => {
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
