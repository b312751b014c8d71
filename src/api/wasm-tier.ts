/**
 * undici reads HTTP with llhttp compiled to WebAssembly, at its first connection. V8 compiles it
 * with its baseline compiler (Liftoff) and then, once the parser's one large function has run a
 * while, again with its optimising compiler (TurboFan) on a background thread. That second compile
 * was the largest single cost of a plan (measured, issue 20: 0.3-0.5 s of a background thread and
 * 42 MB of compiler memory on every plan, small or large; about 11% of a 5,000-monitor plan's CPU
 * time and 35 MB of its peak memory) and bought nothing measurable: the parser only reads status
 * lines, headers and chunk framing, the bodies pass through it untouched.
 *
 * `--liftoff-only` keeps the baseline code; monsync runs no other WebAssembly. Two cautions:
 * - A V8 flag changed at run time changes the hash V8 checks code caches against, so a built-in
 *   Node module loaded afterwards compiles from its source (about twice its load time): the flag
 *   is set once undici and the built-ins it needs are loaded (the transport module's body).
 * - V8 reports an unknown flag on stderr itself: the flag is set only on the Node versions whose
 *   V8 is known to have it (20 to 24), elsewhere nothing changes.
 */
import { setFlagsFromString } from 'node:v8';

/** The flag for a Node version, or null where its V8 is not known to have it. */
export function baselineWasmFlag(nodeVersion: string): string | null {
  const major = Number(nodeVersion.split('.')[0]);
  return major >= 20 && major <= 24 ? '--liftoff-only' : null;
}

let settled = false;

/** Keeps WebAssembly compiled later in this process at V8's baseline tier (once per process). */
export function keepWasmAtBaseline(): void {
  if (settled) return;
  settled = true;
  const flag = baselineWasmFlag(process.versions.node);
  if (flag) setFlagsFromString(flag);
}
