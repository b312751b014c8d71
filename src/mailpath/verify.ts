/**
 * `apply --verify`: after apply, the first round trip of each monitor it created or changed, as the
 * service records it (the data endpoint, API 4.8): completed in N s; no reply (the test account's
 * forwarder is the usual cause); or the error the service recorded. Reads only.
 *
 * Time is the service's: every data answer carries its `end` (now, when no end is asked for), so
 * the wait follows the service's clock (the emulator's, which tests move) and never this machine's.
 * The only real waiting is `sleep(pollMs)` between polls, injected by the caller.
 *
 * A monitor's first test after `since` (the service's time when verifying began) starts within one
 * `timer`; its reply counts within `ttl` (the longest round trip, 300 s, without one); `marginSeconds`
 * more covers the service's own delays. Past that with no result: no reply.
 *
 * Each answer passes the data rules (src/ops/data-rules.ts): a repeated test counts once, a round
 * trip no test can have (negative, not finite, over a day) is no result, and a test from before
 * `since` is not the first one; the result carries what the last answer had left out. A monitor
 * deleted while it is verified (the data endpoint answers "no such monitor") is a result of its
 * own, `deleted`, and the others go on.
 */
import { isGoneError } from '../api/gone.js';
import type { MonitoringApi } from '../api/types.js';
import { admitData, noneLeftOut, type LeftOut } from '../api/data-rules.js';

/** The longest round trip the service waits for when a monitor sets no ttl (seconds). */
export const DEFAULT_REPLY_WAIT_SECONDS = 300;
export const DEFAULT_VERIFY_MARGIN_SECONDS = 60;
/** Real time between two polls of a monitor's data (`MONSYNC_VERIFY_POLL_MS` changes it). */
export const DEFAULT_VERIFY_POLL_MS = 15_000;

export interface VerifyTarget {
  id: string;
  label: string;
  /** Minutes. */
  timer: number;
  /** Seconds; 0 or null when none. */
  ttl: number | null;
}

export type VerifyOutcome =
  | { status: 'completed'; seconds: number }
  | { status: 'no-reply'; waitedSeconds: number; error: string | null }
  | { status: 'failed'; error: string }
  | { status: 'deleted' };

/** `leftOut`: what the data rules left out of the last answer read for the monitor. */
export type VerifyResult = VerifyTarget & VerifyOutcome & { testStarted: number | null; leftOut: LeftOut };

export interface VerifyOptions {
  sleep: (ms: number) => Promise<void>;
  pollMs: number;
  marginSeconds?: number;
  concurrency?: number;
  /** Told as each monitor's result is known. */
  onResult?: (r: VerifyResult) => void;
  signal?: AbortSignal;
}

/** An error of a test that got no reply at all (as opposed to one the delivery host gave). */
const NO_REPLY = /no response|did not come back|timed out/i;

export async function verifyRoundTrips(api: MonitoringApi, targets: readonly VerifyTarget[], o: VerifyOptions): Promise<VerifyResult[]> {
  const margin = o.marginSeconds ?? DEFAULT_VERIFY_MARGIN_SECONDS;
  const queue = [...targets];
  const results = new Map<string, VerifyResult>();
  const worker = async () => {
    for (let t = queue.shift(); t; t = queue.shift()) {
      const r = await verifyOne(api, t, margin, o);
      results.set(t.id, r);
      o.onResult?.(r);
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency ?? 8, Math.max(1, targets.length)) }, worker));
  return targets.map((t) => results.get(t.id)!);
}

async function verifyOne(api: MonitoringApi, t: VerifyTarget, margin: number, o: VerifyOptions): Promise<VerifyResult> {
  try {
    return await pollFirstTest(api, t, margin, o);
  } catch (err) {
    // Deleted (by someone else) while verified: that monitor's line says so, the others go on.
    if (isGoneError(err)) return { ...t, testStarted: null, leftOut: noneLeftOut(), status: 'deleted' };
    throw err;
  }
}

async function pollFirstTest(api: MonitoringApi, t: VerifyTarget, margin: number, o: VerifyOptions): Promise<VerifyResult> {
  // The service's now: the end of a data answer that asked for none.
  const since = (await api.getMonitorData(t.id, {})).end;
  const wait = t.timer * 60 + (t.ttl && t.ttl > 0 ? t.ttl : DEFAULT_REPLY_WAIT_SECONDS) + margin;
  const deadline = since + wait;
  for (;;) {
    const data = await api.getMonitorData(t.id, { begin: since, average: 'raw' });
    const leftOut = noneLeftOut();
    const first = admitData(data.data, { from: since, to: data.end + 1 }, leftOut)[0];
    if (first) {
      const base = { ...t, testStarted: first.utc_mktime, leftOut };
      if (first.failed) {
        const error = first.error ?? 'failed without an error message';
        if (NO_REPLY.test(error)) return { ...base, status: 'no-reply', waitedSeconds: data.end - since, error };
        return { ...base, status: 'failed', error };
      }
      if (first.value !== null) return { ...base, status: 'completed', seconds: Math.round(first.value / 1000) };
      // In flight: no reply yet.
    }
    const waited = { ...t, testStarted: first?.utc_mktime ?? null, leftOut, status: 'no-reply' as const, waitedSeconds: data.end - since };
    if (data.end >= deadline) return { ...waited, error: null };
    if (o.signal?.aborted) return { ...waited, error: 'interrupted' };
    await o.sleep(o.pollMs);
  }
}
