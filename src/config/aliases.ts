/**
 * Anchors and aliases of one YAML document, resolved once: each alias mapped to the node it stands
 * for in a single walk, and the size of the data the document expands to (aliases and merge keys
 * counted at the size of what they repeat) measured in one more walk, against a budget.
 *
 * Why not the yaml library's own resolution: `Alias.resolve(doc)` walks the whole document for
 * each alias (and `toJS` scans the list of every alias and anchor once per alias), so a file of
 * 2,000 monitors each with `<<: *common` took 38 s; and its guard against "billion laughs" counts
 * the uses of each anchor separately, so many anchors used many times each got through it slowly.
 * `bindAliases` gives each alias of the document the answer of the one walk (see there).
 */
import { isAlias, isCollection, isPair, type Alias, type Document, type Node } from 'yaml';
import { MAX_EXPANDED_NODES } from './budget.js';

export { MAX_EXPANDED_NODES };


export interface AliasIndex {
  /** The node each alias stands for (yaml's rule: the last node with its anchor before it); undefined when there is none. */
  targets: Map<Alias, Node | undefined>;
  /** Nodes visited to build the index: once each node as written. */
  visits: number;
}

/** Children in the order yaml's visit() takes them (a pair's key, then its value). */
function pushChildren(stack: unknown[], node: unknown): void {
  if (isCollection(node)) {
    for (let i = node.items.length - 1; i >= 0; i--) stack.push(node.items[i]);
  } else if (isPair(node)) {
    stack.push(node.value, node.key);
  }
}

/** Every alias of the document with its target, in one walk in document order. */
export function indexAliases(doc: Document): AliasIndex {
  const targets = new Map<Alias, Node | undefined>();
  const latest = new Map<string, Node>();
  const stack: unknown[] = [doc.contents];
  let visits = 0;
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || node === undefined || typeof node !== 'object') continue;
    visits++;
    if (isAlias(node)) {
      targets.set(node, latest.get(node.source));
      continue;
    }
    // An anchor counts from its own node on (`&a [*a]` refers to itself, as in yaml).
    const anchor = (node as { anchor?: string }).anchor;
    if (anchor) latest.set(anchor, node as Node);
    pushChildren(stack, node);
  }
  return { targets, visits };
}

export type Expansion =
  | { ok: true; nodes: number }
  /** The budget ran out at `at` (an alias, or the node where the count went over). */
  | { ok: false; reason: 'budget'; at: Node; nodes: number }
  /** An alias inside the node it refers to: its data would never end. */
  | { ok: false; reason: 'cycle'; at: Alias };

/**
 * How many values the document comes to with its aliases expanded, counted in document order with
 * the size of each anchored node remembered, so each node as written is visited once and an alias
 * costs one lookup. Stops at the alias (or node) where the count passes `limit`.
 */
export function measureExpansion(doc: Document, index: AliasIndex, limit = MAX_EXPANDED_NODES): Expansion {
  const sizes = new Map<Node, number>();
  const open = new Set<Node>();
  let total = 0;
  class Stop {
    constructor(readonly result: Expansion) {}
  }
  // Recursion is bounded by the nesting of the text (parse.ts refuses more than MAX_DEPTH levels):
  // an alias never recurses, it adds the remembered size of a node already walked.
  const walk = (node: unknown): void => {
    if (node === null || node === undefined || typeof node !== 'object') return;
    if (isAlias(node)) {
      const target = index.targets.get(node);
      if (target === undefined) {
        total += 1; // dangling: reported by the conversion that follows
      } else if (open.has(target)) {
        throw new Stop({ ok: false, reason: 'cycle', at: node });
      } else {
        total += sizes.get(target) ?? 1;
      }
      if (total > limit) throw new Stop({ ok: false, reason: 'budget', at: node, nodes: total });
      return;
    }
    const before = total;
    total += 1;
    if (total > limit) throw new Stop({ ok: false, reason: 'budget', at: node as Node, nodes: total });
    const anchored = (node as { anchor?: string }).anchor ? (node as Node) : undefined;
    if (anchored) open.add(anchored);
    if (isCollection(node)) {
      for (const item of node.items) walk(item);
    } else if (isPair(node)) {
      walk(node.key);
      walk(node.value);
    }
    if (anchored) {
      open.delete(anchored);
      sizes.set(anchored, total - before);
    }
  };
  try {
    walk(doc.contents);
  } catch (err) {
    if (err instanceof Stop) return err.result;
    throw err;
  }
  return { ok: true, nodes: total };
}

/**
 * Makes each alias of the document answer `resolve` from the index, for the library's `toJS` (which
 * asks every alias, and every merge key's source, through `resolve`). Call `toJS` with
 * `maxAliasCount: -1` afterwards: measureExpansion has already held the whole document to its
 * budget, and the library's own count would walk the document again per anchor.
 */
export function bindAliases(index: AliasIndex): void {
  for (const [alias, target] of index.targets) {
    Object.defineProperty(alias, 'resolve', { value: () => target, configurable: true, writable: true });
  }
}
