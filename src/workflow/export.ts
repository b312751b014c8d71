/**
 * What `monsync export` does before anything is written: read the account through the command
 * context (a read that contradicts itself twice is refused: it would export an account with monitors
 * or alerts missing) and export it (src/export: pure, files as text). Progress goes to `onProgress`;
 * problems are UserErrors. Writing the files is the runner's (atomic, interruptible).
 */
import type { ExportResult } from '../export/index.js';
import type { OnProgress } from './account.js';
import type { CommandContext } from './context.js';

export interface ExportFlowOptions {
  match?: string[];
  owner: string;
  /** `$schema` of the files, relative to where they are written. */
  schemaPath: string;
  /** One file per group (`--out DIR`), or one file. */
  split: boolean;
  onProgress?: OnProgress;
}

export async function exportFlow(ctx: CommandContext, opts: ExportFlowOptions): Promise<ExportResult> {
  const [{ ExportError, exportConfig }, { AccountContradictionError }, { UserError }] = await Promise.all([
    import('../export/index.js'),
    import('../plan/consistency.js'),
    import('../util/errors.js'),
  ]);
  const api = await ctx.connect();
  try {
    const live = await ctx.readAccount(api, null, opts.onProgress).catch((err: unknown) => {
      throw err instanceof AccountContradictionError ? err.withConsequence('no file was written') : err;
    });
    try {
      return exportConfig(live, { ...(opts.match !== undefined ? { match: opts.match } : {}), owner: opts.owner, schemaPath: opts.schemaPath, split: opts.split });
    } catch (err) {
      if (err instanceof ExportError) throw new UserError(err.message, { details: err.problems.map((p) => `  - ${p}`) });
      throw err;
    }
  } finally {
    await api.close();
  }
}
