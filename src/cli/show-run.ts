/**
 * `monsync show PLAN_FILE [--format text|json|markdown]`: prints a plan saved by `plan --out` with
 * plan's own renderers, without contacting the service (no credentials needed), so a reviewer or a
 * later CI step sees exactly what `apply --plan FILE` would do. A file that is not a valid saved
 * plan is refused with the saved-plan reader's message, exit 1.
 */
import { UsageError } from '../util/errors.js';
import type { CommandIo } from './output.js';

export interface ShowOptions {
  format?: string;
  json?: boolean;
}

/** The rendered plan, ending in a newline; throws UserError for a bad format or a file that is not a saved plan. */
export async function renderSavedPlan(file: string, opts: ShowOptions & { color?: boolean }): Promise<string> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) {
    throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  }
  const plan = await (await import('../workflow/plan.js')).readPlanFile(file);
  let text: string;
  if (format === 'json') {
    const { renderPlanJson } = await import('../render/plan-json.js');
    text = renderPlanJson(plan);
  } else if (format === 'markdown') {
    const { renderPlanMarkdown } = await import('../render/plan-markdown.js');
    // The command-line paths of the plan run are not in the file: the heading names the files read.
    text = renderPlanMarkdown(plan);
  } else {
    const { renderPlanText } = await import('../render/plan-text.js');
    text = renderPlanText(plan, { color: opts.color ?? false });
  }
  return text.endsWith('\n') ? text : `${text}\n`;
}

export async function runShow(file: string, opts: ShowOptions, io: CommandIo): Promise<number> {
  io.out(await renderSavedPlan(file, { ...opts, color: io.color }));
  return 0;
}
