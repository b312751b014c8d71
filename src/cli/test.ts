import type { Command } from 'commander';
import { addAccountOptions, addConnectionOptions, addHelpFooter, collect, CONFIG_PATHS, CONNECTION_ENV } from './common.js';
import type { TestOptions } from './test-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('test')
    .description("test each SMTP monitor's mail path from here (DNS, connection, greeting, TLS, MAIL FROM, RCPT TO) without sending a message")
    .argument('[paths...]', CONFIG_PATHS)
    .option('--target <glob>', 'limit the plan to matching labels / group names (repeatable)', collect)
    .option('--changed', 'test only the monitors the plan would create or change (reads the account: needs credentials)')
    .option('--json', 'print the results as JSON (same as --format json)')
    .option('--format <format>', 'text, json or markdown (a pull-request comment)', 'text')
    .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
    .option('--concurrency <n>', 'monitors tested at once', '32')
    .option('--step-timeout <seconds>', 'time limit of each step (a DNS query, the connection, each SMTP reply, the TLS handshake)', '10')
    .option('--smtp-port <n>', "connect to this port instead of each monitor's port (a tunnel or relay standing in for the servers)")
    .option('--mail-from <address>', 'the reverse path of MAIL FROM (default: the null sender <>)');
  addAccountOptions(cmd);
  addConnectionOptions(cmd);
  addHelpFooter(cmd, {
    about: [
      'Never sends a message: the dialogue stops after RCPT TO with RSET and QUIT (no DATA). Exit 0 when',
      'every monitor passes, 1 when any fails, 3 when nothing failed but no mail server could be reached',
      'from this machine (outbound port 25 is blocked on many CI runners): inconclusive. DNS is asked',
      'through the system resolver, or the servers in MONSYNC_DNS_SERVERS (host:port, comma separated).',
    ],
    examples: [
      'monsync test monitoring/                                  # every SMTP monitor, from this machine',
      'monsync test monitoring/ --changed --format markdown      # in CI on a pull request: the new and changed ones',
      "monsync test monitoring/ --target 'mx-eu-*' --json        # some of them, as JSON",
      'MONSYNC_DNS_SERVERS=10.0.0.53 monsync test monitoring/    # ask the DNS server the service would see',
    ],
    env: [...CONNECTION_ENV, 'MONSYNC_DNS_SERVERS', '${VAR}', 'NO_COLOR'],
  }).action(async (paths: string[], opts: TestOptions, self: Command) => {
    const [{ runTest }, { processIo }] = await Promise.all([import('./test-run.js'), import('./output.js')]);
    process.exitCode = await (await import('./accounts.js')).runPerAccount(paths, opts, processIo(self), (ctx) => runTest(ctx.paths, opts, ctx.io, { context: ctx }));
  });
}
