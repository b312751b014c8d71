/**
 * What `monsync validate` does, offline, on one context (an account's files and variables, or the
 * paths typed): load the configuration and run the checks that need only it (src/checks). A
 * configuration is invalid when it does not load, or when a finding stops it (an error; with
 * `strict`, a warning too).
 */
import type { Finding } from '../checks/types.js';
import type { DesiredState } from '../model/desired.js';
import type { CommandContext } from './context.js';

export type ValidateOutcome =
  /** It does not load: every problem as a line, `errors` of them in `files` files. */
  | { status: 'broken'; lines: string[]; errors: number; files: number }
  /** It loads; `stopped`: the findings make it invalid. */
  | { status: 'loaded'; warnings: string[]; findings: Finding[]; stopped: boolean; desired: DesiredState };

export async function validateFlow(ctx: CommandContext, opts: { strict?: boolean }): Promise<ValidateOutcome> {
  const read = await ctx.readConfiguration();
  if (!read.ok) return { status: 'broken', lines: read.lines, errors: read.errors, files: read.files };
  const { blocking, runChecks } = await import('../checks/index.js');
  const findings = runChecks(read.desired);
  return { status: 'loaded', warnings: read.warnings, findings, stopped: blocking(findings, opts.strict).length > 0, desired: read.desired };
}
