import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { DataOptions } from './data-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('data')
    .description("chart a monitor's recent response times and failures")
    .argument('<label>', 'monitor label')
    .option('--since <duration>', 'how far back: 90m, 24h, 7d, ...', '24h')
    .option('--average <raw|hour|day>', 'raw tests, or hourly / daily averages', 'raw')
    .option('--json', 'print the data as JSON instead of the chart');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: ['monsync data mx-eu-1                         # the last 24 hours, test by test', 'monsync data mx-eu-1 --since 7d --average day'],
    env: [...CONNECTION_ENV, 'NO_COLOR'],
  }).action(async (label: string, opts: DataOptions, self: Command) => {
    const [{ runData }, { processIo }] = await Promise.all([import('./data-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount([], opts, processIo(self), (ctx) => runData(label, opts, ctx.io, ctx));
  });
}
