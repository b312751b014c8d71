/**
 * `apply --verify`'s part of the apply workflow: after the changes, wait for the first round trip of
 * each monitor apply created or changed (src/mailpath/verify.ts), telling each result as an event.
 * Returns how many did not complete. The wait between polls is real time (`pollMs`); how long to
 * wait is the service's time, so tests move the emulator's clock instead.
 */
import type { ApplyResult } from '../apply/execute.js';
import type { MonitoringApi } from '../api/types.js';
import type { Monitor } from '../model/live.js';
import type { Events } from './events.js';

export interface VerifyOptions {
  /** Real milliseconds between two reads of a monitor's data. */
  pollMs: number;
  /** How a poll waits (tests move the emulator's clock instead). */
  sleep?: (ms: number) => Promise<void>;
}

export async function verifyApplied(result: ApplyResult, api: MonitoringApi, opts: VerifyOptions, events: Events): Promise<number> {
  const { verifyRoundTrips } = await import('../mailpath/verify.js');
  const targets = result.results
    .filter((r) => r.kind === 'monitor' && r.action !== 'delete' && r.status === 'done' && r.id !== null)
    .map((r) => {
      const live = r.live as Monitor | undefined;
      return { id: r.id!, label: r.key, timer: live?.timer ?? 5, ttl: live?.ttl ?? null };
    });
  events({ kind: 'verify-start', monitors: targets.length, longestTimer: Math.max(0, ...targets.map((t) => t.timer)) });
  if (targets.length === 0) return 0;
  const results = await verifyRoundTrips(api, targets, {
    sleep: opts.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    pollMs: opts.pollMs,
    onResult: (r) => events({ kind: 'verify-result', result: r }),
  });
  events({ kind: 'verify-done', results });
  return results.filter((r) => r.status !== 'completed').length;
}
