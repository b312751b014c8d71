/**
 * `monsync pause`, `resume` and `paused`: parse the options (every usage error before a request),
 * run the workflow (src/workflow/operate.ts, src/workflow/status.ts) on the command context, print.
 */
import pc from 'picocolors';
import { parseDuration } from '../ops/duration.js';
import { targetsGiven } from '../ops/pause.js';
import { renderPausedJson, renderPausedText, renderPauseOutcome, renderResumeOutcome } from '../render/ops-pause.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { pauseFlow } from '../workflow/operate.js';
import { pausedFlow } from '../workflow/status.js';
import type { CommandIo } from './output.js';

export interface PauseOptions extends ConnectionOptions {
  monitor?: string[];
  alert?: string[];
  all?: boolean;
  for: string;
}

export interface ResumeOptions extends ConnectionOptions {
  monitor?: string[];
  alert?: string[];
  all?: boolean;
}

export interface PausedOptions extends ConnectionOptions {
  json?: boolean;
}

/** service-notes.md: the global calls act on every alert synchronously. */
function warnGlobal(io: CommandIo, verb: 'pause' | 'resume'): void {
  const c = pc.createColors(io.errColor);
  io.err(
    c.yellow(
      `Note: on the real service a global ${verb} acts on every alert before it answers and can be very slow on accounts with more than about 50 alerts; raise --timeout (seconds) if it times out.`,
    ) + '\n',
  );
}

export async function runPause(opts: PauseOptions, io: CommandIo, ctx: CommandContext = commandContext(io, [], opts)): Promise<number> {
  // Everything the user typed is checked before any request.
  const seconds = parseDuration(opts.for, '--for');
  targetsGiven(opts, 'pause');
  await pauseFlow(ctx, {
    verb: 'pause',
    targets: opts,
    seconds,
    onTargets: (t) => t.kind === 'all' && warnGlobal(io, 'pause'),
    onDone: (o, nowMs) => io.out(renderPauseOutcome(o, { color: io.color, seconds, nowMs })),
  });
  return 0;
}

export async function runResume(opts: ResumeOptions, io: CommandIo, ctx: CommandContext = commandContext(io, [], opts)): Promise<number> {
  targetsGiven(opts, 'resume');
  await pauseFlow(ctx, {
    verb: 'resume',
    targets: opts,
    onTargets: (t) => t.kind === 'all' && warnGlobal(io, 'resume'),
    onDone: (o) => io.out(renderResumeOutcome(o, { color: io.color })),
  });
  return 0;
}

/** `paused [PATH...]`: given the configuration, which maintenance window made each pause. */
export async function runPaused(opts: PausedOptions, io: CommandIo, paths: string[] = [], ctx: CommandContext = commandContext(io, paths, opts)): Promise<number> {
  const { rows, nowMs } = await pausedFlow(ctx, { windows: paths.length > 0 });
  io.out(opts.json ? renderPausedJson(rows) : renderPausedText(rows, { color: io.color, nowMs }));
  return 0;
}
