/**
 * Small pure helpers shared by the operator-command renderers (status, paused, data, drill).
 * Labels, subjects and addresses come from the service: they are escaped so they cannot move the
 * cursor, recolour the terminal or reorder text.
 */
import { escapeControl } from '../util/safe-text.js';

/** Free text on one line of a table: unsafe characters escaped, a tab a space, a newline `\n`. */
export function safe(text: string): string {
  return escapeControl(text).replace(/\t/g, ' ').replace(/\n/g, '\\n');
}

/** A subject or other free text, double-quoted and escaped. */
export function quoted(text: string): string {
  return safe(JSON.stringify(text));
}

const pad2 = (n: number): string => String(n).padStart(2, '0');

/** `14:05 UTC`, or `2024-06-03 14:05 UTC` when not on the same UTC day as `nowMs`. */
export function clockTime(ms: number, nowMs: number): string {
  const d = new Date(ms);
  const hm = `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())} UTC`;
  const sameDay = new Date(nowMs).toISOString().slice(0, 10) === d.toISOString().slice(0, 10);
  return sameDay ? hm : `${d.toISOString().slice(0, 10)} ${hm}`;
}

/** `2024-06-03 14:05 UTC`. */
export function utcMinute(ms: number): string {
  const iso = new Date(ms).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/** Response times are milliseconds on the wire (API 2.8): `812 ms`, `2.31 s`. */
export function formatMs(value: number): string {
  if (Math.abs(value) < 1000) return `${Math.round(value)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}

/**
 * Left-aligned columns separated by two spaces. `paint` colours a cell after padding, so escape
 * codes never upset the alignment.
 */
export function table(
  rows: readonly (readonly string[])[],
  paint: (text: string, row: number, col: number) => string = (t) => t,
): string[] {
  const widths: number[] = [];
  for (const r of rows) r.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, [...cell].length)));
  return rows.map((r, ri) =>
    r
      .map((cell, ci) => {
        const padded = ci === r.length - 1 ? cell : cell + ' '.repeat((widths[ci] ?? 0) - [...cell].length);
        return paint(padded, ri, ci);
      })
      .join('  ')
      .trimEnd(),
  );
}
