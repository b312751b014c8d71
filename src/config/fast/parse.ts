/**
 * A fast path for the YAML most configurations are made of: block mappings and lists, one-line
 * plain and double-quoted scalars, one-line flow lists and mappings of scalars, full-line
 * comments. It gives the same data as the `yaml` library and the same positions as the Locator,
 * without building a document (the library's parse was most of the load time and memory of a
 * large configuration). Anything outside that subset (anchors, tags, block scalars, multi-line
 * values, trailing comments, empty values, duplicate or unusual keys...) makes it give up, and
 * the file takes the full path, which also produces every diagnostic.
 *
 * The scanner judges how the text is written; what the full path does with values once decoded
 * (interpolation of `${`) is judged in one place after the scan, on the decoded values:
 * `"\u0024{A}"` is the value `${A}` to both paths.
 *
 * One pass over the text with charCodeAt, no line arrays, no regular expression per value. Where
 * each value was written goes into integer arrays (FastPositions) instead of an object and a Map
 * per value: a 10,000-monitor configuration has hundreds of thousands of values, and positions
 * are only read for the item sources of the state and for diagnostics.
 */
import { MAX_EXPANDED_NODES } from '../budget.js';
import type { Positions } from '../positions.js';
import { FastPositions, grown, N_COUNT, N_FIRST, NodeRecorder, NODE_SIZE, sameText } from './positions.js';

/** Half of ../parse.ts's MAX_DEPTH (flow collections add a level): deeper files get the full path's diagnostic. */
const MAX_FAST_DEPTH = 32;
/** Keys longer than this are left to the library (it stops treating them as implicit keys). */
const MAX_KEY_LENGTH = 1000;
/** Room for the distinct keys of a file (a power of two); keys beyond it are cut out each time. */
const KEY_SLOTS = 256;
const KEY_PROBES = 8;

class GiveUp extends Error {}
/** Thrown often (every file outside the subset): one instance, so no stack is captured each time. */
const GIVE_UP = new GiveUp('outside the fast path');

/** JSON's escapes mean the same in YAML double-quoted scalars; YAML's others are left to the library. */
const DOUBLE_QUOTED = /"(?:[^"\\\x00-\x1f\x7f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*"/y;
/** Scalars the core schema reads as something other than a string (and keys it would not keep as text). */
const SPECIAL: Record<string, boolean | null> = {
  true: true, True: true, TRUE: true, false: false, False: false, FALSE: false,
  null: null, Null: null, NULL: null, '~': null,
};
const SPECIAL_START = new Uint8Array(128);
for (const word of Object.keys(SPECIAL)) SPECIAL_START[word.charCodeAt(0)] = 1;

const NL = 10;
const SPACE = 32;
const QUOTE = 34;
const HASH = 35;
const PERCENT = 37;
const PLUS = 43;
const COMMA = 44;
const DASH = 45;
const DOT = 46;
const ZERO = 48;
const NINE = 57;
const COLON = 58;
const LBRACKET = 91;
const BACKSLASH = 92;
const RBRACKET = 93;
const UNDERSCORE = 95;
const LBRACE = 123;
const RBRACE = 125;
const DEL = 127;

/**
 * Tabs, CRs, control and other non-printable characters are the full path's: the library reads
 * them where they are written in ways of its own. They are looked for where the scanner takes
 * characters (scalars, comments): anywhere else, any character but those it expects makes it
 * give up anyway.
 */
const isNotFast = (c: number): boolean =>
  c < 0x20 ? c !== NL : c >= 0x7f && ((c <= 0x9f && c !== 0x85) || c === 0xfeff || c === 0xfffe || c === 0xffff);
/** The same characters, in the text of an escaped string (read by DOUBLE_QUOTED, not by the scanner). */
const NOT_FAST = /[\x00-\x09\x0b-\x1f\x7f-\x84\x86-\x9f\ufeff\ufffe\uffff]/;

