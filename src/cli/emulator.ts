import type { Command } from 'commander';
import { addHelpFooter } from './common.js';
import type { EmulatorCommandOptions } from './emulator-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('emulator')
    .description('run the bundled emulator of the monitoring service (for demos, tests and CI dry runs)')
    .option('--port <n>', 'port to listen on (0 picks a free one)', '8181')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--state <file>', 'persist state to this JSON file (atomic writes; a restart keeps everything)')
    .option('--seed <name>', 'initial data when the state is new: default or empty', 'default')
    .option('--sim-seed <seed>', 'seed of the simulated test results (same seed, same results)')
    .option('--failure-rate <rate>', 'share of simulated tests that fail on their own, 0 to 1 (default 0.01)')
    .option(
      '--clone-from <url>',
      'start with a copy of the account at this URL (MONSYNC_USERNAME / MONSYNC_PASSWORD; only read there), to rehearse an apply; with --state the copy is kept there',
    )
    .option('--tls', 'serve HTTPS with a certificate signed by a CA made at start (its file is printed: trust it with NODE_EXTRA_CA_CERTS)')
    .option('--tls-ca-file <file>', 'with --tls: write the CA certificate to this file (default: in a new temporary directory)');
  addHelpFooter(cmd, {
    examples: [
      'monsync emulator --port 0 --seed empty     # prints the URL it listens on, then serves an empty account',
      'monsync emulator --state emulator.json     # keeps the account across restarts',
      'monsync emulator --tls --tls-ca-file ca.pem  # HTTPS; then NODE_EXTRA_CA_CERTS=ca.pem monsync plan',
    ],
    env: ['MONSYNC_USERNAME, MONSYNC_PASSWORD', 'NODE_EXTRA_CA_CERTS'],
  })
    .action(async (opts: EmulatorCommandOptions, self: Command) => {
      const [{ runEmulatorCommand }, { processIo }] = await Promise.all([import('./emulator-run.js'), import('./output.js')]);
      await runEmulatorCommand(opts, processIo(self));
    });
}
