import type { ConnectionOptions } from '../api/connect.js';
import pc from 'picocolors';
import { connect } from '../api/connect.js';
import type { DesiredMaintenance } from '../model/desired.js';
import { UserError } from '../util/errors.js';
import { plural } from '../util/plural.js';
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

/**
 * `paused PATH...` and `status PATH...`: the configuration's maintenance windows, to say which pause comes from which;
 * a broken configuration is a UserError before anything is read.
 */
export async function maintenanceWindows(paths: string[], io: CommandIo): Promise<DesiredMaintenance[] | undefined> {
  if (paths.length === 0) return undefined;
  const { loadConfig, formatDiagnostics } = await import('../config/index.js');
  const result = await loadConfig(paths, { cwd: io.cwd, env: io.env, now: io.now() });
  if ('diagnostics' in result) {
    const errors = result.diagnostics.filter((d) => d.severity !== 'warning');
    throw new UserError(`the configuration has ${plural(errors.length, 'problem')}`, { details: formatDiagnostics(result.diagnostics, io.cwd).split('\n').filter(Boolean) });
  }
  return result.state.maintenance ?? [];
}

export async function runPaused(opts: PausedOptions, io: CommandIo, paths: string[] = []): Promise<number> {
  const windows = await maintenanceWindows(paths, io);
  const api = connect(opts, io.env);
  try {
    // Clock times on the service's clock (its Date header): the API gives only the seconds left.
    const serviceNow = () => io.now() + api.serviceClockOffsetMs();
    let rows = await listPaused(api, serviceNow);
    if (windows !== undefined) {
      const { windowOfPause } = await import('../ops/maintenance.js');
      // Matched on the transport's clock (Date.now), against which the service's offset is measured.
      const now = Date.now() + api.serviceClockOffsetMs();
      rows = rows.map((r) => ({ ...r, window: windowOfPause(windows, now + r.seconds * 1000, now)?.name ?? null }));
    }
    io.out(opts.json ? renderPausedJson(rows) : renderPausedText(rows, { color: io.color, nowMs: serviceNow() }));
    return 0;
  } finally {
    await api.close();
  }
}
