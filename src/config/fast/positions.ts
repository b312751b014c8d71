/**
 * Where each value of a fast-parsed file was written (fast/parse.ts records it while scanning):
 * integer arrays instead of an object and a Map per value, answering what a Locator answers, to
 * the column. A 10,000-monitor configuration has hundreds of thousands of values, and positions
 * are read only for the item sources of the state and for diagnostics.
 */
import type { Position } from '../diagnostics.js';
import type { PathSegment, Positions } from '../positions.js';

const COLON = 58;

/** startsWith for short keys, without a call into the runtime for each. */
export function sameText(known: string, text: string, at: number): boolean {
  for (let i = 0; i < known.length; i++) if (known.charCodeAt(i) !== text.charCodeAt(at + i)) return false;
  return true;
}

/*
 * Nodes (every value: the root, mappings, lists, scalars) are numbered in document order, the
 * root 0. Four integers per node: where Locator.value puts it, where Locator.key does (the key's
 * offset for a mapping entry, else the value's), the first of its children in `slots`, and their
 * number (bitwise-not of it for a mapping, so a mapping is told from a list without data).
 */
export const NODE_SIZE = 4;
export const N_VALUE = 0;
export const N_KEY = 1;
export const N_FIRST = 2;
export const N_COUNT = 3;

export function grown(array: Int32Array<ArrayBuffer>, needed: number): Int32Array<ArrayBuffer> {
  if (needed <= array.length) return array;
  const bigger = new Int32Array(Math.max(needed, array.length * 2));
  bigger.set(array);
  return bigger;
}

const OPEN = new Int32Array(256);

/**
 * The nodes a scanner (parse.ts's, ../json.ts's) records as it reads: each node as it starts, each
 * collection's children when it ends. FastPositions reads the arrays it leaves.
 */
export class NodeRecorder {
  nodes: Int32Array<ArrayBuffer>;
  nodeCount = 0;
  slots: Int32Array<ArrayBuffer>;
  slotCount = 0;
  /** Ids of the children of the collections being read, innermost last. */
  /** Starts as a stack kept for every scanner (they run one at a time, start to end without waiting). */
  protected open: Int32Array<ArrayBuffer> = OPEN;
  protected openCount = 0;

  /** `scratch`: arrays to record into, kept by the caller from file to file (their contents need not be zero). */
  constructor(textLength: number, scratch?: { nodes: Int32Array<ArrayBuffer>; slots: Int32Array<ArrayBuffer> }) {
    if (scratch) {
      this.nodes = scratch.nodes;
      this.slots = scratch.slots;
      return;
    }
    // About one value per 12 to 20 characters in configurations of the usual shape: room for most
    // at once (the arrays are zeroed and copied when they grow).
    const guess = Math.max(64, textLength >> 4);
    this.nodes = new Int32Array(guess * NODE_SIZE);
    this.slots = new Int32Array(guess);
  }

  /** A new node, counted as a child of the innermost open collection. */
  protected node(value: number, key: number): number {
    const id = this.nodeCount++;
    const at = id * NODE_SIZE;
    if (at + NODE_SIZE > this.nodes.length) this.nodes = grown(this.nodes, at + NODE_SIZE);
    this.nodes[at + N_VALUE] = value;
    this.nodes[at + N_KEY] = key;
    // A scalar is never closed: its children stay none even in arrays used before.
    this.nodes[at + N_FIRST] = 0;
    this.nodes[at + N_COUNT] = 0;
    if (this.openCount === this.open.length) this.open = grown(this.open, this.openCount + 1);
    this.open[this.openCount++] = id;
    return id;
  }

  /** Ends a collection: its children are the nodes opened since `mark`. */
  protected close(id: number, mark: number, isMap: boolean): void {
    const count = this.openCount - mark;
    const slots = (this.slots = grown(this.slots, this.slotCount + count));
    for (let i = 0; i < count; i++) slots[this.slotCount + i] = this.open[mark + i]!;
    const at = id * NODE_SIZE;
    this.nodes[at + N_FIRST] = this.slotCount;
    this.nodes[at + N_COUNT] = isMap ? ~count : count;
    this.slotCount += count;
    this.openCount = mark;
  }
}

/**
 * The line (0-based, counted from `from`) holding `offset`: the last one starting at or before it
 * (the first starts at 0). The lines' starts are `count` ints of `lineStarts` from `from`.
 */
