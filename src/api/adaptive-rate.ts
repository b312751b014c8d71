/**
 * The client's sending rate, learnt from the service's 429s and shared by every request of the
 * client. The AWS SDKs' "adaptive" retry mode is the model (their client-side rate limiter:
 * botocore `retries/adaptive.py` and `ratelimit.py`, the JS SDK's `DefaultRateLimiter`):
 *
 * - Until the first 429 there is no limit: a service that never says "slow down" is used as fast
 *   as the client's parallelism allows (`delay` answers 0). Nor after it when the client has had
 *   too few answers to measure a rate by (MIN_ANSWERS in the last second): the 429's hold is all.
 * - A 429 sets the rate to BETA times the rate the service was accepting, remembers that as the
 *   last maximum, and turns the limit on. Each answer that is not a 429 lets the rate creep back
 *   along a cubic (CUBIC, as TCP and the SDKs): back at the last maximum after WINDOW seconds, flat
 *   around it (where the service said no), then faster beyond it, so a limit the service raised is
 *   found again. Never above twice the measured rate of answers.
 * - Requests take tokens from a bucket filled at that rate. Tokens are reserved in order (the
 *   bucket may go below zero), so requests waiting at once are spaced evenly rather than all
 *   waking together; the bucket holds a quarter second's worth, so after a pause (a Retry-After)
 *   the client does not burst a whole second of requests into a service that just refused one.
 *
 * Where it differs from the SDKs, measured on a simulation of apply (1,000 creates, parallelism 8,
 * 50 ms per request) against a token-bucket limit, and each for a reason:
 * - The rate to cut from is what the service accepted, not what the client sent: since the last
 *   cut (answers not refused over the time since, at least a second), so a burst the service
 *   allowed after a quiet time is spread out instead of being taken for its rate; before the
 *   first cut, the answers of the last second (below). The SDKs' cut (0.7 of the rate sent) stayed above a
 *   limit of 20/s for several cuts: 87 refusals per 1,000 creates against 13 now.
 * - BETA 0.9 and a cubic relative to the last maximum (SCALE 0.005 of it per s^3) instead of 0.7
 *   and 0.4 requests/s per s^3: the SDKs' curve came back to the limit, and past it, within
 *   2-3 s at 20-100 requests/s, a 429 every few seconds; this one is back at the last maximum
 *   after 2.7 s and probes past it every 8 s (SCALE 0.02, issue 25, probed every 4-5 s: one
 *   429 per probe was most of an apply's 429s under 20 requests/s, issue 38).
 * - Before the first cut, the rate is the answers accepted in the last second, however young the
 *   run: a service's bucket lets a burst through at the start (the emulator's holds a second of
 *   its rate), and that burst scaled up from half a second (issue 25) was taken for a rate above
 *   the limit.
 * - A 429 within a second of the last cut (or two requests' time at low rates) does not cut
 *   again: that request was sent before the client knew.
 *
 * Pure bookkeeping on an injected monotonic clock (milliseconds): the transport asks `delay()`
 * before each send and reports each answer with `answered()`; tests drive it without waiting.
 */

const BETA = 0.9;
/** CUBIC's scale, relative to the last maximum: +0.5% a second past it, +4% two seconds past, +13.5% three. */
const SCALE = 0.005;
/** Seconds after a cut at which the rate is back at the last maximum: (1 - BETA) / SCALE = t^3. */
const WINDOW = Math.cbrt((1 - BETA) / SCALE);
/** Never slower than one request every two seconds. */
const MIN_RATE = 0.5;
/** The bucket holds this many seconds of the rate. */
const CAPACITY_SECONDS = 0.25;
/** The first 429 turns the rate on only after this many answers in the last second that were not refused. */
const MIN_ANSWERS = 4;
/** Answers are counted over half-second buckets for the measured rate (smoothed as the SDKs do). */
const BUCKET_MS = 500;
const SMOOTH = 0.8;