/** Characters that start something other than a plain scalar, or make its reading depend on context. */
const INDICATOR = new Uint8Array(128);
for (const c of "-?:,[]{}#&*!|>'\"%@`<") INDICATOR[c.charCodeAt(0)] = 1;
/** Characters a plain scalar inside a flow collection must not contain. */
const NOT_PLAIN_FLOW = new Uint8Array(128);
for (const c of ',[]{}#:"\'') NOT_PLAIN_FLOW[c.charCodeAt(0)] = 1;
for (let c = 0; c < 0x20; c++) NOT_PLAIN_FLOW[c] = 1;
NOT_PLAIN_FLOW[DEL] = 1;

/** What a flow list has instead of the mapping a flow mapping fills: never written to. */
const NO_KEYS: Record<string, unknown> = Object.freeze({});
const AMPERSAND = 38;
const STAR = 42;
const LESS = 60;

/**
 * A collection that carries an anchor (`key: &name` above a block mapping, or `&name` before a
 * flow collection): its data, its node, and how many values it stands for with what its own
 * aliases and merges repeat (for the budget).
 */
interface Anchored {
  data: unknown;
  node: number;
  size: number;
}

/**
 * Values repeated through aliases and merge keys past which the fast path leaves a file to the
 * full path (which reads it or refuses it against MAX_EXPANDED_NODES; it counts a mapping's
 * entry as three values where this counts one).
 */
const MAX_REPEATED = MAX_EXPANDED_NODES / 4;

/** The name of an anchor or alias at `pos` (after its `&` or `*`): YAML allows more, the fast path this. */
function nameEnd(text: string, pos: number): number {
  let i = pos;
  while (isKeyChar(text.charCodeAt(i))) i++;
  return i;
}

/** A copy of a merged value: the full path builds each merge's values anew (no list shared by two monitors). */
function copyOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(copyOf);
  const out: Record<string, unknown> = {};
  for (const key in value) out[key] = copyOf((value as Record<string, unknown>)[key]);
  return out;
}

