/**
 * `monsync pause`, `resume` and `paused`: alerting on and off by label (API 4.6). Every usage error
 * before a request; `pauseFlow` (src/workflow/pause.ts) and `pausedFlow` (src/workflow/status.ts)
 * on the command context; each outcome printed as it lands.
 */
import type { Command } from 'commander';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import type { Events } from '../workflow/events.js';
import { collect, CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface ResumeOptions extends ConnectionOptions {
  monitor?: string[];
  alert?: string[];
  all?: boolean;
}

export interface PauseOptions extends ResumeOptions {
  for: string;
}

export interface PausedOptions extends ConnectionOptions {
  json?: boolean;
}

const targetOptions = (cmd: Command, all: string): Command =>
  cmd
    .option('--monitor <label>', 'every alert of this monitor (repeatable)', collect)
    .option('--alert <monitor:subject>', "one alert: the monitor's label and the alert's trigger subject (repeatable)", collect)
    .option('--all', all);

export function register(program: Command): void {
  command<PauseOptions>(program, {
    name: 'pause',
    description: 'pause alerting for monitors or alerts, by label, for a while',
    usage: '--for <duration> (--monitor <label> | --alert <monitor:subject> | --all) [options]',
    options: (cmd) =>
      targetOptions(cmd, 'every alert of the account (slow on the real service beyond ~50 alerts)').requiredOption(
        '--for <duration>',
        '(required) how long: 90s, 30m, 2h, 1d, 1h30m; a bare number is seconds',
      ),
    service: true,
    help: { examples: ['monsync pause --monitor mx-eu-1 --for 30m', "monsync pause --alert 'mx-eu-1:mx-eu-1 is DOWN' --for 2h"], env: [...CONNECTION_ENV, 'NO_COLOR'] },
    declaredIn: () => [],
    each: (ctx, { opts, io }) => runPause(opts, io, ctx),
  });
  command<ResumeOptions>(program, {
    name: 'resume',
    description: 'end pauses now, by label',
    options: (cmd) => targetOptions(cmd, 'every pause of the account (slow on the real service beyond ~50 alerts)'),
    service: true,
    help: { examples: ['monsync resume --monitor mx-eu-1', 'monsync resume --all'], env: [...CONNECTION_ENV, 'NO_COLOR'] },
    declaredIn: () => [],
    each: (ctx, { opts, io }) => runResume(opts, io, ctx),
  });
  command<PausedOptions>(program, {
    name: 'paused',
    description: 'list paused alerts and when each resumes; given the configuration, which maintenance window each pause comes from',
    args: [['[paths...]', 'configuration files or directories: name the maintenance window of each pause']],
    options: (cmd) => cmd.option('--json', 'print JSON instead of the list'),
    service: true,
    help: {
      examples: ['monsync paused              # each paused alert and when it resumes', 'monsync paused --json', 'monsync paused monitoring/  # and which maintenance window each comes from'],
      env: [...CONNECTION_ENV, 'NO_COLOR'],
    },
    declaredIn: () => [],
    each: (ctx, { args, opts, io }) => runPaused(opts, io, args, ctx),
  });
}

/** The view of pause and resume: the note before a global call, then a line per outcome. */
async function pauseView(io: CommandIo, seconds: number): Promise<Events> {
  const { renderGlobalNote, renderPauseOutcome, renderResumeOutcome } = await import('../render/ops-pause.js');
  return (e) => {
    if (e.kind === 'pause-targets' && e.targets.kind === 'all') io.err(renderGlobalNote(e.verb, { color: io.errColor }));
    if (e.kind === 'pause-outcome') {
      io.out(e.verb === 'pause' ? renderPauseOutcome(e.outcome, { color: io.color, seconds, nowMs: e.nowMs }) : renderResumeOutcome(e.outcome, { color: io.color }));
    }
  };
}

async function runPauseOrResume(verb: 'pause' | 'resume', opts: ResumeOptions & { for?: string }, io: CommandIo, ctx: CommandContext | undefined): Promise<number> {
  const [{ parseDuration }, { targetsGiven }, { commandContext }, { pauseFlow }] = await Promise.all([
    import('../util/duration.js'),
    import('../ops/pause.js'),
    import('../workflow/context.js'),
    import('../workflow/pause.js'),
  ]);
  // Everything the user typed is checked before any request.
  const seconds = verb === 'pause' ? parseDuration(opts.for ?? '', '--for') : 0;
  targetsGiven(opts, verb);
  await pauseFlow(ctx ?? commandContext(io, [], opts), { verb, targets: opts, ...(verb === 'pause' && { seconds }) }, await pauseView(io, seconds));
  return 0;
}

export const runPause = (opts: PauseOptions, io: CommandIo, ctx?: CommandContext): Promise<number> => runPauseOrResume('pause', opts, io, ctx);
export const runResume = (opts: ResumeOptions, io: CommandIo, ctx?: CommandContext): Promise<number> => runPauseOrResume('resume', opts, io, ctx);

/** `paused [PATH...]`: given the configuration, which maintenance window made each pause. */
export async function runPaused(opts: PausedOptions, io: CommandIo, paths: string[] = [], ctx?: CommandContext): Promise<number> {
  const [{ commandContext }, { pausedFlow }, { renderPausedJson, renderPausedText }] = await Promise.all([
    import('../workflow/context.js'),
    import('../workflow/status.js'),
    import('../render/ops-pause.js'),
  ]);
  const { rows, nowMs } = await pausedFlow(ctx ?? commandContext(io, paths, opts), { windows: paths.length > 0 });
  io.out(opts.json ? renderPausedJson(rows) : renderPausedText(rows, { color: io.color, nowMs }));
  return 0;
}
