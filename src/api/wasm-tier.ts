/**
 * undici reads HTTP with llhttp compiled to WebAssembly, at its first connection. V8 compiles it with
 * its baseline compiler (Liftoff) and then, once the parser's one large function has run a while,
 * again with its optimising compiler (TurboFan) on a background thread; the parser only reads status
 * lines, headers and chunk framing, so the second compile buys nothing measurable. `--liftoff-only`
 * keeps the baseline code; monsync runs no other WebAssembly.
 *
 * Set only where it gains at least 10% on a figure a user sees (issue 43; docs/performance.md, "Node
 * lines 22, 24 and 26"): a plan of 2,000 monitors on Node 22.23.5 runs 14.8% fewer instructions with it
 * (callgrind, 2.62 -> 2.23 billion) and a plan of 5,000 10-13% less CPU; on 24.22.3 and 26.12.1 2.0%
 * fewer instructions and no CPU gain beyond the noise, so nothing is set there. Node 20 (end of life,
 * still running) gained the same as 22 when it was measured (issue 20).
 *
 * A V8 flag changed at run time changes the hash V8 checks code caches against, so a built-in Node
 * module loaded afterwards compiles from its source: the flag is set once undici and the built-ins it
 * needs are loaded (the transport module's body); a command that never loads the transport
 * (`validate`) keeps V8's defaults.
 */
import { setFlagsFromString } from 'node:v8';

/** The flag for a Node version, or null where it does not earn its place (or its V8 lacks it). */
export function baselineWasmFlag(nodeVersion: string): string | null {
  const major = Number(nodeVersion.split('.')[0]);
  return major === 20 || major === 22 ? '--liftoff-only' : null;
}

let settled = false;

/** Keeps WebAssembly compiled later in this process at V8's baseline tier, where that gains (once per process). */
export function settleTiering(): void {
  if (settled) return;
  settled = true;
  const flag = baselineWasmFlag(process.versions.node);
  if (flag) setFlagsFromString(flag);
}
