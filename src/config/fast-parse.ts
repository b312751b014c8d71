/**
 * A fast path for the YAML most configurations are made of: block mappings and lists, one-line
 * plain and double-quoted scalars, one-line flow lists and mappings of scalars, full-line
 * comments. It gives the same data as the `yaml` library and the same positions as the Locator,
 * without building a document (the library's parse was most of the load time and memory of a
 * large configuration). Anything outside that subset (anchors, tags, block scalars, multi-line
 * values, trailing comments, `${`, empty values, duplicate or unusual keys...) makes it give up,
 * and the file takes the full path, which also produces every diagnostic.
 */
import { PositionIndex, type Entry } from './positions.js';

/** Half of parse.ts's MAX_DEPTH (flow collections add a level): deeper files get the full path's diagnostic. */
const MAX_FAST_DEPTH = 32;


class GiveUp extends Error {}
const giveUp = (): never => {
  throw new GiveUp();
};

const KEY = /[A-Za-z_][A-Za-z0-9_-]*:(?=[ \n]|$)/y;
/** JSON's escapes mean the same in YAML double-quoted scalars; YAML's others are left to the library. */
const DOUBLE_QUOTED = /"(?:[^"\\\x00-\x1f\x7f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
/** Scalars the core schema reads as something other than a string (and keys it would not keep as text). */
const SPECIAL: Record<string, boolean | null> = {
  true: true, True: true, TRUE: true, false: false, False: false, FALSE: false,
  null: null, Null: null, NULL: null, '~': null,
};
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);
/** Characters that start something other than a plain scalar, or make its reading depend on context. */
const INDICATOR = /^[-?:,[\]{}#&*!|>'"%@`<]/;
const PLAIN_FLOW = /^[^,[\]{}#:"'\x00-\x1f\x7f]+$/;

function plainValue(raw: string, flow: boolean): unknown {
  if (raw === '' || INDICATOR.test(raw) || raw.includes('${')) giveUp();
  if (flow ? !PLAIN_FLOW.test(raw) : /: |:$| #|[\x00-\x1f\x7f]/.test(raw)) giveUp();
  if (Object.hasOwn(SPECIAL, raw)) return SPECIAL[raw];
  if (/^[-+.0-9]/.test(raw)) {
    if (/^(0|[1-9][0-9]{0,14})$/.test(raw)) return Number(raw);
    giveUp();
  }
  return raw;
}

export function fastParse(text: string, file: string): { data: Record<string, unknown>; positions: PositionIndex } | undefined {
  // Tabs, CRs, control and other non-printable characters, and interpolation are the full path's.
  if (/[\x00-\x09\x0b-\x1f\x7f-\x84\x86-\x9f\ufeff\ufffe\uffff]/.test(text) || text.includes('${')) return undefined;
  const lineStarts: number[] = [];
  // The lines with content, as three arrays of small integers (no object per line):
  // the offset of the first character after the indentation (after a `- ` once one was consumed),
  // its column (the indentation the content has), and the offset of the line's end.
  const lineAt: number[] = [];
  const lineIndent: number[] = [];
  const lineEnd: number[] = [];
  for (let start = 0; start <= text.length; ) {
    lineStarts.push(start);
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    let at = start;
    while (at < end && text.charCodeAt(at) === 32) at++;
    const first = text[at];
    if (at < end && first !== '#') {
      // Directives and document markers are the library's business.
      if (at === start && (first === '%' || text.startsWith('---', at) || text.startsWith('...', at))) return undefined;
      lineAt.push(at);
      lineIndent.push(at - start);
      lineEnd.push(end);
    }
    if (end === text.length) break;
    start = end + 1;
  }
  const count = lineAt.length;
  if (count === 0 || lineIndent[0] !== 0) return undefined;

  let li = 0;

  /** The scalar or flow collection at `pos`, which must end its line. */
  const inline = (pos: number, end: number): { value: unknown; entry: Entry } => {
    const c = text[pos];
    let value: unknown;
    let below: Entry['below'];
    let after: number;
    if (c === '"') {
      ({ value, after } = quoted(pos));
    } else if (c === '[' || c === '{') {
      ({ value, below, after } = flow(pos, end, c === '['));
    } else {
      const raw = text.slice(pos, end).replace(/ +$/, '');
      value = plainValue(raw, false);
      after = pos + raw.length;
    }
    while (after < end && text.charCodeAt(after) === 32) after++;
    if (after !== end) giveUp();
    return { value, entry: { v: pos, k: pos, below } };
  };

  const quoted = (pos: number): { value: string; after: number } => {
    // Most quoted values have no escapes: the text between the quotes is the value.
    const close = text.indexOf('"', pos + 1);
    const newline = text.indexOf('\n', pos + 1);
    if (close > pos && (newline < 0 || close < newline)) {
      const value = text.slice(pos + 1, close);
      if (!value.includes('\\')) return { value, after: close + 1 };
    }
    DOUBLE_QUOTED.lastIndex = pos;
    const m = DOUBLE_QUOTED.exec(text);
    if (!m) return giveUp();
    return { value: JSON.parse(m[0]) as string, after: pos + m[0].length };
  };

  const flow = (open: number, end: number, isSeq: boolean): { value: unknown; below: Entry['below']; after: number } => {
    const close = isSeq ? ']' : '}';
    const items: unknown[] = [];
    const map: Record<string, unknown> = {};
    const entries: Entry[] = [];
    const keys = new Map<string, Entry>();
    let pos = open + 1;
    const skip = () => {
      while (pos < end && text.charCodeAt(pos) === 32) pos++;
    };
    const scalar = (): { value: unknown; start: number } => {
      skip();
      const start = pos;
      if (text[pos] === '"') {
        const q = quoted(pos);
        pos = q.after;
        return { value: q.value, start };
      }
      while (pos < end && text[pos] !== ',' && text[pos] !== close && text[pos] !== ':') pos++;
      return { value: plainValue(text.slice(start, pos).replace(/ +$/, ''), true), start };
    };
    skip();
    if (text[pos] !== close) {
      for (;;) {
        if (isSeq) {
          const item = scalar();
          items.push(item.value);
          entries.push({ v: item.start, k: item.start, below: undefined });
        } else {
          skip();
          const keyStart = pos;
          const m = /^([A-Za-z_][A-Za-z0-9_-]*): /.exec(text.slice(pos, end));
          if (!m) giveUp();
          const key = m![1]!;
          if (Object.hasOwn(SPECIAL, key) || FORBIDDEN_KEYS.has(key) || keys.has(key)) giveUp();
          pos += key.length + 1;
          const item = scalar();
          map[key] = item.value;
          keys.set(key, { v: item.start, k: keyStart, below: undefined });
        }
        skip();
        if (text[pos] === ',') {
          pos++;
          skip();
          if (text[pos] === close) giveUp();
          continue;
        }
        if (text[pos] === close) break;
        giveUp();
      }
    }
    return { value: isSeq ? items : map, below: isSeq ? entries : keys, after: pos + 1 };
  };

  /** The block collection starting at line `li` with content at `indent`. */
  const block = (indent: number, depth: number): { value: unknown; entry: Entry } => {
    if (depth >= MAX_FAST_DEPTH) giveUp();
    return text[lineAt[li]!] === '-' ? blockSeq(indent, depth) : blockMap(indent, depth);
  };

  /** After a value that ends its line: the next line must not continue it. */
  const endOfValue = (indent: number) => {
    li++;
    if (li < count && lineIndent[li]! > indent) giveUp();
  };

  const blockMap = (indent: number, depth: number): { value: unknown; entry: Entry } => {
    const start = lineAt[li]!;
    const data: Record<string, unknown> = {};
    const keys = new Map<string, Entry>();
    while (li < count) {
      const at = lineAt[li]!;
      const end = lineEnd[li]!;
      if (lineIndent[li]! < indent) break;
      if (lineIndent[li]! > indent || text[at] === '-') giveUp();
      KEY.lastIndex = at;
      const m = KEY.exec(text);
      if (!m || m.index !== at) return giveUp();
      const key = m[0].slice(0, -1);
      if (key.length > 1000 || Object.hasOwn(SPECIAL, key) || FORBIDDEN_KEYS.has(key) || keys.has(key)) giveUp();
      let pos = at + m[0].length;
      while (pos < end && text.charCodeAt(pos) === 32) pos++;
      if (pos < end) {
        const { value, entry } = inline(pos, end);
        data[key] = value;
        entry.k = at;
        keys.set(key, entry);
        endOfValue(indent);
        continue;
      }
      li++;
      // An empty value (or a list at the key's own indentation) is left to the library.
      if (li >= count || lineIndent[li]! <= indent) giveUp();
      const { value, entry } = block(lineIndent[li]!, depth + 1);
      data[key] = value;
      entry.k = at;
      keys.set(key, entry);
    }
    return { value: data, entry: { v: start, k: start, below: keys } };
  };

  const blockSeq = (indent: number, depth: number): { value: unknown; entry: Entry } => {
    const start = lineAt[li]!;
    const items: unknown[] = [];
    const entries: Entry[] = [];
    while (li < count) {
      const at = lineAt[li]!;
      const end = lineEnd[li]!;
      if (lineIndent[li]! < indent) break;
      if (lineIndent[li]! > indent || text[at] !== '-' || text[at + 1] !== ' ') giveUp();
      let pos = at + 1;
      while (pos < end && text.charCodeAt(pos) === 32) pos++;
      if (pos === end || text[pos] === '-') giveUp();
      KEY.lastIndex = pos;
      const m = KEY.exec(text);
      if (m && m.index === pos) {
        // `- key: value`: a mapping whose keys line up with this one.
        const itemIndent = pos - (at - lineIndent[li]!);
        lineAt[li] = pos;
        lineIndent[li] = itemIndent;
        const { value, entry } = blockMap(itemIndent, depth + 1);
        items.push(value);
        entries.push(entry);
        continue;
      }
      const { value, entry } = inline(pos, end);
      items.push(value);
      entries.push(entry);
      endOfValue(indent);
    }
    return { value: items, entry: { v: start, k: start, below: entries } };
  };

  try {
    const first = text[lineAt[0]!];
    if (first === '-' || first === '[' || first === '{') return undefined;
    const { value, entry } = blockMap(0, 0);
    if (li !== count) return undefined;
    return { data: value as Record<string, unknown>, positions: PositionIndex.fromEntries(file, lineStarts, entry) };
  } catch (err) {
    if (err instanceof GiveUp) return undefined;
    throw err;
  }
}
