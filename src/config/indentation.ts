/**
 * Indentation mistakes, said in the user's terms. The yaml library reports a line indented wrongly
 * in its own words ("nested mappings are not allowed in compact mappings", "implicit keys need to
 * be on a single line", "all mapping items must start at the same column", "sequence item without
 * - indicator"), often at the line before the mistake, and the rest of the file then derails it.
 *
 * `explainIndentation` takes the line a parser error points at, works out the block levels open
 * above it (keys and list items, by indentation; block scalars skipped) and, when the line fits
 * none of them, says so: "this line is indented 6 spaces; the keys above it are indented 4
 * ("timer") or 0 ("monitors")". It also gives the indentations the line may have been meant at, so
 * the caller can re-read the text with the line moved there: what the parser still finds then are
 * further mistakes, and what it no longer finds was the cascade of this one.
 *
 * The analysis is a heuristic over lines, not a YAML parser: whenever the line does fit a level
 * above (the mistake is something else), it answers undefined and the parser's words stand.
 */

/** Codes of the yaml library's errors that a wrongly indented line sets off. */
const INDENTATION_CODES = new Set(['BAD_INDENT', 'BLOCK_AS_IMPLICIT_KEY', 'MULTILINE_IMPLICIT_KEY', 'MISSING_CHAR']);

export interface ParserError {
  code: string;
  message: string;
  /** 1-based line and column where the library places the error. */
  line: number;
  column: number;
}

export interface IndentationMistake {
  /** 1-based line of the wrongly indented line, and its first character's column. */
  line: number;
  column: number;
  message: string;
  /** The indentations (in spaces) the line may have been meant at: the levels above, nearest first. */
  meant: number[];
}

interface Level {
  indent: number;
  kind: 'key' | 'item';
  /** The key's name (for keys). */
  name: string;
  /** A key whose value is on its own line (nothing after the ":"), so deeper lines may follow. */
  opens: boolean;
}

interface Line {
  indent: number;
  /** The text after the indentation. */
  body: string;
}

const contentOf = (raw: string): Line | undefined => {
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  const body = text.replace(/^ +/, '');
  if (body === '' || body.startsWith('#') || /^\s*$/.test(body)) return undefined;
  return { indent: text.length - body.length, body };
};

