/**
 * `monsync show PLAN_FILE [--format text|json|markdown]`: prints a plan saved by `plan --out` with
 * plan's own renderers, without contacting the service (no credentials needed), so a reviewer or a
 * later CI step sees exactly what `apply --plan FILE` would do. A file that is not a valid saved
 * plan is refused with the saved-plan reader's message, exit 1.
 */
import type { Command } from 'commander';
import { command } from './driver.js';
import { planFormat } from './plan.js';

export interface ShowOptions {
  format?: string;
  json?: boolean;
}

export function register(program: Command): void {
  command<ShowOptions>(program, {
    name: 'show',
    description: 'print a plan saved with `plan --out` (as plan printed it) without contacting the service',
    args: [['<plan-file>', 'a file written by `monsync plan --out FILE`']],
    options: (cmd) => cmd.option('--json', 'print the plan as JSON (same as --format json)').option('--format <format>', 'text, json or markdown', 'text'),
    help: {
      examples: [
        'monsync plan monitoring/ --out plan.json     # in one CI step (needs the service)',
        'monsync show plan.json --format markdown    # in a later one (needs nothing)',
        'monsync apply --plan plan.json              # applies exactly that plan',
      ],
      env: ['NO_COLOR'],
    },
    run: async ({ args, opts, io }) => {
      const format = planFormat(opts);
      const [{ readPlanFile }, { renderPlanAs }] = await Promise.all([import('../workflow/plan.js'), import('../render/plan-format.js')]);
      // The command-line paths of the plan run are not in the file: a Markdown heading names the files read.
      io.out(renderPlanAs(await readPlanFile(args[0]!), format, { color: io.color }));
      return 0;
    },
  });
}
