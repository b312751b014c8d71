/**
 * `monsync maintain [PATH...]`: maintenance windows as code, run by a scheduled job every few minutes.
 */
import type { Command } from 'commander';
import { addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { MaintainOptions } from './maintain-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('maintain')
    .description("pause the alerts of the maintenance windows open now, until each window's end (run it every few minutes)")
    .argument('[paths...]', 'configuration files or directories (default: monsync.yaml)')
    .option('--dry-run', 'read the account and say what would be paused; send nothing')
    .option('--json', 'print a JSON object instead of the lines');
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: ['monsync maintain monitoring/            # from a job every 5 minutes', 'monsync maintain monitoring/ --dry-run  # what it would pause now'],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (paths: string[], opts: MaintainOptions, self: Command) => {
    const [{ runMaintain }, { processIo }] = await Promise.all([import('./maintain-run.js'), import('./output.js')]);
    process.exitCode = await runMaintain(paths, opts, processIo(self));
  });
}
