/**
 * The read loop of `monsync exporter`: one account read per interval, never per scrape. A failed
 * read keeps the last values (`monsync_up 0`) and the next one comes later and later (twice the
 * wait after each failure, at most ten intervals), back to the interval after a success. The loop
 * never ends of the service: only its signal (SIGTERM, Ctrl-C) ends it, at once, even mid-wait. A
 * wake (SIGHUP) reads at once instead of waiting out the interval.
 * What it logs is one line per change of state (first read, failure, recovery), through `log`.
 */
import type { AccountSample, ExporterMetrics } from './metrics.js';

export interface ReadLoopOptions {
  intervalMs: number;
  metrics: ExporterMetrics;
  /** The account's name when accounts are declared (label and log prefix). */
  account?: string;
  /** One read of the account; its rejection is a failed read (its message goes to the log). */
  read: (signal: AbortSignal) => Promise<AccountSample>;
  log: (line: string) => void;
  /** How a failure is told in the log (redacted, one line); default its message. */
  describe?: (err: unknown) => string;
  signal: AbortSignal;
  /** Told after each read, success or not (tests wait on it). */
  onRead?: (ok: boolean) => void;
  /**
   * Subscribes to "read now" (SIGHUP): the wait in progress ends, or the next one is skipped when
   * the call comes during a read. Returns the unsubscribe.
   */
  wake?: (listener: () => void) => () => void;
}

export const MAX_BACKOFF_INTERVALS = 10;

/** The wait after `failures` failed reads in a row. */
export function waitAfter(intervalMs: number, failures: number): number {
  if (failures === 0) return intervalMs;
  return Math.min(intervalMs * 2 ** (failures - 1), intervalMs * MAX_BACKOFF_INTERVALS);
}

const ABORTED = Symbol('aborted');

/**
 * The read, or ABORTED as soon as the signal aborts: a read of a large account takes seconds, and
 * SIGTERM must not wait for it (the runner then destroys the client, which fails the read; that
 * failure is nobody's to report).
 */
function untilAborted<T>(read: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    read.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      read.catch(() => undefined);
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    read.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

/** Runs until `signal` aborts, at once even mid-read; resolves then (never rejects on a read's failure). */
export async function runReadLoop(opts: ReadLoopOptions): Promise<void> {
  const who = opts.account !== undefined ? `account ${opts.account}: ` : '';
  const describe = opts.describe ?? ((err: unknown) => (err instanceof Error ? err.message : String(err)));
  let failures = 0;
  let everRead = false;
  let woken = false;
  let endWait: (() => void) | null = null;
  const unsubscribe = opts.wake?.(() => {
    if (endWait) endWait();
    else woken = true;
  });
  opts.metrics.declareAccount(opts.account);
  try {
    await readUntilAborted();
  } finally {
    unsubscribe?.();
  }

  async function readUntilAborted(): Promise<void> {
    while (!opts.signal.aborted) {
      let ok = false;
      try {
        const sample = await untilAborted(opts.read(opts.signal), opts.signal);
        if (sample === ABORTED) break;
        opts.metrics.readSucceeded(sample, opts.account);
        ok = true;
        if (!everRead || failures > 0) {
          opts.log(`${who}${everRead ? 'read the account again' : 'read the account'}: ${sample.monitors.length} monitors in ${sample.readSeconds.toFixed(2)} s`);
        }
        everRead = true;
        failures = 0;
      } catch (err) {
        if (opts.signal.aborted) break;
        opts.metrics.readFailed(opts.account);
        failures++;
        opts.log(`${who}the read failed (${failures} in a row), keeping the last values; next try in ${Math.round(waitAfter(opts.intervalMs, failures) / 1000)} s: ${describe(err)}`);
      }
      opts.onRead?.(ok);
      if (woken) woken = false;
      else await wait(waitAfter(opts.intervalMs, failures));
    }
  }

  /** Until `ms` pass, the signal aborts or a wake comes. */
  function wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        opts.signal.removeEventListener('abort', done);
        endWait = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      opts.signal.addEventListener('abort', done, { once: true });
      endWait = done;
    });
  }
}