/** How many more brackets of flow collections `text` opens than it closes (quoted text and comments left out). */
function flowDepth(text: string): number {
  const bare = text.replace(/"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'/g, '').replace(/(^|\s)#.*$/, '');
  let depth = 0;
  for (const c of bare) {
    if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') depth--;
  }
  return depth;
}

/** `key: value` or `key:` at the start of `body`: the key and what follows the ":" (comments dropped). */
function keyOf(body: string): { name: string; rest: string } | undefined {
  const m = /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#'"[{&*!|>%@`,?:-][^#]*?|-[^\s#][^#]*?)\s*:(?:\s+|$)(.*)$/.exec(body);
  if (!m) return undefined;
  const name = m[1]!.replace(/^["']|["']$/g, '');
  return { name, rest: (m[2] ?? '').replace(/(^|\s)#.*$/, '').trim() };
}

const isItem = (body: string) => body === '-' || body.startsWith('- ');

/** The levels open at line `until` (0-based, exclusive), and whether `until` is inside a block scalar. */
function openLevels(lines: readonly string[], until: number): Level[] | undefined {
  const stack: Level[] = [];
  /** Lines indented more than this are the text of a block scalar (`|`, `>`). */
  let scalarAbove: number | undefined;
  /** Brackets of a flow collection still open: its lines open no block level. */
  let flow = 0;
  const push = (level: Level) => {
    while (stack.length > 0) {
      const top = stack[stack.length - 1]!;
      // A list may sit at its key's indentation ("monitors:\n- a"); a key there ends that list.
      if (top.indent > level.indent || (top.indent === level.indent && (top.kind === level.kind || top.kind === 'item'))) stack.pop();
      else break;
    }
    stack.push(level);
  };
  for (let i = 0; i < until; i++) {
    const line = contentOf(lines[i]!);
    if (!line) continue;
    if (flow > 0) {
      flow += flowDepth(line.body);
      continue;
    }
    if (scalarAbove !== undefined) {
      if (line.indent > scalarAbove) continue;
      scalarAbove = undefined;
    }
    let { indent, body } = line;
    // "- - a" and "- key: v": each dash is a list item, the text after it starts one column later.
    while (isItem(body)) {
      push({ indent, kind: 'item', name: '', opens: body === '-' });
      const after = body.slice(1).replace(/^ +/, '');
      if (after === '' || after.startsWith('#')) {
        body = '';
        break;
      }
      indent += body.length - after.length;
      body = after;
    }
    if (body === '') continue;
    const key = keyOf(body);
    if (!key) {
      // A plain continuation line or flow text: it opens nothing. A block scalar after a dash.
      if (/^[|>][-+0-9]*$/.test(body)) scalarAbove = indent - 1;
      continue;
    }
    const opens = key.rest === '' || /^&\S+$/.test(key.rest) || /^!\S*$/.test(key.rest);
    push({ indent, kind: 'key', name: key.name, opens });
    if (/^(?:&\S+\s+|!\S*\s+)*[|>][-+0-9]*$/.test(key.rest)) scalarAbove = indent;
    if (/^[[{]/.test(key.rest)) flow = Math.max(0, flowDepth(key.rest));
  }
  // Inside a block scalar or a flow collection indentation means something else.
  if (scalarAbove !== undefined || flow > 0) return undefined;
  return stack;
}

const spaces = (n: number) => `${n} ${n === 1 ? 'space' : 'spaces'}`;

function orList(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/** The line a parser error is about: the error's own line, or for a multi-line key the next content line. */
function culpritLine(lines: readonly string[], e: ParserError): number | undefined {
  const start = e.line - 1;
  if (e.code === 'BAD_INDENT' || e.code === 'MISSING_CHAR') return start;
  for (let i = start + 1; i < lines.length; i++) if (contentOf(lines[i]!)) return i;
  return undefined;
}

export function isIndentationError(e: Pick<ParserError, 'code' | 'message'>): boolean {
  if (!INDENTATION_CODES.has(e.code)) return false;
  // MISSING_CHAR covers other missing characters too (an unclosed flow list's "]").
  return e.code !== 'MISSING_CHAR' || /without - indicator/.test(e.message);
}

/** What is wrong with the indentation behind a parser error, or undefined when it is not (only) that. */
export function explainIndentation(lines: readonly string[], e: ParserError): IndentationMistake | undefined {
  if (!isIndentationError(e)) return undefined;
  const at = culpritLine(lines, e);
  if (at === undefined) return undefined;
  const line = contentOf(lines[at]!);
  if (!line) return undefined;
  const levels = openLevels(lines, at);
  if (!levels || levels.length === 0) return undefined;
  const n = line.indent;
  const item = isItem(line.body);
  if (!item && !keyOf(line.body)) return undefined;
  const top = levels[levels.length - 1]!;
  // Fits: deeper than a key that opens a block, or level with a key (an item) above.
  if (n > top.indent && top.opens) return undefined;
  // The nearest key (list item) above at each indentation, deepest first.
  const candidates: { indent: number; name: string }[] = [];
  for (let i = levels.length - 1; i >= 0; i--) {
    const l = levels[i]!;
    if (l.kind !== (item ? 'item' : 'key') || candidates.some((c) => c.indent === l.indent)) continue;
    candidates.push({ indent: l.indent, name: l.name });
  }
  // A list under a key may start at the key's own indentation.
  if (item && top.kind === 'key' && top.opens && !candidates.some((c) => c.indent === top.indent)) {
    candidates.unshift({ indent: top.indent, name: '' });
  }
  if (candidates.length === 0 || candidates.some((c) => c.indent === n)) return undefined;
  // Nearest first; of two as near, the deeper one (the line most likely continues what is above it).
  const meant = candidates
    .map((c) => c.indent)
    .sort((a, b) => Math.abs(a - n) - Math.abs(b - n) || b - a);
  const shown = candidates.slice(0, 3);
  const message = item
    ? `this list item is indented ${spaces(n)}; the list items above it are indented ${orList(shown.map((c) => String(c.indent)))}: line it up with the items of its list`
    : `this line is indented ${spaces(n)}; the keys above it are indented ${orList(shown.map((c) => `${c.indent} (${JSON.stringify(c.name)})`))}: line it up with the keys of its mapping`;
  return { line: at + 1, column: n + 1, message, meant };
}

/** `lines` with line `line` (1-based) moved to `indent` spaces. */
export function reindent(lines: readonly string[], line: number, indent: number, leading = /^ +/): string[] {
  const copy = lines.slice();
  copy[line - 1] = ' '.repeat(indent) + copy[line - 1]!.replace(leading, '');
  return copy;
}
