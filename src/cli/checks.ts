/**
 * `monsync checks [PATH...] [--json]`: every check monsync runs (`checksFlow`, src/workflow/checks.ts),
 * with its severity and explanation; given configuration paths, at the severities their
 * settings.checks set. Offline.
 */
import type { Command } from 'commander';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export function register(program: Command): void {
  command<{ json?: boolean }>(program, {
    name: 'checks',
    description: 'list every check (name, severity, what it needs, why it matters); offline',
    args: [['[paths...]', 'configuration whose settings.checks to show the severities of (default: the defaults)']],
    options: (cmd) => cmd.option('--json', 'print the list as JSON'),
    help: {
      examples: [
        'monsync checks                     # every check at its default severity',
        "monsync checks monitoring/ --json  # at the severities of monitoring/'s settings.checks",
      ],
    },
    run: ({ args, opts, io }) => runChecksList(args, opts, io),
  });
}

export async function runChecksList(paths: string[], opts: { json?: boolean }, io: CommandIo): Promise<number> {
  const [{ commandContext }, { checksFlow }, { renderCheckList, renderCheckListJson }] = await Promise.all([
    import('../workflow/context.js'),
    import('../workflow/checks.js'),
    import('../render/checks-list.js'),
  ]);
  const result = await checksFlow(commandContext(io, paths), { configured: paths.length > 0 });
  if ('problems' in result) {
    for (const line of result.problems) io.err(`${line}\n`);
    return 1;
  }
  io.out(opts.json ? renderCheckListJson(result.checks) : renderCheckList(result.checks, { color: io.color, configured: result.configured }));
  return 0;
}