const isKeyStart = (c: number): boolean => (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === UNDERSCORE;
const isKeyChar = (c: number): boolean => isKeyStart(c) || (c >= ZERO && c <= NINE) || c === DASH;

const KEY_HASHES = new Int32Array(KEY_SLOTS);
const KEY_NAMES: (string | undefined)[] = new Array<string | undefined>(KEY_SLOTS).fill(undefined);
const KEY_ALLOWED = new Uint8Array(KEY_SLOTS);

/**
 * The arrays every scan records into, kept from file to file and grown to the largest file so far;
 * each file's positions are copied out of them at its end into one array of its size. A
 * configuration of one file per monitor reads thousands of small files, and three zeroed arrays
 * per file (each an ArrayBuffer for the garbage collector to track) were much of its cost.
 * Scans run one at a time, start to end without waiting.
 */
const SCRATCH = { nodes: new Int32Array(4096 * NODE_SIZE), slots: new Int32Array(4096), lineStarts: new Int32Array(4096) };

/**
 * The items of the lists being read, for every scan (one at a time, as SCRATCH): kept at the
 * largest size reached rather than grown again for each file. What a scan left in it stays until
 * the next overwrites it: some values of the last file, at most as many as the most items read.
 */
const ITEMS: unknown[] = [];

class Scanner extends NodeRecorder {
  /** The current content line (not blank, not a comment): where it starts, its content, its end. */
  private lineStart = 0;
  private at = 0;
  /** The content's column: after a `- ` once the item's mapping took it over. */
  private indent = 0;
  private end = 0;
  /** False once every line has been read. */
  private more = true;
  /** Where the line after the current one starts. */
  private next = 0;
  /** Where the scalar or flow collection just read ends. */
  private after = 0;

  lineStarts: Int32Array<ArrayBuffer>;
  lines = 0;
  /** Key names met so far (see keyName): open addressing on the hash of their characters. */
  private keyHash = 0;
  // Shared by every file read (a key's name is the same in each): a configuration of one file per
  // monitor read thousands of files, and these tables were most of the cost of starting each.
  private readonly keyHashes = KEY_HASHES;
  private readonly keyNames = KEY_NAMES;
  private readonly keyAllowed = KEY_ALLOWED;
  /**
   * Items of the lists being read, innermost last: each list is sliced out at its end, at its
   * size (an array grown by push keeps room for 16 or more, and most lists hold one or two).
   */
  private readonly items = ITEMS;
  private itemCount = 0;
  /**
   * Anchors met so far (only on block mappings). A merge key (`<<: *name`, one per mapping) takes
   * their entries: the data copied, the positions shared (the anchor's nodes become children of
   * the merging mapping too, after its own), as the Locator follows merge keys to the anchor.
   * Made at the first anchor, as `defining` is: most files have none, and a Map and a Set per file
   * were garbage made 10,000 times for one file per monitor.
   */
  private anchors: Map<string, Anchored> | undefined;
  /** Values repeated by aliases and merge keys so far. */
  private repeated = 0;
  /** A flow collection inside another is being read (flow). */
  private inFlow = false;
  /** Anchors whose collection is being read: an alias to one inside it is the library's (a cycle). */
  private defining: Set<string> | undefined;

  constructor(private readonly text: string) {
    super(text.length, SCRATCH);
    this.lineStarts = SCRATCH.lineStarts;
  }

  document(): Record<string, unknown> {
    this.nextLine();
    if (!this.more || this.indent !== 0) throw GIVE_UP;
    const data = this.blockMap(0, 0, this.at);
    if (this.more) throw GIVE_UP;
    return data;
  }

  /** Moves to the next content line; directives and document markers are the library's business. */
  private nextLine(): void {
    const text = this.text;
    const length = text.length;
    let start = this.next;
    while (start <= length) {
      if (this.lines === this.lineStarts.length) this.lineStarts = grown(this.lineStarts, this.lines + 1);
      this.lineStarts[this.lines++] = start;
      let end = text.indexOf('\n', start);
      if (end < 0) end = length;
      let at = start;
      while (at < end && text.charCodeAt(at) === SPACE) at++;
      if (at < end) {
        const c = text.charCodeAt(at);
        if (c === HASH) {
          for (let i = at + 1; i < end; i++) if (isNotFast(text.charCodeAt(i))) throw GIVE_UP;
        } else {
          if (at === start && (c === PERCENT || text.startsWith('---', at) || text.startsWith('...', at))) throw GIVE_UP;
          this.lineStart = start;
          this.at = at;
          this.indent = at - start;
          this.end = end;
          this.next = end + 1;
          return;
        }
      }
      if (end === length) break;
      start = end + 1;
    }
    this.more = false;
  }

  /**
   * The end of the `key:` at `at` (the offset of its ':'), or -1 when no such key starts there.
   * Leaves a hash of the key's characters in `keyHash`, for keyName.
   */
  private keyEnd(at: number): number {
    const text = this.text;
    let c = text.charCodeAt(at);
    if (!isKeyStart(c)) return -1;
    let hash = c;
    let i = at + 1;
    while (isKeyChar((c = text.charCodeAt(i)))) {
      hash = (Math.imul(hash, 31) + c) | 0;
      i++;
    }
    if (c !== COLON) return -1;
    this.keyHash = hash;
    c = text.charCodeAt(i + 1);
    return c === SPACE || c === NL || i + 1 === text.length ? i : -1;
  }

  /**
   * The key text[at, end) whose hash keyEnd just left, as a string, or undefined when it may not be
   * a key here. A configuration repeats a few dozen keys thousands of times: each is cut out of the
   * text and checked once, then the same string is taken again (no copy, no lookup in V8's table of
   * property names for each use).
   */
  private keyName(at: number, end: number): string | undefined {
    const text = this.text;
    const length = end - at;
    let slot = this.keyHash & (KEY_SLOTS - 1);
    for (let probe = 0; probe < KEY_PROBES; probe++) {
      const known = this.keyNames[slot];
      if (known === undefined) break;
      if (this.keyHashes[slot] === this.keyHash && known.length === length && sameText(known, text, at)) {
        return this.keyAllowed[slot] === 1 ? known : undefined;
      }
      slot = (slot + 1) & (KEY_SLOTS - 1);
    }
    const name = text.slice(at, end);
    const allowed = !(Object.hasOwn(SPECIAL, name) || name === '__proto__' || name === 'constructor');
    if (this.keyNames[slot] === undefined) {
      this.keyNames[slot] = name;
      this.keyHashes[slot] = this.keyHash;
      this.keyAllowed[slot] = allowed ? 1 : 0;
    }
    return allowed ? name : undefined;
  }

  /** The block collection starting at the current line with content at `indent`. */
  private block(indent: number, depth: number, key: number): unknown {
    if (depth >= MAX_FAST_DEPTH) throw GIVE_UP;
    return this.text.charCodeAt(this.at) === DASH ? this.blockSeq(indent, depth, key) : this.blockMap(indent, depth, key);
  }

  /** After a value that ends its line: the next line must not continue it. */
  private endOfValue(indent: number): void {
    this.nextLine();
    if (this.more && this.indent > indent) throw GIVE_UP;
  }

  private blockMap(indent: number, depth: number, key: number): Record<string, unknown> {
    const text = this.text;
    const id = this.node(this.at, key);
    const mark = this.openCount;
    const data: Record<string, unknown> = {};
    /** The merged mapping, and the keys written in this one (only kept once there is a merge). */
    let merged: Anchored | undefined;
    let own: Set<string> | undefined;
    while (this.more) {
      if (this.indent < indent) break;
      if (this.indent > indent) throw GIVE_UP;
      const at = this.at;
      const end = this.end;
      if (text.charCodeAt(at) === LESS) {
        if (merged) throw GIVE_UP;
        // Every key so far was written here.
        own = new Set(Object.keys(data));
        merged = this.mergeKey(at, end, data, own);
        this.endOfValue(indent);
        continue;
      }
      const colon = this.keyEnd(at);
      if (colon < 0 || colon - at > MAX_KEY_LENGTH) throw GIVE_UP;
      const name = this.keyName(at, colon);
      if (name === undefined) throw GIVE_UP;
      if (own) {
        // A key written here wins over the merged one of that name (wherever the merge key is).
        if (own.has(name)) throw GIVE_UP;
        own.add(name);
      } else if (Object.hasOwn(data, name)) throw GIVE_UP;
      let pos = colon + 1;
      while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
      if (pos < end && text.charCodeAt(pos) === AMPERSAND) {
        data[name] = this.anchored(pos, end, indent, depth, at);
        continue;
      }
      if (pos < end) {
        data[name] = this.inline(pos, end, at);
        this.endOfValue(indent);
        continue;
      }
      this.nextLine();
      // An empty value (or a list at the key's own indentation) is left to the library.
      if (!this.more || this.indent <= indent) throw GIVE_UP;
      data[name] = this.block(this.indent, depth + 1, at);
    }
    if (merged) {
      // The anchor's entries follow this mapping's own: a key is looked up in its own entries first.
      const at = merged.node * NODE_SIZE;
      const first = this.nodes[at + N_FIRST]!;
      const count = ~this.nodes[at + N_COUNT]!;
      for (let i = 0; i < count; i++) {
        if (this.openCount === this.open.length) this.open = grown(this.open, this.openCount + 1);
        this.open[this.openCount++] = this.slots[first + i]!;
      }
    }
    this.close(id, mark, true);
    return data;
  }

  /** `<<: *name` at `at`: the anchored mapping's entries added to `data` where it has none of that key. */
  private mergeKey(at: number, end: number, data: Record<string, unknown>, own: Set<string>): Anchored {
    const text = this.text;
    if (text.charCodeAt(at + 1) !== LESS || text.charCodeAt(at + 2) !== COLON || text.charCodeAt(at + 3) !== SPACE) throw GIVE_UP;
    let pos = at + 4;
    while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
    if (text.charCodeAt(pos) !== STAR) throw GIVE_UP;
    const stop = nameEnd(text, pos + 1);
    let after = stop;
    while (after < end && text.charCodeAt(after) === SPACE) after++;
    if (stop === pos + 1 || after !== end) throw GIVE_UP;
    const name = text.slice(pos + 1, stop);
    const anchor = this.defining?.has(name) ? undefined : this.anchors?.get(name);
    if (!anchor || typeof anchor.data !== 'object' || anchor.data === null || Array.isArray(anchor.data)) throw GIVE_UP;
    this.repeat(anchor.size);
    const source = anchor.data as Record<string, unknown>;
    for (const key in source) if (!own.has(key)) data[key] = copyOf(source[key]);
    return anchor;
  }

  private repeat(size: number): void {
    this.repeated += size;
    if (this.repeated > MAX_REPEATED) throw GIVE_UP;
  }

  /**
   * The alias `*name` at `pos` as the value of node `id`: the anchored collection's data (shared,
   * as the full path shares it) and its children (the node keeps its own position, the Locator's
   * answer for the alias itself; paths below it lead to the anchor's values). Sets `after`.
   */
  private alias(pos: number, id: number): unknown {
    const text = this.text;
    const stop = nameEnd(text, pos + 1);
    const name = text.slice(pos + 1, stop);
    const anchor = stop > pos + 1 && !this.defining?.has(name) ? this.anchors?.get(name) : undefined;
    if (!anchor) throw GIVE_UP;
    this.repeat(anchor.size);
    const from = anchor.node * NODE_SIZE;
    const to = id * NODE_SIZE;
    this.nodes[to + N_FIRST] = this.nodes[from + N_FIRST]!;
    this.nodes[to + N_COUNT] = this.nodes[from + N_COUNT]!;
    this.after = stop;
    return anchor.data;
  }

  /** `&name` at `pos` before a flow collection on the same line: the collection, remembered. Sets `after`. */
  private anchoredFlow(pos: number, end: number, key: number): unknown {
    const text = this.text;
    const stop = nameEnd(text, pos + 1);
    let open = stop;
    while (open < end && text.charCodeAt(open) === SPACE) open++;
    const c = text.charCodeAt(open);
    if (stop === pos + 1 || open === stop || (c !== LBRACKET && c !== LBRACE)) throw GIVE_UP;
    const name = text.slice(pos + 1, stop);
    const node = this.nodeCount;
    const before = this.repeated;
    (this.defining ??= new Set()).add(name);
    const data = this.flow(open, end, c === LBRACKET, key);
    this.defining.delete(name);
    (this.anchors ??= new Map()).set(name, { data, node, size: this.nodeCount - node + this.repeated - before });
    return data;
  }

  /** `key: &name` ending its line, above a block mapping: the mapping, remembered under its anchor. */
  private anchored(pos: number, end: number, indent: number, depth: number, key: number): unknown {
    const text = this.text;
    const stop = nameEnd(text, pos + 1);
    let after = stop;
    while (after < end && text.charCodeAt(after) === SPACE) after++;
    if (stop === pos + 1) throw GIVE_UP;
    if (after !== end) {
      // `key: &name [...]` or `{...}`: a flow collection on the line.
      const value = this.inline(pos, end, key);
      this.endOfValue(indent);
      return value;
    }
    const name = text.slice(pos + 1, stop);
    this.nextLine();
    if (!this.more || this.indent <= indent || text.charCodeAt(this.at) === DASH || depth + 1 >= MAX_FAST_DEPTH) throw GIVE_UP;
    const node = this.nodeCount;
    const before = this.repeated;
    (this.defining ??= new Set()).add(name);
    const data = this.blockMap(this.indent, depth + 1, key);
    this.defining.delete(name);
    (this.anchors ??= new Map()).set(name, { data, node, size: this.nodeCount - node + this.repeated - before });
    return data;
  }

  private blockSeq(indent: number, depth: number, key: number): unknown[] {
    const text = this.text;
    const id = this.node(this.at, key);
    const mark = this.openCount;
    const first = this.itemCount;
    while (this.more) {
      if (this.indent < indent) break;
      const at = this.at;
      const end = this.end;
      if (this.indent > indent || text.charCodeAt(at) !== DASH || text.charCodeAt(at + 1) !== SPACE) throw GIVE_UP;
      let pos = at + 1;
      while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
      if (pos === end || text.charCodeAt(pos) === DASH) throw GIVE_UP;
      if (this.keyEnd(pos) >= 0 || (text.charCodeAt(pos) === LESS && text.startsWith('<<: ', pos))) {
        // `- key: value`: a mapping whose keys line up with this one.
        this.at = pos;
        this.indent = pos - this.lineStart;
        this.push(this.blockMap(this.indent, depth + 1, pos));
        continue;
      }
      this.push(this.inline(pos, end, pos));
      this.endOfValue(indent);
    }
    this.close(id, mark, false);
    return this.list(first);
  }

  /** Adds an item to the innermost list being read (nested lists were sliced out before it). */
  private push(value: unknown): void {
    this.items[this.itemCount++] = value;
  }

  /** The items pushed since `first`, as a list of their own. */
  private list(first: number): unknown[] {
    const list = this.items.slice(first, this.itemCount);
    this.itemCount = first;
    return list;
  }

  /** The scalar or flow collection at `pos`, which must end its line. */
  private inline(pos: number, end: number, key: number): unknown {
    const text = this.text;
    const c = text.charCodeAt(pos);
    let value: unknown;
    let after: number;
    if (c === LBRACKET || c === LBRACE) {
      value = this.flow(pos, end, c === LBRACKET, key);
      after = this.after;
    } else if (c === AMPERSAND) {
      value = this.anchoredFlow(pos, end, key);
      after = this.after;
    } else if (c === STAR) {
      value = this.alias(pos, this.node(pos, key));
      after = this.after;
    } else {
      this.node(pos, key);
      if (c === QUOTE) {
        value = this.quoted(pos);
        after = this.after;
      } else {
        after = end;
        while (text.charCodeAt(after - 1) === SPACE) after--;
        value = this.plain(pos, after, false);
      }
    }
    while (after < end && text.charCodeAt(after) === SPACE) after++;
    if (after !== end) throw GIVE_UP;
    return value;
  }

  /** A double-quoted scalar on one line; `after` is set past its closing quote. */
  private quoted(pos: number): string {
    const text = this.text;
    // Most quoted values have no escapes: the text between the quotes is the value.
    for (let i = pos + 1; ; i++) {
      const c = text.charCodeAt(i);
      if (c === QUOTE) {
        this.after = i + 1;
        return text.slice(pos + 1, i);
      }
      if (c === BACKSLASH) break;
      // A line break (or the end of the text) before the closing quote: a multi-line scalar.
      if (c < 0x20 || i >= text.length) throw GIVE_UP;
      if (c >= 0x7f && isNotFast(c)) throw GIVE_UP;
    }
    DOUBLE_QUOTED.lastIndex = pos;
    const m = DOUBLE_QUOTED.exec(text);
    if (!m || NOT_FAST.test(m[0])) throw GIVE_UP;
    this.after = pos + m[0].length;
    return JSON.parse(m[0]) as string;
  }

  /** The plain scalar text[start, stop) (trailing spaces already dropped). */
  private plain(start: number, stop: number, flow: boolean): unknown {
    const text = this.text;
    if (start === stop) throw GIVE_UP;
    const first = text.charCodeAt(start);
    if (first < 128 && INDICATOR[first] === 1) throw GIVE_UP;
    for (let i = start; i < stop; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x7f) {
        if (isNotFast(c)) throw GIVE_UP;
      } else if (flow) {
        if (NOT_PLAIN_FLOW[c] === 1) throw GIVE_UP;
      } else if (c === COLON) {
        // `: ` or a final ':' would make it a key.
        if (i + 1 === stop || text.charCodeAt(i + 1) === SPACE) throw GIVE_UP;
      } else if (c === HASH) {
        // ` #` starts a comment.
        if (text.charCodeAt(i - 1) === SPACE) throw GIVE_UP;
      } else if (c < 0x20) throw GIVE_UP;
    }
    if (first === PLUS || first === DOT || (first >= ZERO && first <= NINE)) {
      // Only decimal integers the core schema and Number read alike (at most 15 digits: exact).
      const length = stop - start;
      if (first === ZERO) {
        if (length === 1) return 0;
        throw GIVE_UP;
      }
      if (first === PLUS || first === DOT || length > 15) throw GIVE_UP;
      let n = 0;
      for (let i = start; i < stop; i++) {
        const c = text.charCodeAt(i);
        if (c < ZERO || c > NINE) throw GIVE_UP;
        n = n * 10 + (c - ZERO);
      }
      return n;
    }
    const raw = text.slice(start, stop);
    // The special words start with t, T, f, F, n, N or ~: most short values need no lookup.
    if (stop - start <= 5 && SPECIAL_START[first] === 1 && Object.hasOwn(SPECIAL, raw)) return SPECIAL[raw];
    return raw;
  }

  /** A one-line flow list or mapping of scalars; `after` is set past its closing bracket. */
  private flow(open: number, end: number, isSeq: boolean, key: number): unknown {
    const text = this.text;
    const close = isSeq ? RBRACKET : RBRACE;
    const id = this.node(open, key);
    const mark = this.openCount;
    const first = this.itemCount;
    const map: Record<string, unknown> = isSeq ? NO_KEYS : {};
    let pos = open + 1;
    while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
    if (text.charCodeAt(pos) !== close) {
      for (;;) {
        let keyStart = -1;
        let name = '';
        if (!isSeq) {
          // `name: ` with exactly the block keys' characters, and a space after the colon.
          keyStart = pos;
          const i = this.keyEnd(pos);
          if (i < 0 || text.charCodeAt(i + 1) !== SPACE) throw GIVE_UP;
          const known = this.keyName(pos, i);
          if (known === undefined || Object.hasOwn(map, known)) throw GIVE_UP;
          name = known;
          pos = i + 1;
          while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
        }
        const start = pos;
        const opening = text.charCodeAt(pos);
        let value: unknown;
        if (opening === LBRACKET || opening === LBRACE) {
          // A flow collection inside this one (`{ alert_destinations: [ops] }`), on the same line;
          // one level only (MAX_FAST_DEPTH leaves room for it), deeper is the full path's.
          if (this.inFlow) throw GIVE_UP;
          this.inFlow = true;
          value = this.flow(pos, end, opening === LBRACKET, isSeq ? start : keyStart);
          this.inFlow = false;
          pos = this.after;
        } else {
          const item = this.node(start, isSeq ? start : keyStart);
          if (opening === QUOTE) {
            value = this.quoted(pos);
            pos = this.after;
          } else if (opening === STAR) {
            value = this.alias(pos, item);
            pos = this.after;
          } else {
            while (pos < end) {
              const c = text.charCodeAt(pos);
              if (c === COMMA || c === close || c === COLON) break;
              pos++;
            }
            let stop = pos;
            while (stop > start && text.charCodeAt(stop - 1) === SPACE) stop--;
            value = this.plain(start, stop, true);
          }
        }
        if (isSeq) this.push(value);
        else map[name] = value;
        while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
        const c = text.charCodeAt(pos);
        if (c === COMMA) {
          pos++;
          while (pos < end && text.charCodeAt(pos) === SPACE) pos++;
          if (text.charCodeAt(pos) === close) throw GIVE_UP;
          continue;
        }
        if (c === close) break;
        throw GIVE_UP;
      }
    }
    this.after = pos + 1;
    this.close(id, mark, !isSeq);
    return isSeq ? this.list(first) : map;
  }
}

