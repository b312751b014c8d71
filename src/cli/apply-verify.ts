/**
 * `apply --verify`'s part of the apply runner: after the changes, wait for the first round trip of
 * each monitor apply created or changed (src/mailpath/verify.ts) and print one line each. Returns
 * how many did not complete. The wait between polls is real time (MONSYNC_VERIFY_POLL_MS, 15 s by
 * default); how long to wait is the service's time, so tests move the emulator's clock instead.
 */
import type { ApplyResult, MonitoringApi } from '../workflow/apply.js';
import type { Monitor } from '../model/live.js';
import { UsageError } from '../util/errors.js';
import { plural } from '../util/plural.js';
import type { CommandIo } from './output.js';

export const VERIFY_POLL_ENV = 'MONSYNC_VERIFY_POLL_MS';

export async function verifyApplied(result: ApplyResult, api: MonitoringApi, io: CommandIo): Promise<number> {
  const { verifyRoundTrips, DEFAULT_VERIFY_POLL_MS } = await import('../mailpath/verify.js');
  const { renderVerifyLine, renderVerifySummary } = await import('../render/mailpath.js');
  const raw = io.env[VERIFY_POLL_ENV];
  const pollMs = raw === undefined || raw === '' ? DEFAULT_VERIFY_POLL_MS : Number(raw);
  if (!Number.isFinite(pollMs) || pollMs < 1) throw new UsageError(`${VERIFY_POLL_ENV} must be milliseconds (a number of at least 1), got "${raw}"`);
  const targets = result.results
    .filter((r) => r.kind === 'monitor' && r.action !== 'delete' && r.status === 'done' && r.id !== null)
    .map((r) => {
      const live = r.live as Monitor | undefined;
      return { id: r.id!, label: r.key, timer: live?.timer ?? 5, ttl: live?.ttl ?? null };
    });
  if (targets.length === 0) {
    io.out('Verify: no monitor was created or changed; nothing to wait for.\n');
    return 0;
  }
  const longest = Math.max(...targets.map((t) => t.timer));
  io.out(`\nVerifying the first round trip of ${plural(targets.length, 'monitor')} (each test starts within its timer, up to ${longest} min, then waits for its reply)…\n`);
  const results = await verifyRoundTrips(api, targets, {
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    pollMs,
    onResult: (r) => io.out(`${renderVerifyLine(r, { color: io.color })}\n`),
  });
  io.out(`${renderVerifySummary(results)}\n`);
  return results.filter((r) => r.status !== 'completed').length;
}
