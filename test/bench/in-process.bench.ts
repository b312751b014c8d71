/**
 * `npm run bench:in-process`: the in-process workloads that were speed targets inside tests until
 * issue 34 (a plan of 5,000 monitors, the emulator's store at 10,000 monitors, a simulated day of
 * 2,000 monitors, the alias bomb), timed by vitest's bench (tinybench) on the very code the tests
 * check (test/bench/workloads.ts). The figures are in docs/performance.md; nothing here fails on a
 * slow machine.
 */
import { rm } from 'node:fs/promises';
import { bench, describe } from 'vitest';
import { aliasBombText, dayOfChecks, largeAccount, loadAliasBomb, planLargeAccount, storeOfThousands } from './workloads.js';

// A few timed runs after one warm-up each: every workload takes hundreds of milliseconds.
const OPTIONS = { iterations: 5, time: 0, warmupIterations: 1, warmupTime: 0 };

describe('in-process workloads (were speed targets in tests)', () => {
  const account = largeAccount(5000);
  bench('plan of 5,000 monitors, 10,000 alerts (test/plan/scale.test.ts; was < 3,000 ms)', () => {
    planLargeAccount(account);
  }, OPTIONS);

  bench('emulator store: 10,000 monitors, 20,000 alerts, list, pause, delete (test/emulator/store.test.ts; was < 10,000 + 5,000 ms)', () => {
    storeOfThousands();
  }, OPTIONS);

  bench('emulator: a day of minute checks for 2,000 alerting monitors (test/emulator/simulation.test.ts; was < 15,000 + 5,000 ms)', () => {
    dayOfChecks();
  }, OPTIONS);

  bench(`alias bomb, ${aliasBombText().length} bytes, refused (test/config/hostile.test.ts; was < 5,000 ms)`, async () => {
    const { dir } = await loadAliasBomb();
    await rm(dir, { recursive: true, force: true });
  }, OPTIONS);
});
