import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { StatusOptions } from './status-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('status')
    .description('monitors with an active alert (exit 0: none, 3: some, 1: error); API v2 when MONSYNC_CLIENT_ID is set, else v1')
    .argument('[paths...]', 'configuration files or directories: also show the pauses each maintenance window made')
    .option('--all', 'list every monitor, not only those with an active alert')
    .option('--json', 'print a JSON object instead of the table');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: [
      'monsync status                # exit 3 when some alert is active',
      'monsync status --all --json   # every monitor, for a script',
      'monsync status monitoring/    # and the pauses of its maintenance windows',
    ],
    env: [...CONNECTION_ENV, 'MONSYNC_CLIENT_ID, MONSYNC_CLIENT_SECRET', 'NO_COLOR'],
  }).action(async (paths: string[], opts: StatusOptions, self: Command) => {
    const [{ runStatus }, { processIo }] = await Promise.all([import('./status-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount(paths, opts, processIo(self), (ctx) => runStatus(opts, ctx.io, paths, ctx), []);
  });
}
