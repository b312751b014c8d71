/**
 * Terminal-safe text. Labels, subjects, bodies and addresses come from YAML anyone may send in a pull
 * request, or from the service: before they reach a terminal or a Markdown comment, every character
 * that acts on a terminal or on text direction is shown as a visible `\uXXXX` escape, so it cannot
 * move the cursor, recolour the screen or reorder what a reviewer reads ("Trojan Source").
 */

// C0 and C1 controls (but tab and newline), DEL, the Arabic letter mark, line/paragraph separators,
// bidi marks, embeddings, overrides and isolates, zero-width and invisible format characters, the
// BOM and the interlinear annotation controls.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/g;

/**
 * What `terminalSafe` keeps when monsync itself draws on a terminal: colour (SGR, `ESC[1;31m`),
 * erasing the line (`ESC[2K`), the cursor column and showing or hiding it, and a carriage return
 * before such a sequence or a newline (redrawing a live line; CRLF).
 */
// eslint-disable-next-line no-control-regex
const OWN_SEQUENCE = /\r(?=\u001b\[|\n)|\u001b\[[0-9;]*[mKG]|\u001b\[\?25[lh]/y;

const hex4 = (ch: string): string => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Replaces characters that act on a terminal or on text direction with visible `\uXXXX` escapes; tab and newline stay. */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, hex4);
}

/**
 * Every line monsync prints, at the last moment (the command runners' writers, the error report of
 * `main`): unsafe characters escaped as `escapeControl` does, so text from a configuration or the
 * service that reached a message unquoted still cannot act on the terminal. With `sequences`
 * (a terminal, or colour asked for), monsync's own drawing sequences (OWN_SEQUENCE) stay; a hostile
 * text can then at most recolour, never move the cursor or reorder a line. Without, every ESC is
 * escaped: monsync writes none to a pipe or file without colour.
 */
export function terminalSafe(text: string, opts: { sequences?: boolean } = {}): string {
  return text.replace(UNSAFE, (ch, offset: number) => {
    if (opts.sequences && (ch === '\u001b' || ch === '\r')) {
      OWN_SEQUENCE.lastIndex = offset;
      if (OWN_SEQUENCE.test(text)) return ch;
    }
    return hex4(ch);
  });
}

/** A string as a double-quoted literal, with every unsafe character escaped (newlines and tabs as `\n`, `\t`). */
export function quote(text: string): string {
  return escapeControl(JSON.stringify(text));
}

// What makes a file name unfit to print as it is: a line break or tab (a name could then start a
// line of its own: a Markdown heading, a fence that closes the one quoting it), or an unsafe character.
// eslint-disable-next-line no-control-regex
const UNSAFE_IN_PATH = /[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb]/;

/**
 * A file name as monsync prints it (`file:line:column`, "declared at", the plan's source column): as
 * it is when it is one plain line, else as a double-quoted literal (`quote`), so a name holding a line
 * break or a control character stays one visible token on a terminal, in a log and in a comment.
 */
export function pathText(path: string): string {
  return UNSAFE_IN_PATH.test(path) ? quote(path) : path;
}
