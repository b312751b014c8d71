/**
 * `monsync maintain [PATH...]`: maintenance windows as code, run by a scheduled job every few
 * minutes. `maintainFlow` (src/workflow/maintain.ts) pauses the alerts covered by the windows open
 * now, on the service's clock, until each window's end; this prints what it decided and sent. A
 * broken configuration is a UserError and nothing is sent; `--dry-run` reads and says what it would send.
 */
import type { Command } from 'commander';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface MaintainOptions extends ConnectionOptions {
  dryRun?: boolean;
  json?: boolean;
}

export function register(program: Command): void {
  command<MaintainOptions>(program, {
    name: 'maintain',
    description: "pause the alerts of the maintenance windows open now, until each window's end (run it every few minutes)",
    args: [['[paths...]', 'configuration files or directories (default: monsync.yaml)']],
    options: (cmd) => cmd.option('--dry-run', 'read the account and say what would be paused; send nothing').option('--json', 'print a JSON object instead of the lines'),
    service: true,
    help: {
      examples: [
        'monsync maintain monitoring/            # from a job every 5 minutes',
        'monsync maintain monitoring/ --dry-run  # what it would pause now',
        'monsync maintain --all-accounts         # every declared account, in turn (docs/accounts.md)',
      ],
      env: [...CONNECTION_ENV, '${VAR}', 'NO_COLOR'],
    },
    // A declared account is maintained from its own files and variables; one failing account does not stop the next.
    each: (ctx, { opts, io }) => runMaintain(ctx.paths, opts, io, ctx),
  });
}

/** `ctx`: the command context (a declared account's files, variables and credentials); default `paths`, no account. */
export async function runMaintain(paths: string[], opts: MaintainOptions, io: CommandIo, ctx?: CommandContext): Promise<number> {
  const [{ commandContext }, { maintainFlow }, render, { renderProgress }] = await Promise.all([
    import('../workflow/context.js'),
    import('../workflow/maintain.js'),
    import('../render/maintain.js'),
    import('../render/progress.js'),
  ]);
  const dryRun = opts.dryRun === true;
  // Of the read's events only the healed contradiction: maintain's stderr is a scheduled job's log.
  const outcome = await maintainFlow(ctx ?? commandContext(io, paths, opts), { dryRun }, (e) => {
    if (e.kind === 'warning') io.err(`${e.line}\n`);
    if (e.kind === 'healed') io.err(renderProgress(e));
  });
  if (outcome.status === 'no-windows') {
    io.out(opts.json ? render.renderMaintainJson({ now_ms: io.now(), open: [] }, [], { dryRun }) : 'No maintenance windows are declared.\n');
    return 0;
  }
  const { decision, sent } = outcome;
  const show = () => io.out(opts.json ? render.renderMaintainJson(decision, sent, { dryRun }) : render.renderMaintainText(decision, sent, { color: io.color, dryRun }));
  if (outcome.failure !== undefined) {
    // What was paused before the failure is on record (the next run finds those done).
    if (sent.length > 0) show();
    throw outcome.failure;
  }
  show();
  return 0;
}
