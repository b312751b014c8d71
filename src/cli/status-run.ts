/**
 * `monsync status [PATH...]`: parses the options, runs `statusFlow` (src/workflow/status.ts) and
 * prints the summary as text or JSON. Exit 3 when an alert is active.
 */
import pc from 'picocolors';
import { statusExitCode } from '../ops/status.js';
import { renderStatusJson, renderStatusText } from '../render/ops-status.js';
import { commandContext, type CommandContext, type ConnectionOptions } from '../workflow/context.js';
import { statusFlow } from '../workflow/status.js';
import type { CommandIo } from './output.js';

export interface StatusOptions extends ConnectionOptions {
  all?: boolean;
  json?: boolean;
}

/** Given the configuration (PATH...), the pauses its maintenance windows made are shown too. */
export async function runStatus(opts: StatusOptions, io: CommandIo, paths: string[] = [], ctx: CommandContext = commandContext(io, paths, opts)): Promise<number> {
  // Which alert, since when: in the text (v1's status filter and data); JSON stays the summary.
  const outcome = await statusFlow(ctx, {
    all: opts.all === true,
    describe: !opts.json,
    windows: paths.length > 0,
    onApi: (reason) => io.err(`${pc.createColors(io.errColor).dim(reason)}\n`),
  });
  const { report, maintenance } = outcome;
  io.out(
    opts.json
      ? renderStatusJson(report, maintenance)
      : renderStatusText(report, { color: io.color, ...(maintenance !== undefined ? { maintenance, nowMs: outcome.nowMs } : {}) }),
  );
  return statusExitCode(report);
}
