/** `monsync status [PATH...]`: `statusFlow` (src/workflow/status.ts), its summary as text or JSON. Exit 3 when an alert is active. */
import type { Command } from 'commander';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface StatusOptions extends ConnectionOptions {
  all?: boolean;
  json?: boolean;
}

export function register(program: Command): void {
  command<StatusOptions>(program, {
    name: 'status',
    description: 'monitors with an active alert (exit 0: none, 3: some, 1: error); API v2 when MONSYNC_CLIENT_ID is set, else v1',
    args: [['[paths...]', 'configuration files or directories: also show the pauses each maintenance window made']],
    options: (cmd) => cmd.option('--all', 'list every monitor, not only those with an active alert').option('--json', 'print a JSON object instead of the table'),
    service: true,
    help: {
      examples: [
        'monsync status                # exit 3 when some alert is active',
        'monsync status --all --json   # every monitor, for a script',
        'monsync status monitoring/    # and the pauses of its maintenance windows',
      ],
      env: [...CONNECTION_ENV, 'MONSYNC_CLIENT_ID, MONSYNC_CLIENT_SECRET', 'NO_COLOR'],
    },
    declaredIn: () => [],
    each: (ctx, { args, opts, io }) => runStatus(opts, io, args, ctx),
  });
}

/** Given the configuration (PATH...), the pauses its maintenance windows made are shown too. */
export async function runStatus(opts: StatusOptions, io: CommandIo, paths: string[] = [], ctx?: CommandContext): Promise<number> {
  const [{ commandContext }, { statusFlow }, { statusExitCode }, render, { default: pc }] = await Promise.all([
    import('../workflow/context.js'),
    import('../workflow/status.js'),
    import('../ops/status.js'),
    import('../render/ops-status.js'),
    import('picocolors'),
  ]);
  // Which alert, since when: in the text (v1's status filter and data); JSON stays the summary.
  const outcome = await statusFlow(ctx ?? commandContext(io, paths, opts), { all: opts.all === true, describe: !opts.json, windows: paths.length > 0 }, (e) => {
    if (e.kind === 'api-chosen') io.err(`${pc.createColors(io.errColor).dim(e.reason)}\n`);
  });
  const { report, maintenance } = outcome;
  io.out(opts.json ? render.renderStatusJson(report, maintenance) : render.renderStatusText(report, { color: io.color, ...(maintenance !== undefined ? { maintenance, nowMs: outcome.nowMs } : {}) }));
  return statusExitCode(report);
}
