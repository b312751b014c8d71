import type { Command } from 'commander';
import { ExitCode } from '../util/errors.js';
import { addHelpFooter, CONFIG_PATHS } from './common.js';
import type { ValidateOptions } from './validate-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('validate')
    .description('check configuration files offline (schema, names, references between files); needs no credentials')
    .argument('[paths...]', CONFIG_PATHS)
    .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)");
  addHelpFooter(cmd, {
    examples: [
      'monsync validate monitoring/            # every problem as file:line:column, exit 1 if any',
      "monsync validate monitoring/ --strict   # in CI: the checks' warnings fail too",
    ],
    env: ['${VAR}'],
  })
    .action(async (paths: string[], opts: ValidateOptions, self: Command) => {
      const [{ runValidate }, { processIo }] = await Promise.all([import('./validate-run.js'), import('./output.js')]);
      const code = await runValidate(paths, opts, processIo(self));
      if (code !== 0) throw new ExitCode(code);
    });
}
