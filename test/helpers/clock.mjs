/**
 * Preloaded (`node --import`) into a CLI process a test starts, when the test must decide what the
 * wall clock reads: TEST_CLOCK_MS (ms since the epoch) is the time at the process's start, and the
 * clock runs on from there. Two runs given one reading of the test's clock print the same "plan
 * made" minute however long the machine takes between them (issue 34), where two readings could
 * fall either side of a minute. Only `Date` moves; timers and performance.now() are untouched.
 */
const start = Number(process.env.TEST_CLOCK_MS);
if (process.env.TEST_CLOCK_MS && Number.isFinite(start)) {
  const RealDate = Date;
  const shift = start - RealDate.now();
  class TestDate extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + shift);
      else super(...args);
    }
    static now() {
      return RealDate.now() + shift;
    }
  }
  globalThis.Date = TestDate;
}
