/**
 * Prints a plan run's progress on stderr, so stdout carries only the plan; the timings only under
 * MONSYNC_TIMINGS. The account line is opened before the read (which account) and closed when it is
 * done (what it holds): one line in a log; on a terminal a spinner with the seconds spent is drawn
 * at its end meanwhile, so a slow read is seen to be alive.
 */
import { renderProgress, renderWaiting, type PlanProgress } from '../render/progress.js';
import type { OnProgress } from '../workflow/plan.js';
import type { CommandIo } from './output.js';

/** A spinner appears only on reads slower than this: a fast one stays a plain line. */
const SPINNER_AFTER_MS = 300;

export function printProgress(io: CommandIo): OnProgress {
  let open: string | null = null;
  let broken = false;
  let timer: NodeJS.Timeout | undefined;
  let drawn = false;
  const stopWaiting = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
    if (drawn) io.err(`\r\x1b[2K${open ?? ''}`);
    drawn = false;
  };
  return (p: PlanProgress) => {
    if (p.kind === 'timings' && !io.env.MONSYNC_TIMINGS) return;
    if (p.kind === 'reading') {
      open = renderProgress(p);
      broken = false;
      io.err(open);
      if (io.errTerminal) {
        const started = performance.now();
        const head = open;
        timer = setInterval(() => {
          const ms = performance.now() - started;
          if (ms < SPINNER_AFTER_MS) return;
          drawn = true;
          io.err(`\r\x1b[2K${head}${renderWaiting(ms)}`);
        }, 100);
        // Never what keeps the process alive.
        timer.unref();
      }
      return;
    }
    if (p.kind === 'account' || p.kind === 'account-failed') {
      stopWaiting();
      // Something else was printed in between: the head again, so the line still says which account.
      io.err(`${broken && open !== null ? open : ''}${renderProgress(p)}`);
      open = null;
      return;
    }
    if (open !== null) {
      stopWaiting();
      io.err('\n');
      broken = true;
    }
    io.err(renderProgress(p));
  };
}
