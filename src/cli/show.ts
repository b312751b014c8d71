/**
 * `monsync show PLAN_FILE [--format text|json|markdown]`: prints a plan saved by `plan --out` with
 * plan's own renderers, without contacting the service (no credentials needed), so a reviewer or a
 * later CI step sees exactly what `apply --plan FILE` would do. A file that is not a valid saved
 * plan is refused with the saved-plan reader's message, exit 1.
 */
import type { Command } from 'commander';
import { addHelpFooter } from './common.js';
import type { ShowOptions } from './show-run.js';

export function register(program: Command): void {
  const cmd = program
    .command('show')
    .description('print a plan saved with `plan --out` (as plan printed it) without contacting the service')
    .argument('<plan-file>', 'a file written by `monsync plan --out FILE`')
    .option('--json', 'print the plan as JSON (same as --format json)')
    .option('--format <format>', 'text, json or markdown', 'text');
  addHelpFooter(cmd, {
    examples: [
      'monsync plan monitoring/ --out plan.json     # in one CI step (needs the service)',
      'monsync show plan.json --format markdown    # in a later one (needs nothing)',
      'monsync apply --plan plan.json              # applies exactly that plan',
    ],
    env: ['NO_COLOR'],
  })
    .action(async (file: string, opts: ShowOptions, self: Command) => {
      const [{ runShow }, { processIo }] = await Promise.all([import('./show-run.js'), import('./output.js')]);
      process.exitCode = await runShow(file, opts, processIo(self));
    });
}