/**
 * Whether a value holds, once decoded, what the full path treats specially: a string value (keys
 * are never interpolated) with `${` is interpolated there (`$${` too: it becomes a literal `${`).
 * The one place the fast path looks at values on the full path's behalf; keep it in step with
 * ../parse.ts (which values it hands to interpolation) and ../interpolate.ts.
 */
function forFullPath(value: unknown): boolean {
  if (typeof value === 'string') return value.includes('${');
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (forFullPath(value[i])) return true;
    return false;
  }
  // The scanner's own plain objects: no inherited keys to skip.
  for (const key in value) if (forFullPath((value as Record<string, unknown>)[key])) return true;
  return false;
}

/**
 * Where files' positions are kept: stretches of slabs of SLAB ints, handed out in turn. An
 * Int32Array per file is an ArrayBuffer per file, whose allocation outside the heap was the
 * largest single cost of a small file (a configuration of one file per monitor). A slab lives as
 * long as any file's positions in it: at most SLAB ints kept for nothing, once.
 */
const SLAB = 1 << 18;
let slab = new Int32Array(0);
let slabUsed = 0;

/** Room for `size` ints: the offset of a stretch of `keptIn` (no pair made per file to say both). */
let keptIn = slab;
function kept(size: number): number {
  // A large file has an array of its own: a slab is for the many small ones.
  if (size > SLAB >> 3) {
    keptIn = new Int32Array(size);
    return 0;
  }
  if (slabUsed + size > slab.length) {
    slab = new Int32Array(SLAB);
    slabUsed = 0;
  }
  const at = slabUsed;
  slabUsed += size;
  keptIn = slab;
  return at;
}

