/**
 * The account read for `monsync emulator --clone-from URL`: through the command context's client
 * (`ctx.connect`) and the one reader of the account (src/workflow/account.ts), keeping each
 * monitor's type as the original sent it, and its copy for the replica (src/ops/clone.ts). GET
 * requests only; the client is closed when the read ends.
 */
import type { AccountCopy } from '../ops/clone.js';
import { startAccountRead } from './account.js';
import type { CommandContext } from './context.js';

export interface CopyRead {
  copy: AccountCopy;
  /** The base URL read. */
  source: string;
  /** Requests the read took. */
  requests: number;
  ms: number;
}

/** Reads the account (GET requests only) and returns its copy. */
export async function readAccountCopy(ctx: CommandContext): Promise<CopyRead> {
  const { copyOf } = await import('../ops/clone.js');
  const api = await ctx.connect();
  try {
    const before = api.stats.requests;
    const started = performance.now();
    const wireTypes = new Map<string, string>();
    const live = (await startAccountRead(api, undefined, { wireTypes })).report();
    return { copy: copyOf(live, wireTypes), source: api.baseUrl, requests: api.stats.requests - before, ms: Math.round(performance.now() - started) };
  } finally {
    await api.close();
  }
}
