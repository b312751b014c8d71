import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { DrillCliOptions } from './drill-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('drill')
    .description('emulator only: force an outage of a monitor and show which destinations would be told what, and when')
    .argument('<label>', 'monitor label')
    .option('--minutes <n>', 'minutes of outage to simulate', '60');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: ['monsync drill mx-eu-1 --minutes 60   # against `monsync emulator` only; moves its clock forward'],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (label: string, opts: DrillCliOptions, self: Command) => {
    const [{ runDrillCommand }, { processIo }] = await Promise.all([import('./drill-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount([], opts, processIo(self), (ctx) => runDrillCommand(label, opts, ctx.io, undefined, ctx));
  });
}
