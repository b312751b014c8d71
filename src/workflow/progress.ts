/**
 * The one vocabulary of progress events the workflows tell (plan, apply, export, maintain: the
 * configuration and the account read; report: its reads; test: the mail paths it starts), and the
 * callback they tell it to. The events are plain data drawn by src/render/progress.ts (which holds
 * their type, below this folder, so the renderers can name it); runners print them through
 * src/cli/progress.ts.
 */
import type { Progress } from '../render/progress.js';

export type { Progress, PlanProgress, ReportReadProgress } from '../render/progress.js';

export type OnProgress = (p: Progress) => void;
