/**
 * Terminal-safe text. Labels, subjects, bodies and addresses come from YAML anyone may send in a pull
 * request, or from the service: before they reach a terminal or a Markdown comment, every character
 * that acts on a terminal or on text direction is shown as a visible `\uXXXX` escape, so it cannot
 * move the cursor, recolour the screen or reorder what a reviewer reads ("Trojan Source").
 */

// C0 and C1 controls (but tab and newline), DEL, line/paragraph separators, bidi embeddings,
// overrides and isolates, zero-width joiners and the BOM.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

const hex4 = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Replaces characters that act on a terminal or on text direction with visible `\uXXXX` escapes; tab and newline stay. */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, hex4);
}

/** A string as a double-quoted literal, with every unsafe character escaped (newlines and tabs as `\n`, `\t`). */
export function quote(text: string): string {
  return escapeControl(JSON.stringify(text));
}
