import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, CONNECTION_ENV } from './common.js';
import type { DoctorOptions } from './doctor-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('doctor')
    .description(
      'check the set-up before a first plan: URL, reachability and TLS, v1 and v2 credentials, the service clock, the account, and (given paths) the configuration against it; read-only (exit 0: no problem, 1: some)',
    )
    .argument('[paths...]', 'configuration files or directories to check against the account (optional)')
    .option('--json', 'print a JSON object instead of the report');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    examples: ['monsync doctor               # the URL, credentials, clock and account', 'monsync doctor monitoring/   # and the configuration against the account'],
    env: [...CONNECTION_ENV, 'MONSYNC_CLIENT_ID, MONSYNC_CLIENT_SECRET', '${VAR}', 'NO_COLOR'],
  }).action(async (paths: string[], opts: DoctorOptions, self: Command) => {
    const [{ runDoctorCommand }, { processIo }] = await Promise.all([import('./doctor-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount(paths, opts, processIo(self), (ctx) => runDoctorCommand(ctx.paths, opts, ctx.io, ctx));
  });
}
