/**
 * Reading the account for a command: every list, cross-checked (a read that contradicts itself is read
 * once more, then refused; src/plan/consistency.ts), reported as progress events rather than printed.
 */
import type { MonitoringApi } from '../api/types.js';
import type { DesiredState } from '../model/desired.js';
import type { LiveState } from '../model/live.js';
import type { OnProgress } from './progress.js';

export type { OnProgress } from './progress.js';

export interface AccountRead {
  /** From the first request to the last answer read and normalised. */
  ms: number;
  /** The live state; reports the read (and a healed contradiction after it) to `onProgress`. */
  report(onProgress?: OnProgress): LiveState;
}

/**
 * The account; with a configuration, single-group reads are limited to the groups it declares.
 * `signal` (apply's, for its final check): aborted, the read stops at once, waits included.
 */
export async function readAccount(api: MonitoringApi, desired: DesiredState | null, onProgress?: OnProgress, signal?: AbortSignal): Promise<LiveState> {
  const needed = desired ? groupsNeeded(desired) : undefined;
  return (await awaitRead(api, startAccountRead(api, needed, { ...(signal && { signal }) }), onProgress)).report(onProgress);
}

/**
 * The read started earlier, its answers awaited now: tells `onProgress` which account is being read
 * first (`reading`), and `account-failed` if the read fails (the error is the caller's to report).
 */
export async function awaitRead(api: MonitoringApi, reading: Promise<AccountRead>, onProgress?: OnProgress): Promise<AccountRead> {
  onProgress?.({ kind: 'reading', url: api.baseUrl, ...(api.user !== undefined ? { user: api.user } : {}) });
  try {
    return await reading;
  } catch (err) {
    onProgress?.({ kind: 'account-failed' });
    throw err;
  }
}

/** Declared group names and their previous names: the groups whose exact membership a plan needs. */
export function groupsNeeded(desired: DesiredState): Set<string> {
  return new Set(desired.groups.flatMap((g) => [g.name, ...g.previous_names]));
}

/**
 * Starts the read at once; `needed` may be a promise, so the reads can start before the configuration is loaded.
 */
export async function startAccountRead(
  api: MonitoringApi,
  needed: ReadonlySet<string> | PromiseLike<ReadonlySet<string> | undefined> | undefined,
  opts: { signal?: AbortSignal } = {},
): Promise<AccountRead> {
  const { readLive } = await import('../plan/read-live.js');
  const before = api.stats.requests;
  const started = performance.now();
  const reading = readLive(api, { ...(needed && { groupsNeeded: needed }), ...(opts.signal && { signal: opts.signal }) });
  const { live, healed } = await reading;
  const ms = performance.now() - started;
  const requests = api.stats.requests - before;
  const warning = healed.length > 0 ? (await import('../plan/consistency.js')).healedWarning(healed) : null;
  return {
    ms,
    report(onProgress) {
      if (onProgress) {
        onProgress({
          kind: 'account',
          url: api.baseUrl,
          monitors: live.monitors.length,
          smtpMonitors: live.monitors.filter((m) => m.type === 'smtp').length,
          alerts: live.alerts.length,
          groups: live.groups.length,
          destinations: live.destinations.length,
          ms,
          requests,
        });
        // After the account line, which closes the `reading` line.
        if (warning) onProgress({ kind: 'healed', warning });
      }
      return live;
    },
  };
}
