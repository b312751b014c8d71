/**
 * `monsync show PLAN_FILE [--format text|json|markdown]`: prints a plan saved by `plan --out` with
 * plan's own renderers, without contacting the service (no credentials needed), so a reviewer or a
 * later CI step sees exactly what `apply --plan FILE` would do. A file that is not a valid saved
 * plan is refused with the saved-plan reader's message, exit 1.
 */
import type { Command } from 'commander';
import { rootOf, useColor } from './common.js';
import { UserError } from '../util/errors.js';

export interface ShowOptions {
  format?: string;
  json?: boolean;
  /** Colour in the text format (the command decides it from the terminal, NO_COLOR and --no-color). */
  color?: boolean;
}

/** The rendered plan, ending in a newline; throws UserError for a bad format or a file that is not a saved plan. */
export async function renderSavedPlan(file: string, opts: ShowOptions): Promise<string> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) {
    throw new UserError(`--format must be text, json or markdown, got "${format}"`);
  }
  const { readSavedPlan } = await import('../apply/saved-plan.js');
  const saved = await readSavedPlan(file);
  if (!saved.ok) throw new UserError(saved.error);
  let text: string;
  if (format === 'json') {
    const { renderPlanJson } = await import('../render/plan-json.js');
    text = renderPlanJson(saved.plan);
  } else if (format === 'markdown') {
    const { renderPlanMarkdown } = await import('../render/plan-markdown.js');
    // The command-line paths of the plan run are not in the file: the heading names the files read.
    text = renderPlanMarkdown(saved.plan);
  } else {
    const { renderPlanText } = await import('../render/plan-text.js');
    text = renderPlanText(saved.plan, { color: opts.color ?? false });
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}

export function register(program: Command): void {
  program
    .command('show')
    .description('print a plan saved with `plan --out` (as plan printed it) without contacting the service')
    .argument('<plan-file>', 'a file written by `monsync plan --out FILE`')
    .option('--json', 'print the plan as JSON (same as --format json)')
    .option('--format <format>', 'text, json or markdown', 'text')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  $ monsync plan monitoring/ --out plan.json     # in one CI step (needs the service)',
        '  $ monsync show plan.json --format markdown    # in a later one (needs nothing)',
        '  $ monsync apply --plan plan.json              # applies exactly that plan',
      ].join('\n'),
    )
    .action(async (file: string, opts: ShowOptions, self: Command) => {
      process.stdout.write(await renderSavedPlan(file, { ...opts, color: useColor(rootOf(self)) }));
    });
}
