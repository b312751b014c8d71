import type { Command } from 'commander';
import { DEFAULT_OWNER } from '../model/live.js';
import { addAccountOptions, addConnectionOptions, addHelpFooter, collect, CONNECTION_ENV } from './common.js';
import type { ExportOptions } from './export-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('export')
    .description("write the account's SMTP monitors, their alerts and groups as monsync YAML (to adopt an existing account)")
    .option('--out <path>', 'write to this file, or to this directory as one file per group (default: stdout)')
    .option('--match <glob>', 'only monitors / groups whose label / name matches (repeatable)', collect)
    .option('--owner <name>', 'settings.owner of the exported config: the value of the managed-by marker', DEFAULT_OWNER)
    .option('--force', 'overwrite files that already exist');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: [
      'monsync export --out monitoring/                  # one file per group, to adopt the account',
      "monsync export --match 'mx-*' --owner mail-team   # some monitors, for a configuration of its own",
    ],
    env: CONNECTION_ENV,
  }).action(async (opts: ExportOptions, self: Command) => {
    const [{ runExport }, { processIo }] = await Promise.all([import('./export-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount([], opts, processIo(self), (ctx) => runExport(opts, ctx.io, ctx));
  });
}
