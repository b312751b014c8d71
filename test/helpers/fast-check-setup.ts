/**
 * Every fast-check property of the suite is reproducible (issue 34): vitest loads this file before
 * each test file (vitest.config.ts `setupFiles`), and it gives every `fc.assert` the same fixed seed
 * unless FC_SEED says another, and, with FC_PATH, replays one counterexample. A failure prints the
 * seed and path it ran with (fast-check's own report: `{ seed: ..., path: ... }`); rerun it with
 *   FC_SEED=<seed> FC_PATH=<path> npx vitest run <file>
 * The number of runs is each property's own `numRuns` (100 where it names none): fixed, never random.
 * No property names a seed of its own, so FC_SEED reaches them all (test/arch/properties.test.ts).
 */
import fc from 'fast-check';

/** The suite's seed, when the environment names none. */
export const DEFAULT_FC_SEED = 20261127;

function seedFrom(env: NodeJS.ProcessEnv): number {
  const text = env.FC_SEED?.trim();
  if (!text) return DEFAULT_FC_SEED;
  const seed = Number(text);
  // A typo must not quietly run another seed than the one asked for.
  if (!Number.isInteger(seed)) throw new Error(`FC_SEED must be an integer (fast-check's seed), not ${JSON.stringify(text)}`);
  return seed;
}

fc.configureGlobal({
  seed: seedFrom(process.env),
  numRuns: 100,
  ...(process.env.FC_PATH ? { path: process.env.FC_PATH } : {}),
});
