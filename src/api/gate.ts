/**
 * The shared hold-back of a client: a 429 from the service closes the gate for its Retry-After,
 * and every request of the client (not only the one that got the 429) waits for it to open before
 * it is sent. This is the AWS SDK's adaptive retry idea in its simplest form: the service said
 * "slow down" to the client, so the client as a whole slows down, instead of its other requests
 * running into the same limit one by one.
 */
export class RateGate {
  private openAt = 0;

  /** @param now monotonic clock in milliseconds */
  constructor(private readonly now: () => number) {}

  /** Holds every request back for `ms` from now (never shortens a longer hold already running). */
  hold(ms: number): void {
    this.openAt = Math.max(this.openAt, this.now() + Math.max(0, ms));
  }

  /** When the gate opens, on the clock given; changes only when a hold is set. */
  get until(): number {
    return this.openAt;
  }

  /** Milliseconds until the gate opens; 0 when open. */
  remaining(): number {
    return Math.max(0, Math.ceil(this.openAt - this.now()));
  }

  /**
   * Waits until the gate is open, with `wait` (which may throw: the caller's deadline or abort). A
   * hold set while waiting is waited for too; `wait` is trusted to last as long as asked, so a fake
   * that returns at once ends the wait instead of spinning.
   */
  async pass(wait: (ms: number) => Promise<void>): Promise<void> {
    let waitedFor = -1;
    while (this.remaining() > 0 && this.openAt !== waitedFor) {
      waitedFor = this.openAt;
      await wait(this.remaining());
    }
  }
}
