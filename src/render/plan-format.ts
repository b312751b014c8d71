/**
 * One plan in the format asked for (`--format text|json|markdown`): what `plan` prints for one
 * account and `show` prints for a saved plan. Pure; the text ends with a newline.
 */
import type { Plan } from '../plan/types.js';
import { renderPlanJson } from './plan-json.js';
import { renderPlanMarkdown } from './plan-markdown.js';
import { renderPlanText } from './plan-text.js';

export const PLAN_FORMATS = ['text', 'json', 'markdown'] as const;
export type PlanFormat = (typeof PLAN_FORMATS)[number];

export function renderPlanAs(plan: Plan, format: PlanFormat, opts: { color: boolean; title?: string; commit?: string | undefined }): string {
  const text =
    format === 'json'
      ? renderPlanJson(plan)
      : format === 'markdown'
        ? renderPlanMarkdown(plan, { ...(opts.title !== undefined && { title: opts.title }), ...(opts.commit !== undefined && { commit: opts.commit }) })
        : renderPlanText(plan, { color: opts.color });
  return text.endsWith('\n') ? text : `${text}\n`;
}
