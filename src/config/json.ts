/**
 * JSON configuration files (`*.json`). Stage 2 for them: strict JSON (RFC 8259) in; out, either
 * the first syntax error at its position, in JSON's terms, or the text for the full path, and
 * often the file's data and positions too, exactly as the full path would give them.
 *
 * Why a scanner of our own rather than the yaml library alone (which reads JSON as YAML 1.2 flow,
 * with the same data and positions): it also accepts what is not JSON (comments, trailing commas,
 * single quotes, unquoted keys, YAML's escapes) and explains broken JSON in YAML's terms. A `.json`
 * file must stay readable by every JSON tool, and its author is told what is wrong in JSON's words.
 *
 * On a valid file it is also the JSON twin of the YAML fast path (fast/): one pass, positions in
 * integer arrays (FastPositions), no document. Generated configurations are the large ones, and
 * the full path takes about ten times as long. It hands the file to the full path whenever that
 * path would judge it differently from plain JSON: duplicate keys, keys reserved by JavaScript
 * objects, string values holding `${` (interpolation), nesting deeper than the fast path goes, or
 * a top level that is not an object. Everything the full path then reports is positioned in the
 * same text, which is valid JSON; only lone CRs (line breaks to JSON and to editors, not to the
 * yaml library) are made LFs first, for both paths.
 */
import { diag, type Diagnostic, type Position } from './diagnostics.js';
import { FastPositions, lineAt, NodeRecorder, NODE_SIZE, N_KEY, sameText } from './fast/positions.js';
import type { Positions } from './positions.js';

/** As the YAML fast path: deeper files go to the full path, whose limit and diagnostic are the loader's. */
const MAX_FAST_DEPTH = 32;

const TAB = 9;
const NL = 10;
const CR = 13;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const APOSTROPHE = 39;
const COMMA = 44;
const DASH = 45;
const SLASH = 47;
const COLON = 58;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const LBRACE = 123;
const RBRACE = 125;

/** A whole JSON string without a problem; anything else is walked to say what is wrong (badString). */
const STRING = /"(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
const NUMBER = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
/** What a reader takes for one word: a number, a literal, or something unquoted. */
const WORD = /[A-Za-z0-9_$.+-]+/y;

const COMMENTS = 'comments are not JSON; to keep comments, write the configuration as YAML (a .yaml file)';
const UNCLOSED = 'this string is not closed on its line: a JSON string ends with " before the line ends (write \\n for a line break)';
const SINGLE_QUOTES = 'JSON strings are in double quotes, not single quotes';

export type JsonScan =
  | { diagnostic: Diagnostic }
  | {
      /** The text the full path reads (lone CRs made LFs). */
      text: string;
      /** The JSON value; what the full path would give when `positions` is there. */
      data: unknown;
      /** Where each value was written, when the full path need not read the file. */
      positions?: Positions;
    };

class JsonSyntaxError extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

/** A mapping's keys are found in the text: the double-quoted key at each child's key offset. */
class JsonPositions extends FastPositions {
  constructor(
    file: string,
    text: string,
    lineStarts: Int32Array,
    nodes: Int32Array,
    slots: Int32Array,
    /** Keys written with escapes, by offset: their text is not their name. */
    private readonly escapedKeys: ReadonlyMap<number, string>,
  ) {
    super(file, text, { array: lineStarts, from: 0, count: lineStarts.length }, { array: nodes, from: 0, count: nodes.length }, { array: slots, from: 0, count: slots.length });
  }

  protected override childByKey(name: string, first: number, count: number): number {
    const { nodes, nodeFrom, slots, slotFrom, text } = this;
    for (let i = 0; i < count; i++) {
      const child = slots[slotFrom + first + i]!;
      const keyAt = nodes[nodeFrom + child * NODE_SIZE + N_KEY]!;
      const escaped = this.escapedKeys.get(keyAt);
      const same =
        escaped !== undefined
          ? escaped === name
          : text.charCodeAt(keyAt + 1 + name.length) === QUOTE && sameText(name, text, keyAt + 1);
      if (same) return child;
    }
    return -1;
  }
}

