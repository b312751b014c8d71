/** `monsync doctor [PATH...]`: `doctorFlow` (src/workflow/doctor.ts), the checks as text or JSON. Exit 0 when no check is a problem, 1 otherwise. */
import type { Command } from 'commander';
import type { CommandContext, ConnectionOptions } from '../workflow/context.js';
import { CONNECTION_ENV } from './common.js';
import { command } from './driver.js';
import type { CommandIo } from './output.js';

export interface DoctorOptions extends ConnectionOptions {
  json?: boolean;
}

export function register(program: Command): void {
  command<DoctorOptions>(program, {
    name: 'doctor',
    description:
      'check the set-up before a first plan: URL, reachability and TLS, v1 and v2 credentials, the service clock, the account, and (given paths) the configuration against it; read-only (exit 0: no problem, 1: some)',
    args: [['[paths...]', 'configuration files or directories to check against the account (optional)']],
    options: (cmd) => cmd.option('--json', 'print a JSON object instead of the report'),
    service: true,
    help: {
      examples: ['monsync doctor               # the URL, credentials, clock and account', 'monsync doctor monitoring/   # and the configuration against the account'],
      env: [...CONNECTION_ENV, 'MONSYNC_CLIENT_ID, MONSYNC_CLIENT_SECRET', '${VAR}', 'NO_COLOR'],
    },
    each: (ctx, { opts, io }) => runDoctorCommand(ctx.paths, opts, io, ctx),
  });
}

export async function runDoctorCommand(paths: string[], opts: DoctorOptions, io: CommandIo, ctx?: CommandContext): Promise<number> {
  const [{ commandContext }, { doctorFlow }, { renderDoctorJson, renderDoctorText }] = await Promise.all([
    import('../workflow/context.js'),
    import('../workflow/doctor.js'),
    import('../render/doctor.js'),
  ]);
  const report = await doctorFlow(ctx ?? commandContext(io, paths, opts));
  io.out(opts.json ? renderDoctorJson(report) : renderDoctorText(report, { color: io.color }));
  return report.problems > 0 ? 1 : 0;
}
