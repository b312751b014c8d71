/**
 * The emulator's notion of "now": real time plus an offset that the control API can move. Pauses,
 * token expiry and data defaults all read this clock, so tests advance it instead of sleeping.
 */
export class EmulatorClock {
  private offsetMs: number;

  constructor(offsetMs = 0) {
    this.offsetMs = offsetMs;
  }

  nowMs(): number {
    return Date.now() + this.offsetMs;
  }

  /** Unix seconds, as the API speaks them. */
  nowSeconds(): number {
    return Math.floor(this.nowMs() / 1000);
  }

  advance(seconds: number): void {
    this.offsetMs += Math.round(seconds * 1000);
  }

  /** Jump to an absolute unix time (seconds); real time keeps running from there. */
  set(unixSeconds: number): void {
    this.offsetMs = Math.round(unixSeconds * 1000) - Date.now();
  }

  get offset(): number {
    return this.offsetMs;
  }

  reset(offsetMs = 0): void {
    this.offsetMs = offsetMs;
  }
}