/** An object or list being read. */
interface Open {
  isObject: boolean;
  value: Record<string, unknown> | unknown[];
  /** Its node, and where its children's nodes start in the open-nodes stack. */
  id: number;
  mark: number;
  start: number;
  /** The key whose value is being read (objects). */
  key: string;
}

class Scanner extends NodeRecorder {
  private at = 0;
  readonly escapedKeys = new Map<number, string>();
  /** Set when the full path must judge the (valid) file. */
  handOver = false;

  constructor(
    private readonly text: string,
    readonly lineStarts: Int32Array,
  ) {
    super(text.length);
  }

  position(offset: number): Position {
    const line = lineAt(this.lineStarts, offset);
    return { line: line + 1, column: offset - this.lineStarts[line]! + 1 };
  }

  private skipSpace(): number {
    const text = this.text;
    let at = this.at;
    for (let c = text.charCodeAt(at); c === SPACE || c === NL || c === TAB || c === CR; c = text.charCodeAt(++at));
    this.at = at;
    return text.charCodeAt(at);
  }

  private fail(at: number, message: string): never {
    throw new JsonSyntaxError(at, message);
  }

  private isComment(at: number): boolean {
    const c = this.text.charCodeAt(at);
    const next = this.text.charCodeAt(at + 1);
    return c === HASH || (c === SLASH && (next === SLASH || next === 0x2a));
  }

  /** What stands at `at`, for "found ..." in a message. */
  private found(at: number): string {
    const text = this.text;
    if (at >= text.length) return 'the end of the file';
    const c = text.charCodeAt(at);
    if (c === QUOTE) {
      STRING.lastIndex = at;
      const whole = STRING.exec(text)?.[0];
      const shown = whole ? whole.slice(1, -1) : text.slice(at + 1, lineEnd(text, at));
      return `the string ${JSON.stringify(shown.length > 40 ? `${shown.slice(0, 40)}...` : shown)}`;
    }
    WORD.lastIndex = at;
    const word = WORD.exec(text)?.[0];
    if (word !== undefined) {
      NUMBER.lastIndex = at;
      const number = NUMBER.exec(text)?.[0];
      return number === word ? `the number ${word}` : word.length > 40 ? `${word.slice(0, 40)}...` : word;
    }
    return JSON.stringify(String.fromCodePoint(text.codePointAt(at)!));
  }

  /** Where the open object or list at `start` began, for messages about its end. */
  private opened(open: Open): string {
    const { line, column } = this.position(open.start);
    return `the ${open.isObject ? 'object' : 'list'} that starts at line ${line}, column ${column}`;
  }

  /** The string starting at `this.at` (a '"'); leaves `this.at` after it. */
  private string(): { value: string; escaped: boolean } {
    const text = this.text;
    const at = this.at;
    STRING.lastIndex = at;
    const token = STRING.exec(text)?.[0];
    if (token === undefined) this.badString(at);
    this.at = at + token.length;
    const escaped = token.includes('\\');
    return { value: escaped ? (JSON.parse(token) as string) : token.slice(1, -1), escaped };
  }