export function lineAt(lineStarts: ArrayLike<number>, offset: number, from = 0, count = lineStarts.length - from): number {
  let low = 0;
  let high = count - 1;
  while (low < high) {
    const mid = (low + high + 1) >> 1;
    if (lineStarts[from + mid]! <= offset) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * A file's stretch of an array of ints: its positions are `count` ints from `from`. Several
 * files' positions share one array (fast/parse.ts copies each small file's into a slab): a view
 * per file (`subarray`) was three typed arrays per file for the garbage collector.
 */
export interface Stretch {
  array: Int32Array;
  from: number;
  count: number;
}

/**
 * The last path found, the node after each of its steps and for which positions: where the next
 * search starts. The state's sources are asked for file by file in document order, each path
 * sharing most of its steps with the one before. One for all files rather than two arrays in each
 * (the arrays and their room were a third of what a small file's positions kept, one file per
 * monitor): asking another file's positions starts its search from the root.
 */
const LAST: { of: FastPositions | undefined; path: PathSegment[]; nodes: number[]; depth: number } = { of: undefined, path: [], nodes: [0], depth: 0 };

/** Where each value of a fast-parsed file was written: Locator's answers, from integer arrays. */
export class FastPositions implements Positions {
  /** Offsets at which lines start, as yaml's LineCounter records them: `lineCount` from `lineFrom`. */
  private readonly lineStarts: Int32Array;
  private readonly lineFrom: number;
  private readonly lineCount: number;
  /** The nodes (NODE_SIZE ints each, node 0 at `nodeFrom`) and the slots (slot 0 at `slotFrom`). */
  protected readonly nodes: Int32Array;
  protected readonly nodeFrom: number;
  protected readonly slots: Int32Array;
  protected readonly slotFrom: number;

  constructor(
    readonly file: string,
    protected readonly text: string,
    lines: Stretch,
    nodes: Stretch,
    slots: Stretch,
  ) {
    this.lineStarts = lines.array;
    this.lineFrom = lines.from;
    this.lineCount = lines.count;
    this.nodes = nodes.array;
    this.nodeFrom = nodes.from;
    this.slots = slots.array;
    this.slotFrom = slots.from;
  }

  /** The line of the last position asked for: where the next search starts (see LAST). */
  private lastLine = 0;

  private pos(offset: number): Position {
    if (offset < 0) return { line: 1, column: 1 };
    // yaml's LineCounter.linePos, so positions match the Locator's to the column: the line is the
    // last one starting at or before the offset (the first starts at 0).
    const starts = this.lineStarts;
    const from = this.lineFrom;
    const count = this.lineCount;
    let line = this.lastLine;
    // The next source is usually a few lines further down.
    for (let ahead = 0; ahead < 16 && line + 1 < count && starts[from + line + 1]! <= offset; ahead++) line++;
    if (!(starts[from + line]! <= offset && (line + 1 === count || starts[from + line + 1]! > offset))) line = lineAt(starts, offset, from, count);
    this.lastLine = line;
    return { line: line + 1, column: offset - starts[from + line]! + 1 };
  }

  /** The node at `path`, or the bitwise-not of the deepest one reached (as Locator.find's `nearest`). */
  private find(path: readonly PathSegment[]): number {
    const { nodes, nodeFrom, slots, slotFrom } = this;
    const last = LAST;
    if (last.of !== this) {
      last.of = this;
      last.depth = 0;
    }
    const { path: lastPath, nodes: lastNodes } = last;
    let p = 0;
    const common = Math.min(path.length, last.depth);
    while (p < common && path[p] === lastPath[p]) p++;
    let node = lastNodes[p]!;
    for (; p < path.length; p++) {
      const seg = path[p]!;
      const at = nodeFrom + node * NODE_SIZE;
      const count = nodes[at + N_COUNT]!;
      const first = nodes[at + N_FIRST]!;
      let next = -1;
      if (count < 0) {
        next = this.childByKey(String(seg), first, ~count);
      } else if (count > 0) {
        const isIndex = typeof seg === 'number' && Number.isSafeInteger(seg) ? seg >= 0 : /^\d+$/.test(String(seg));
        if (isIndex && Number(seg) < count) next = slots[slotFrom + first + Number(seg)]!;
      }
      if (next < 0) {
        last.depth = p;
        return ~node;
      }
      node = next;
      lastPath[p] = seg;
      lastNodes[p + 1] = node;
    }
    last.depth = path.length;
    return node;
  }

  /**
   * The child of a mapping (its `count` children listed in the slots from `first`) whose key is
   * `name`, or -1. YAML's: the keys are in the text at each child's key offset, followed by the
   * first ':' there; a name without ':' followed by ':' in the text is that key.
   */
  protected childByKey(name: string, first: number, count: number): number {
    const { nodes, nodeFrom, slots, slotFrom, text } = this;
    if (name.length === 0 || name.includes(':')) return -1;
    for (let i = 0; i < count; i++) {
      const child = slots[slotFrom + first + i]!;
      const keyAt = nodes[nodeFrom + child * NODE_SIZE + N_KEY]!;
      if (text.charCodeAt(keyAt + name.length) === COLON && sameText(name, text, keyAt)) return child;
    }
    return -1;
  }

  value(path: readonly PathSegment[]): Position {
    const found = this.find(path);
    return this.pos(this.nodes[this.nodeFrom + (found < 0 ? ~found : found) * NODE_SIZE + N_VALUE]!);
  }

  key(path: readonly PathSegment[]): Position {
    const found = this.find(path);
    const at = this.nodeFrom + (found < 0 ? ~found : found) * NODE_SIZE;
    return this.pos(found < 0 ? this.nodes[at + N_VALUE]! : this.nodes[at + N_KEY]!);
  }
}