/** The first `count` ints of `from` into `to` at `at` (a loop: a few hundred ints, no views made). */
function copy(from: Int32Array, count: number, to: Int32Array, at: number): void {
  for (let i = 0; i < count; i++) to[at + i] = from[i]!;
}

/** The file's data and positions, or undefined when the full path must read it. */
export function fastParse(text: string, file: string): { data: Record<string, unknown>; positions: Positions } | undefined {
  const scanner = new Scanner(text);
  let data: Record<string, unknown>;
  try {
    data = scanner.document();
  } catch (err) {
    if (err === GIVE_UP) return undefined;
    throw err;
  } finally {
    // Grown arrays are kept for the next file.
    SCRATCH.nodes = scanner.nodes;
    SCRATCH.slots = scanner.slots;
    SCRATCH.lineStarts = scanner.lineStarts;
  }
  if (forFullPath(data)) return undefined;
  // The file's three arrays, copied into a stretch of a shared slab (see kept()).
  const lines = scanner.lines;
  const nodes = scanner.nodeCount * NODE_SIZE;
  const slots = scanner.slotCount;
  const at = kept(lines + nodes + slots);
  const slab = keptIn;
  copy(scanner.lineStarts, lines, slab, at);
  copy(scanner.nodes, nodes, slab, at + lines);
  copy(scanner.slots, slots, slab, at + lines + nodes);
  const positions = new FastPositions(
    file,
    text,
    { array: slab, from: at, count: lines },
    { array: slab, from: at + lines, count: nodes },
    { array: slab, from: at + lines + nodes, count: slots },
  );
  return { data, positions };
}
