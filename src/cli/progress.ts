/** Prints a plan run's progress on stderr, so stdout carries only the plan; the timings only under MONSYNC_TIMINGS. */
import { renderProgress } from '../render/progress.js';
import type { OnProgress } from '../workflow/plan.js';
import type { CommandIo } from './output.js';

export function printProgress(io: CommandIo): OnProgress {
  return (p) => {
    if (p.kind === 'timings' && !io.env.MONSYNC_TIMINGS) return;
    io.err(renderProgress(p));
  };
}
