import type { ConnectionOptions } from '../api/connect.js';
import pc from 'picocolors';
import { connect } from '../api/connect.js';
import { parseDuration } from '../ops/duration.js';
import type { CommandIo } from './output.js';
import { listPaused, pauseTargets, resolveTargets, resumeTargets, targetsGiven } from '../ops/pause.js';
import { renderPausedJson, renderPausedText, renderPauseOutcome, renderResumeOutcome } from '../render/ops-pause.js';

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

export async function runPause(opts: PauseOptions, io: CommandIo): Promise<number> {
  // Everything the user typed is checked before any request.
  const seconds = parseDuration(opts.for, '--for');
  targetsGiven(opts, 'pause');
  const api = connect(opts, io.env);
  try {
    const targets = await resolveTargets(api, opts, 'pause');
    if (targets.kind === 'all') warnGlobal(io, 'pause');
    await pauseTargets(api, targets, seconds, (o) => io.out(renderPauseOutcome(o, { color: io.color, seconds, nowMs: io.now() + api.serviceClockOffsetMs() })));
    return 0;
  } finally {
    await api.close();
  }
}

export async function runResume(opts: ResumeOptions, io: CommandIo): Promise<number> {
  targetsGiven(opts, 'resume');
  const api = connect(opts, io.env);
  try {
    const targets = await resolveTargets(api, opts, 'resume');
    if (targets.kind === 'all') warnGlobal(io, 'resume');
    await resumeTargets(api, targets, (o) => io.out(renderResumeOutcome(o, { color: io.color })));
    return 0;
  } finally {
    await api.close();
  }
}

export async function runPaused(opts: PausedOptions, io: CommandIo): Promise<number> {
  const api = connect(opts, io.env);
  try {
    // Clock times on the service's clock (its Date header): the API gives only the seconds left.
    const serviceNow = () => io.now() + api.serviceClockOffsetMs();
    const rows = await listPaused(api, serviceNow);
    io.out(opts.json ? renderPausedJson(rows) : renderPausedText(rows, { color: io.color, nowMs: serviceNow() }));
    return 0;
  } finally {
    await api.close();
  }
}
