/**
 * `monsync checks [PATH...] [--json]`: every check monsync runs, with its severity and explanation;
 * given configuration paths, at the severities their settings.checks set. Offline.
 */
import type { Command } from 'commander';
import { addHelpFooter } from './common.js';

export function register(program: Command): void {
  const cmd = program
    .command('checks')
    .description('list every check (name, severity, what it needs, why it matters); offline')
    .argument('[paths...]', 'configuration whose settings.checks to show the severities of (default: the defaults)')
    .option('--json', 'print the list as JSON');
  addHelpFooter(cmd, {
    examples: [
      'monsync checks                     # every check at its default severity',
      "monsync checks monitoring/ --json  # at the severities of monitoring/'s settings.checks",
    ],
  })
    .action(async (paths: string[], opts: { json?: boolean }, self: Command) => {
      const { runChecksList } = await import('./checks-run.js');
      const { processIo } = await import('./output.js');
      process.exitCode = await runChecksList(paths, opts, processIo(self));
    });
}
