/**
 * The account read for `monsync emulator --clone-from URL`: the context's one reader of the account
 * (src/plan/read-live.ts through here, as every read is), keeping each monitor's type as the original
 * sent it, and its copy for the replica (src/ops/clone.ts). GET requests only.
 */
import type { MonitoringApi } from '../api/types.js';
import type { AccountCopy } from '../ops/clone.js';

export interface CopyRead {
  copy: AccountCopy;
  /** Requests the read took. */
  requests: number;
  ms: number;
}

/** Reads the account (GET requests only) and returns its copy. */
export async function readAccountCopy(api: MonitoringApi): Promise<CopyRead> {
  const [{ readLive }, { copyOf }] = await Promise.all([import('../plan/read-live.js'), import('../ops/clone.js')]);
  const before = api.stats.requests;
  const started = performance.now();
  const wireTypes = new Map<string, string>();
  const { live } = await readLive(api, { wireTypes });
  return { copy: copyOf(live, wireTypes), requests: api.stats.requests - before, ms: Math.round(performance.now() - started) };
}
