/**
 * `monsync fmt [PATH...] [--check] [--diff]`: rewrites configuration files in the canonical layout
 * (src/config/format/format.ts says what that is and what is kept). Files are found as validate and
 * plan find them. A file that does not parse is reported as `file:line:column: message` and left
 * alone; every other file is still formatted. Offline: needs no credentials.
 */
import type { Command } from 'commander';
import { ExitCode } from '../util/errors.js';
import { addHelpFooter } from './common.js';
import type { FmtOptions } from './fmt-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('fmt')
    .description('rewrite configuration files in the canonical layout, keeping every comment, blank line and anchor; offline')
    .argument('[paths...]', 'configuration files or directories of *.yaml / *.yml files (default: monsync.yaml)')
    .option('--check', 'write nothing; list the files that are not formatted and exit 1 if there are any (for CI)')
    .option('--diff', 'print what would change as a unified diff instead of writing it');
  addHelpFooter(cmd, {
    about: [
      "Canonical layout: keys in the schema's order (label first, alerts last), two-space indentation,",
      'quotes only where YAML needs them or where YAML 1.1 tools would read another type ("on", "007").',
      'What a file means never changes.',
    ],
    examples: [
      'monsync fmt monitoring/                  # rewrite, listing the files changed',
      'monsync fmt --check --diff monitoring/   # in CI: show what is off, exit 1 if anything is',
    ],
  })
    .action(async (paths: string[], opts: FmtOptions, self: Command) => {
      const [{ runFmt }, { processIo }] = await Promise.all([import('./fmt-run.js'), import('./output.js')]);
      const code = await runFmt(paths, opts, processIo(self));
      if (code !== 0) throw new ExitCode(code);
    });
}
