/**
 * Maps a path into the loaded data (as JSON Schema's instancePath spells it) back to where it was
 * written in the YAML, following aliases and merge keys to the text that produced the value.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, type Alias, type Document, type LineCounter, type Node, type Pair } from 'yaml';
import type { Position } from './diagnostics.js';
import { indexAliases, type AliasIndex } from './aliases.js';
import { PositionIndex, type Below, type Entry, type PathSegment } from './positions.js';

export { PositionIndex, pointerToPath, type PathSegment, type Positions } from './positions.js';

interface Found {
  /** The value at the path, if the whole path resolved (null for an empty value such as `alerts:`). */
  node: Node | null | undefined;
  /** The pair that holds the value when the last segment is a mapping key. */
  pair: Pair | undefined;
  /** The deepest node reached, for paths that do not resolve completely. */
  nearest: Node | undefined;
  complete: boolean;
}

export function isMergeKey(key: unknown): boolean {
  if (!isScalar(key)) return false;
  const v = key.value;
  return v === '<<' || (typeof v === 'symbol' && v.description === '<<');
}

export function keyText(key: unknown): string | undefined {
  if (isScalar(key)) return typeof key.value === 'symbol' ? key.value.description : String(key.value);
  return undefined;
}

export class Locator {
  constructor(
    readonly file: string,
    private readonly doc: Document,
    private readonly lines: LineCounter,
  ) {}

  at(offset: number): Position {
    const { line, col } = this.lines.linePos(offset);
    return { line: Math.max(1, line), column: Math.max(1, col) };
  }

  /** Start of a node; the start of the file when the node has no range. */
  nodeStart(node: Node | null | undefined): Position {
    const start = node?.range?.[0];
    return start === undefined ? { line: 1, column: 1 } : this.at(start);
  }

  private index: AliasIndex | undefined;

  /** Every alias of the document with the node it stands for, found in one walk the first time it is needed. */
  aliases(): AliasIndex {
    this.index ??= indexAliases(this.doc);
    return this.index;
  }

  /** The node an alias stands for (through chains of aliases); other nodes as they are. */
  derefNode(node: unknown): unknown {
    return this.deref(node);
  }

  private deref(node: unknown): unknown {
    let cur = node;
    for (let hops = 0; isAlias(cur) && hops < 64; hops++) {
      const alias: Alias = cur;
      cur = this.aliases().targets.get(alias);
    }
    return cur;
  }

  /** The pair for `key` in a map, directly or through its merge keys (`<<: *anchor`). */
  private findPair(map: unknown, key: string, depth = 0): Pair | undefined {
    const m = this.deref(map);
    if (!isMap(m) || depth > 16) return undefined;
    for (const item of m.items) if (isPair(item) && !isMergeKey(item.key) && keyText(item.key) === key) return item;
    for (const item of m.items) {
      if (!isPair(item) || !isMergeKey(item.key)) continue;
      const src = this.deref(item.value);
      const sources = isSeq(src) ? src.items : [src];
      for (const s of sources) {
        const found = this.findPair(s, key, depth + 1);
        if (found) return found;
      }
    }
    return undefined;
  }

  find(path: readonly PathSegment[]): Found {
    let cur: unknown = this.doc.contents;
    let pair: Pair | undefined;
    let nearest = cur as Node | undefined;
    for (const seg of path) {
      const target = this.deref(cur);
      if (isMap(target)) {
        const p = this.findPair(target, String(seg));
        if (!p) return { node: undefined, pair: undefined, nearest, complete: false };
        pair = p;
        cur = p.value;
        nearest = (p.value as Node | null) ?? (p.key as Node);
      } else if (isSeq(target) && /^\d+$/.test(String(seg))) {
        const item = target.items[Number(seg)];
        if (item === undefined) return { node: undefined, pair: undefined, nearest, complete: false };
        pair = undefined;
        cur = item;
        nearest = item as Node;
      } else {
        return { node: undefined, pair: undefined, nearest, complete: false };
      }
    }
    return { node: cur as Node | null, pair, nearest, complete: true };
  }

  /** Where the value at `path` was written (the key, for an empty value). */
  value(path: readonly PathSegment[]): Position {
    const f = this.find(path);
    if (f.complete && f.node) return this.nodeStart(f.node);
    if (f.complete && f.pair) return this.nodeStart(f.pair.key as Node);
    return this.nodeStart(f.nearest);
  }

  /** Where the key of the last segment was written (the item, for a list index). */
  key(path: readonly PathSegment[]): Position {
    const f = this.find(path);
    if (f.complete && f.pair) return this.nodeStart(f.pair.key as Node);
    if (f.complete && f.node) return this.nodeStart(f.node);
    return this.nodeStart(f.nearest);
  }
}

const start = (node: unknown): number => (node as Node | null | undefined)?.range?.[0] ?? -1;

/** The Locator's answers for every path into the document's data, in one walk (see PositionIndex). */
export function indexDocument(locator: Locator, doc: Document, lines: LineCounter): PositionIndex {
  // Collections reached through several aliases share their entries.
  const memo = new Map<Node, Below | undefined>();
  const belowOf = (node: unknown): Below | undefined => {
    const target = locator.derefNode(node);
    if (!isMap(target) && !isSeq(target)) return undefined;
    if (memo.has(target)) return memo.get(target);
    if (isSeq(target)) {
      const items: Entry[] = [];
      memo.set(target, items);
      for (const item of target.items) {
        const at = start(item);
        items.push({ v: at, k: at, below: belowOf(item) });
      }
      return items;
    }
    const keys = new Map<string, Entry>();
    memo.set(target, keys);
    // Locator.findPair's order: the map's own keys first, then its merge sources, in order.
    for (const item of target.items) {
      if (!isPair(item) || isMergeKey(item.key)) continue;
      const text = keyText(item.key);
      if (text === undefined || keys.has(text)) continue;
      const value = item.value as Node | null;
      keys.set(text, { v: value ? start(value) : start(item.key), k: start(item.key), below: belowOf(value) });
    }
    const addMerged = (map: unknown, mergeDepth: number): void => {
      const m = locator.derefNode(map);
      if (!isMap(m) || mergeDepth > 16) return;
      if (mergeDepth > 0) {
        for (const item of m.items) {
          if (!isPair(item) || isMergeKey(item.key)) continue;
          const text = keyText(item.key);
          if (text === undefined || keys.has(text)) continue;
          const value = item.value as Node | null;
          keys.set(text, { v: value ? start(value) : start(item.key), k: start(item.key), below: belowOf(value) });
        }
      }
      for (const item of m.items) {
        if (!isPair(item) || !isMergeKey(item.key)) continue;
        const src = locator.derefNode(item.value);
        for (const s of isSeq(src) ? src.items : [src]) addMerged(s, mergeDepth + 1);
      }
    };
    addMerged(target, 0);
    return keys;
  };
  const at = start(doc.contents);
  return PositionIndex.fromEntries(locator.file, lines.lineStarts, { v: at, k: at, below: belowOf(doc.contents) });
}