export class AdaptiveRate {
  private enabled = false;
  /** Requests per second while enabled. */
  private fillRate = 0;
  private tokens = 0;
  private capacity = 1;
  private lastRefill = -1;

  private lastMaxRate = 0;
  private lastCut = 0;
  private acceptedSinceCut = 0;

  /** When the answers of the last second that were not refused came (ms), oldest first. */
  private recent: number[] = [];
  /** Answers per second (refused or not), smoothed over half-second buckets. */
  private measured = 0;
  private bucketStart = -1;
  private inBucket = 0;

  /** 429s answered, and the cuts of the rate they made. */
  readonly stats = { throttles: 0, cuts: 0 };

  constructor(private readonly now: () => number) {}

  /** The rate requests are sent at, per second; undefined while there is no limit. */
  get rate(): number | undefined {
    return this.enabled ? this.fillRate : undefined;
  }

  /** Milliseconds this request must wait before it is sent (its token reserved now). */
  delay(): number {
    if (!this.enabled) return 0;
    this.refill();
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.fillRate) * 1000);
  }

  /** An answer came; `throttled`: it was a 429. */
  answered(throttled: boolean): void {
    const t = this.now();
    this.measure(t, throttled);
    let rate: number;
    if (throttled) {
      this.stats.throttles++;
      const since = t - this.lastCut;
      if (this.enabled && since < Math.max(1000, 2000 / this.fillRate)) return;
      // Without answers to take a rate from, the 429's hold (gate.ts) is all there is to go by.
      if (!this.enabled && this.acceptedLastSecond(t) < MIN_ANSWERS) return;
      this.stats.cuts++;
      const accepted = this.enabled
        ? this.acceptedSinceCut / Math.max(since / 1000, 1)
        : this.acceptedLastSecond(t);
      this.lastMaxRate = Math.max(this.enabled ? Math.min(this.fillRate, accepted) : accepted, MIN_RATE);
      this.lastCut = t;
      this.acceptedSinceCut = 0;
      this.enabled = true;
      // Waits already reserved are dropped (those requests go back to the 429's gate and reserve
      // again); the first request after the gate opens goes at once.
      this.tokens = 1;
      this.lastRefill = t;
      rate = this.lastMaxRate * BETA;
    } else {
      if (!this.enabled) return;
      const dt = (t - this.lastCut) / 1000 - WINDOW;
      rate = this.lastMaxRate * (1 + SCALE * dt * dt * dt);
    }
    this.setRate(this.measured > 0 ? Math.min(rate, 2 * this.measured) : rate);
  }

  private refill(): void {
    const t = this.now();
    if (this.lastRefill >= 0) this.tokens = Math.min(this.capacity, this.tokens + ((t - this.lastRefill) / 1000) * this.fillRate);
    this.lastRefill = t;
  }

  private setRate(rate: number): void {
    this.refill();
    this.fillRate = Math.max(rate, MIN_RATE);
    this.capacity = Math.max(this.fillRate * CAPACITY_SECONDS, 1);
    this.tokens = Math.min(this.tokens, this.capacity);
  }

  /** Answers not refused in the last second (not scaled up when the run is younger: a start's burst is not a rate). */
  private acceptedLastSecond(t: number): number {
    let drop = 0;
    while (drop < this.recent.length && this.recent[drop]! <= t - 1000) drop++;
    if (drop > 0) this.recent.splice(0, drop);
    return this.recent.length;
  }

  private measure(t: number, throttled: boolean): void {
    if (!throttled) {
      this.acceptedSinceCut++;
      this.recent.push(t);
      if (this.recent.length > 4096) this.acceptedLastSecond(t);
    }
    if (this.bucketStart < 0) this.bucketStart = t;
    this.inBucket++;
    const elapsed = t - this.bucketStart;
    if (elapsed >= BUCKET_MS) {
      this.measured = (this.inBucket / (elapsed / 1000)) * SMOOTH + this.measured * (1 - SMOOTH);
      this.inBucket = 0;
      this.bucketStart = t;
    }
  }
}
