/** `monsync plan`: the plan on stdout as text, JSON or Markdown, optionally saved for `apply --plan`. */
import type { ConnectionOptions } from '../api/connect.js';
import { UsageError, UserError } from '../util/errors.js';
import { planFlow } from '../workflow/plan.js';
import type { CommandIo } from './output.js';
import { findCommit } from './commit.js';
import { printProgress } from './progress.js';

export interface PlanOptions extends ConnectionOptions {
  json?: boolean;
  format?: string;
  out?: string;
  detailedExitcode?: boolean;
  target?: string[];
  prune?: boolean;
  strict?: boolean;
  commit?: string;
}

export async function runPlan(paths: string[], opts: PlanOptions, io: CommandIo): Promise<number> {
  const format = opts.json ? 'json' : (opts.format ?? 'text');
  if (!['text', 'json', 'markdown'].includes(format)) {
    throw new UsageError(`--format must be text, json or markdown, got "${format}"`);
  }
  // Looked up before the account is read: a bad --commit is a usage error before any connection.
  const commit = format === 'markdown' ? await findCommit(opts.commit, io.env, io.cwd) : undefined;
  const { plan, desired } = await planFlow(async () => (await import('../api/connect.js')).connect(opts, io.env), {
    paths,
    prune: opts.prune,
    targets: opts.target,
    strict: opts.strict,
    onProgress: printProgress(io),
    // Only a plan that is kept needs it: saved, or printed as JSON or Markdown (which carry it).
    fingerprint: format !== 'text' || opts.out !== undefined,
  });

  if (opts.out) {
    const { writeSavedPlan, SavedPlanError } = await import('../apply/saved-plan.js');
    try {
      await writeSavedPlan(opts.out, plan, desired);
    } catch (err) {
      if (err instanceof SavedPlanError) throw new UserError(err.message);
      throw err;
    }
    io.err(`Saved the plan to ${opts.out}: \`monsync apply --plan ${opts.out}\` applies exactly this.\n`);
  }

  let text: string;
  if (format === 'json') {
    const { renderPlanJson } = await import('../render/plan-json.js');
    text = renderPlanJson(plan);
  } else if (format === 'markdown') {
    const { renderPlanMarkdown } = await import('../render/plan-markdown.js');
    const where = paths.length ? paths.join(' ') : 'monsync.yaml';
    text = renderPlanMarkdown(plan, { title: `monsync plan — \`${where}\` against \`${plan.target}\``, commit });
  } else {
    const { renderPlanText } = await import('../render/plan-text.js');
    text = renderPlanText(plan, { color: io.color });
  }
  io.out(text.endsWith('\n') ? text : `${text}\n`);

  if (opts.detailedExitcode && plan.changes.length > 0) return 2;
  return 0;
}
