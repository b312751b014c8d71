/**
 * undici reads HTTP with llhttp compiled to WebAssembly, at its first connection. V8 compiles it
 * with its baseline compiler (Liftoff) and then, once the parser's one large function has run a
 * while, again with its optimising compiler (TurboFan) on a background thread. That second compile
 * was the largest single cost of a plan (measured, issue 20: 0.3-0.5 s of a background thread and
 * 42 MB of compiler memory on every plan, small or large; about 11% of a 5,000-monitor plan's CPU
 * time and 35 MB of its peak memory) and bought nothing measurable: the parser only reads status
 * lines, headers and chunk framing, the bodies pass through it untouched.
 *
 * `--liftoff-only` keeps the baseline code; monsync runs no other WebAssembly.
 *
 * The same call raises V8's interrupt budget (`--interrupt-budget`, the bytecode a function runs
 * between two looks at whether to optimise it) to INTERRUPT_BUDGET, from 66 KB on Node 20 (132 KB
 * on the later ones, where it is TurboFan's and Maglev has a budget of its own). V8's default suits
 * a page that runs for hours; a monsync process runs for seconds, and its loops meet their rare
 * branches (a new day, an outage, a buffer that grows, a value that is null) only after V8 has
 * optimised them on the types seen so far: each first meeting throws the optimised code away and
 * compiles it again on a background thread. Measured on `report --since 30d` of 100 monitors
 * (2-core machine, same runs): TurboFan's compiles 280 -> 100 ms, the report's CPU 1.30 -> 1.16 s
 * (1.62x -> 1.45x of a bare client); a plan of 5,000 monitors 562 -> 486 ms of CPU, 401 -> 383 ms
 * of wall time. Code that runs long still reaches TurboFan, a few milliseconds later.
 *
 * Two cautions:
 * - A V8 flag changed at run time changes the hash V8 checks code caches against, so a built-in
 *   Node module loaded afterwards compiles from its source (about twice its load time): the flags
 *   are set once undici and the built-ins it needs are loaded (the transport module's body); a
 *   command that never loads the transport (`validate`) keeps V8's defaults.
 * - V8 reports an unknown flag on stderr itself: each flag is set only on the Node versions whose
 *   V8 has it (`node --v8-options`): `--liftoff-only` on 20 to 24, `--interrupt-budget` on 20 alone.
 */
import { setFlagsFromString } from 'node:v8';

/** The flag for a Node version, or null where its V8 is not known to have it. */
export function baselineWasmFlag(nodeVersion: string): string | null {
  const major = Number(nodeVersion.split('.')[0]);
  return major >= 20 && major <= 24 ? '--liftoff-only' : null;
}

/** Node 20's V8 is the only supported one with `--interrupt-budget` (`node --v8-options`: 22, 24 and 26 lack it and print `Error: unrecognized flag`). */
function hasInterruptBudget(nodeVersion: string): boolean {
  return Number(nodeVersion.split('.')[0]) === 20;
}

/** Bytecode a function runs between two tiering checks: about 9x Node 20's default, chosen by the measurements above (300,000 and 1,000,000 did no better). */
export const INTERRUPT_BUDGET = 600_000;

/** A budget given to node (its flags or NODE_OPTIONS), either spelling. */
const USER_BUDGET = /--interrupt[-_]budget\b/;

/**
 * Every tiering flag for a Node version, in one string (one change of V8's flag hash), or null where
 * its V8 is not known to have them. `nodeFlags` are the flags node was started with (`execArgv` and
 * NODE_OPTIONS): a budget the user gave there is theirs, and only the WebAssembly flag is set.
 */
export function tieringFlags(nodeVersion: string, nodeFlags = ''): string | null {
  const wasm = baselineWasmFlag(nodeVersion);
  if (wasm === null) return null;
  return USER_BUDGET.test(nodeFlags) || !hasInterruptBudget(nodeVersion) ? wasm : `${wasm} --interrupt-budget=${INTERRUPT_BUDGET}`;
}

let settled = false;

/**
 * Keeps WebAssembly compiled later in this process at V8's baseline tier and gives JavaScript the
 * larger interrupt budget, unless the user gave node one (once per process).
 */
export function settleTiering(): void {
  if (settled) return;
  settled = true;
  const flags = tieringFlags(process.versions.node, `${process.execArgv.join(' ')} ${process.env['NODE_OPTIONS'] ?? ''}`);
  if (flags) setFlagsFromString(flags);
}
