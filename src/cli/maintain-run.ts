/**
 * `monsync maintain [PATH...]`: parses the options, runs `maintainFlow` (src/workflow/maintain.ts:
 * pauses the alerts covered by the maintenance windows open now, on the service's clock, until each
 * window's end) and prints what it decided and sent. A broken configuration is a UserError and
 * nothing is sent; `--dry-run` reads and says what it would send.
 */
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import type { CommandIo } from './output.js';

export interface MaintainOptions extends ConnectionOptions {
  dryRun?: boolean;
  json?: boolean;
}

/** `ctx`: the command context (a declared account's files, variables and credentials); default `paths`, no account. */
export async function runMaintain(paths: string[], opts: MaintainOptions, io: CommandIo, ctx: CommandContext = commandContext(io, paths, opts)): Promise<number> {
  const [{ maintainFlow }, render, { renderProgress }] = await Promise.all([
    import('../workflow/maintain.js'),
    import('../render/maintain.js'),
    import('../render/progress.js'),
  ]);
  const dryRun = opts.dryRun === true;
  // Of the read's events only the healed contradiction: maintain's stderr is a scheduled job's log.
  const outcome = await maintainFlow(ctx, { dryRun, onProgress: (p) => p.kind === 'healed' && io.err(renderProgress(p)) });
  for (const line of outcome.warnings) io.err(`${line}\n`);
  if (outcome.status === 'no-windows') {
    io.out(opts.json ? render.renderMaintainJson({ now_ms: io.now(), open: [] }, [], { dryRun }) : 'No maintenance windows are declared.\n');
    return 0;
  }
  const { decision, sent } = outcome;
  const show = () =>
    io.out(opts.json ? render.renderMaintainJson(decision, sent, { dryRun }) : render.renderMaintainText(decision, sent, { color: io.color, dryRun }));
  if (outcome.failure !== undefined) {
    // What was paused before the failure is on record (the next run finds those done).
    if (sent.length > 0) show();
    throw outcome.failure;
  }
  show();
  return 0;
}
