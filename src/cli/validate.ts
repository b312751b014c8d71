import type { Command } from 'commander';
import { ExitCode } from '../util/errors.js';
import type { ValidateOptions } from './validate-run.js';

export function register(program: Command): void {
  program
    .command('validate')
    .description('check configuration files offline (schema, names, references between files); needs no credentials')
    .argument('[paths...]', 'configuration files or directories of *.yaml / *.yml / *.json files (default: monsync.yaml)')
    .option('--strict', "fail on the checks' warnings too, not only their errors (for CI)")
    .action(async (paths: string[], opts: ValidateOptions, self: Command) => {
      const [{ runValidate }, { processIo }] = await Promise.all([import('./validate-run.js'), import('./output.js')]);
      const code = await runValidate(paths, opts, processIo(self));
      if (code !== 0) throw new ExitCode(code);
    });
}