  private badString(at: number): never {
    const text = this.text;
    for (let i = at + 1; ; i++) {
      const c = text.charCodeAt(i);
      if (Number.isNaN(c) || c === NL || c === CR) this.fail(at, UNCLOSED);
      if (c === BACKSLASH) {
        const e = text.charAt(i + 1);
        if ('"\\/bfnrt'.includes(e) && e !== '') {
          i++;
          continue;
        }
        if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
          i += 5;
          continue;
        }
        if (e === '' || e === '\n' || e === '\r') this.fail(at, UNCLOSED);
        // Up to what ends the string or the line; control characters as JSON writes them.
        const written = (e === 'u' ? text.slice(i, i + 6).replace(/["\s].*$/s, '') : text.slice(i, i + 2)).replace(
          /[\x00-\x1f]/g,
          (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`,
        );
        this.fail(i, `invalid escape ${written} in a string (JSON has \\" \\\\ \\/ \\b \\f \\n \\r \\t and \\u followed by 4 hex digits)`);
      }
      if (c === TAB) this.fail(i, 'tab character inside a string: JSON writes it as \\t');
      if (c < 0x20) {
        const code = c.toString(16).padStart(4, '0');
        this.fail(i, `control character U+${code.toUpperCase()} inside a string: JSON writes it as \\u${code}`);
      }
    }
  }

  /** A number, true, false or null at `this.at`; leaves `this.at` after it. */
  private word(): unknown {
    const text = this.text;
    const at = this.at;
    WORD.lastIndex = at;
    const word = WORD.exec(text)?.[0];
    if (word === undefined) this.fail(at, `expected a value, found ${this.found(at)}`);
    this.at = at + word.length;
    if (word === 'true') return true;
    if (word === 'false') return false;
    if (word === 'null') return null;
    const c = word.charCodeAt(0);
    if (c === DASH || c === 43 || c === 46 || (c >= 48 && c <= 57)) {
      NUMBER.lastIndex = at;
      if (NUMBER.exec(text)?.[0] === word) return Number(word);
      const why = /^-?0[0-9]/.test(word)
        ? ': JSON numbers have no leading zeros'
        : word.startsWith('+')
          ? ': JSON numbers have no "+" sign'
          : ' (JSON numbers are written like 25, -1, 2.5 or 1e3)';
      this.fail(at, `invalid number ${word}${why}`);
    }
    const lower = word.toLowerCase();
    if (lower === 'true' || lower === 'false' || lower === 'null') this.fail(at, `${word} is not JSON: write ${lower}`);
    this.fail(at, `expected a value, found ${word} (JSON strings are in double quotes; its other words are true, false and null)`);
  }

  /** Expects a property name at `this.at` (after "{" or ","); leaves `this.at` after its ':'. */
  private key(open: Open): void {
    const text = this.text;
    const c = this.skipSpace();
    const at = this.at;
    if (c !== QUOTE) {
      if (this.isComment(at)) this.fail(at, COMMENTS);
      if (c === APOSTROPHE) this.fail(at, SINGLE_QUOTES);
      if (Number.isNaN(c)) this.fail(at, `the file ends before ${this.opened(open)} is closed with "}"`);
      WORD.lastIndex = at;
      const word = WORD.exec(text)?.[0];
      if (word !== undefined && !/^[0-9.+-]/.test(word)) {
        this.fail(at, `property names in JSON are in double quotes: write ${JSON.stringify(word)}`);
      }
      this.fail(at, `expected a property name in double quotes, found ${this.found(at)}`);
    }
    const { value, escaped } = this.string();
    if (escaped) this.escapedKeys.set(at, value);
    open.key = value;
    this.nodeKey = at;
    if (this.skipSpace() !== COLON) {
      if (this.isComment(this.at)) this.fail(this.at, COMMENTS);
      this.fail(this.at, `expected ":" after the property name ${JSON.stringify(value)}, found ${this.found(this.at)}`);
    }
    this.at++;
  }

  /** Where the key of the value about to be read was written (the value's own start in a list). */
  private nodeKey = -1;

  /** The whole text as one JSON value; an object unless `handOver` says the full path must judge it. */
  document(): unknown {
    const text = this.text;
    const stack: Open[] = [];
    let value: unknown;
    for (;;) {
      // A value starts here.
      const c = this.skipSpace();
      const start = this.at;
      const top = stack[stack.length - 1];
      const key = top?.isObject ? this.nodeKey : start;
      if (c === LBRACE || c === LBRACKET) {
        const isObject = c === LBRACE;
        const id = this.node(start, key);
        const open: Open = { isObject, value: isObject ? {} : [], id, mark: this.openCount, start, key: '' };
        stack.push(open);
        if (stack.length > MAX_FAST_DEPTH) this.handOver = true;
        this.at++;
        const next = this.skipSpace();
        if (next === (isObject ? RBRACE : RBRACKET)) {
          this.at++;
          this.close(id, open.mark, isObject);
          stack.pop();
          value = open.value;
        } else {
          if (isObject) this.key(open);
          else if (Number.isNaN(next)) this.fail(this.at, `the file ends before ${this.opened(open)} is closed with "]"`);
          continue;
        }
      } else {
        if (Number.isNaN(c)) this.fail(start, top ? `the file ends before ${this.opened(top)} is closed with "${top.isObject ? '}' : ']'}"` : 'the file holds no JSON value');
        if (this.isComment(start)) this.fail(start, COMMENTS);
        if (c === APOSTROPHE) this.fail(start, SINGLE_QUOTES);
        this.node(start, key);
        if (c === QUOTE) {
          value = this.string().value;
          if ((value as string).includes('${')) this.handOver = true;
        } else if (c === RBRACE || c === RBRACKET || c === COMMA || c === COLON) {
          this.fail(start, `expected a value, found ${this.found(start)}`);
        } else {
          value = this.word();
        }
      }

      // A value ended: it goes into the innermost open collection, which then goes on or ends.
      for (;;) {
        const open = stack[stack.length - 1];
        if (!open) {
          this.skipSpace();
          if (this.at < text.length) {
            if (this.isComment(this.at)) this.fail(this.at, COMMENTS);
            this.fail(this.at, `unexpected ${this.found(this.at)} after the end of the JSON value: a JSON file holds one value`);
          }
          return value;
        }
        if (open.isObject) {
          const object = open.value as Record<string, unknown>;
          const name = open.key;
          // The full path reports these, at their places.
          if (name === '__proto__' || name === 'constructor' || Object.hasOwn(object, name)) this.handOver = true;
          else object[name] = value;
        } else {
          (open.value as unknown[]).push(value);
        }
        const close = open.isObject ? RBRACE : RBRACKET;
        const c2 = this.skipSpace();
        if (c2 === COMMA) {
          const comma = this.at++;
          if (this.skipSpace() === close) this.fail(comma, `trailing comma: JSON allows no "," before "${open.isObject ? '}' : ']'}"`);
          if (open.isObject) this.key(open);
          break;
        }
        if (c2 === close) {
          this.at++;
          this.close(open.id, open.mark, open.isObject);
          stack.pop();
          value = open.value;
          continue;
        }
        if (Number.isNaN(c2)) this.fail(this.at, `the file ends before ${this.opened(open)} is closed with "${open.isObject ? '}' : ']'}"`);
        if (this.isComment(this.at)) this.fail(this.at, COMMENTS);
        const after = open.isObject ? `after the value of ${JSON.stringify(open.key)}` : 'after a list item';
        this.fail(this.at, `expected "," or "${open.isObject ? '}' : ']'}" ${after}, found ${this.found(this.at)}`);
      }
    }
  }
}

function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  const end = nl < 0 ? text.length : nl;
  return text.charCodeAt(end - 1) === CR ? end - 1 : end;
}

/** Offsets at which lines start, as yaml's LineCounter records them (after each LF). */
function lineStartsOf(text: string): Int32Array {
  let count = 1;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) count++;
  const starts = new Int32Array(count);
  let line = 1;
  for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', nl + 1)) starts[line++] = nl + 1;
  return starts;
}

/** Reads a JSON configuration file's text (see the module comment); `file` as shown to the user. */
export function scanJson(source: string, file: string): JsonScan {
  const text = source.includes('\r') ? source.replace(/\r(?!\n)/g, '\n') : source;
  const scanner = new Scanner(text, lineStartsOf(text));
  let data: unknown;
  try {
    data = scanner.document();
  } catch (err) {
    if (!(err instanceof JsonSyntaxError)) throw err;
    return { diagnostic: diag(file, scanner.position(err.at), err.message) };
  }
  if (scanner.handOver || typeof data !== 'object' || data === null || Array.isArray(data)) return { text, data };
  const positions = new JsonPositions(
    file,
    text,
    scanner.lineStarts,
    scanner.nodes.subarray(0, scanner.nodeCount * NODE_SIZE),
    scanner.slots.subarray(0, scanner.slotCount),
    scanner.escapedKeys,
  );
  return { text, data, positions };
}
