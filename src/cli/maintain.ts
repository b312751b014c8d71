/**
 * `monsync maintain [PATH...]`: maintenance windows as code, run by a scheduled job every few minutes.
 */
import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { MaintainOptions } from './maintain-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('maintain')
    .description("pause the alerts of the maintenance windows open now, until each window's end (run it every few minutes)")
    .argument('[paths...]', 'configuration files or directories (default: monsync.yaml)')
    .option('--dry-run', 'read the account and say what would be paused; send nothing')
    .option('--json', 'print a JSON object instead of the lines');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: [
      'monsync maintain monitoring/            # from a job every 5 minutes',
      'monsync maintain monitoring/ --dry-run  # what it would pause now',
      'monsync maintain --all-accounts         # every declared account, in turn (docs/accounts.md)',
    ],
    env: [...CONNECTION_ENV, '${VAR}', 'NO_COLOR'],
  }).action(async (paths: string[], opts: MaintainOptions, self: Command) => {
    const [{ runMaintain }, { processIo }] = await Promise.all([import('./maintain-run.js'), import('./output.js')]);
    // A declared account is maintained from its own files and variables; one failing account does not stop the next.
    process.exitCode = await (await import('./accounts.js')).runPerAccount(paths, opts, processIo(self), (ctx) =>
      runMaintain(ctx.paths, opts, ctx.io, ctx),
    );
  });
}
