/**
 * Where values were written, without the YAML document: what the stages after the per-file ones
 * (resolve, semantic checks, build) locate with.
 */
import type { Position } from './diagnostics.js';

export type PathSegment = string | number;

/** What the cross-file stages ask of a file: where a path's value or key was written. */
export interface Positions {
  readonly file: string;
  value(path: readonly PathSegment[]): Position;
  key(path: readonly PathSegment[]): Position;
}

/**
 * One value reached by a path: `v` where `Locator.value` puts it, `k` where `Locator.key` does
 * (byte offsets, -1 for "no range"), and the entries below it when it is a mapping or a list.
 */
export interface Entry {
  v: number;
  k: number;
  below: Below | undefined;
}
export type Below = Map<string, Entry> | Entry[];

/**
 * The answers of a Locator for every path into the data (built by locate.ts's indexDocument in one
 * walk of the document; fast/positions.ts has its own, FastPositions), so the document, many times the size of
 * its text, can be dropped once the file has passed the per-file stages. Needs no YAML library:
 * a configuration the fast path reads whole never loads it.
 */
export class PositionIndex implements Positions {
  private constructor(
    readonly file: string,
    /** Offsets at which lines start, as yaml's LineCounter records them. */
    private readonly lineStarts: readonly number[],
    private readonly root: Entry,
  ) {}

  /** An index built elsewhere (locate.ts), from the offsets at which its lines start. */
  static fromEntries(file: string, lineStarts: readonly number[], root: Entry): PositionIndex {
    return new PositionIndex(file, lineStarts, root);
  }

  private pos(offset: number): Position {
    if (offset < 0) return { line: 1, column: 1 };
    // yaml's LineCounter.linePos, so positions match the Locator's to the column.
    const starts = this.lineStarts;
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (starts[mid]! < offset) low = mid + 1;
      else high = mid;
    }
    let line: number;
    let col: number;
    if (starts[low] === offset) [line, col] = [low + 1, 1];
    else if (low === 0) [line, col] = [0, offset];
    else [line, col] = [low, offset - starts[low - 1]! + 1];
    return { line: Math.max(1, line), column: Math.max(1, col) };
  }

  /** The entry at `path`, or the deepest one reached (as Locator.find's `nearest`). */
  private find(path: readonly PathSegment[]): { entry: Entry; complete: boolean } {
    let entry = this.root;
    for (const seg of path) {
      const below = entry.below;
      let next: Entry | undefined;
      if (below instanceof Map) next = below.get(String(seg));
      else if (below && /^\d+$/.test(String(seg))) next = below[Number(seg)];
      if (!next) return { entry, complete: false };
      entry = next;
    }
    return { entry, complete: true };
  }

  value(path: readonly PathSegment[]): Position {
    return this.pos(this.find(path).entry.v);
  }

  key(path: readonly PathSegment[]): Position {
    const { entry, complete } = this.find(path);
    return this.pos(complete ? entry.k : entry.v);
  }
}

/** Splits an ajv instancePath (`/monitors/0/use_tls`) into segments, undoing JSON Pointer escapes. */
export function pointerToPath(pointer: string): PathSegment[] {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^(0|[1-9]\d*)$/.test(s) ? Number(s) : s));
}

