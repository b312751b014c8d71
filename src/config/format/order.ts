/**
 * Puts the keys of each mapping in the schema's order, in place, without changing what any alias
 * refers to. A YAML alias names the nearest anchor before it, so moving a key whose value defines
 * an anchor after a key that uses it would break the file (or, with a name defined twice, silently
 * change its meaning): such pairs keep their relative order, and everything else sorts around them.
 */
import { isAlias, isCollection, isMap, isPair, isScalar, isSeq, type Alias, type Document, type Node, type Pair, type YAMLMap } from 'yaml';
import { isMergeKey, keyText } from '../locate.js';
import type { Shape } from './shape.js';

/**
 * Where a key goes: the identity keys and required keys, then merge and pattern (`x-`) keys as
 * written, then the rest of the schema, then unknown keys.
 */
function rankOf(pair: Pair, index: number, shape: Shape): [number, number] {
  if (isMergeKey(pair.key)) return [1, index];
  const key = keyText(pair.key);
  if (key === undefined) return [3, index];
  const at = shape.order.indexOf(key);
  if (at >= 0) return [shape.required.has(key) || shape.lead.includes(key) ? 0 : 2, at];
  if (shape.patterns.some((p) => p.test(key))) return [1, index];
  return [3, index];
}

/** Each alias's anchored node, found by one walk in document order (the order the file was written in). */
export function resolveAliases(doc: Document): Map<Alias, Node> {
  const latest = new Map<string, Node>();
  const targets = new Map<Alias, Node>();
  const walk = (node: unknown): void => {
    if (isAlias(node)) {
      const target = latest.get(node.source);
      if (target) targets.set(node, target);
      return;
    }
    if (!isScalar(node) && !isCollection(node)) return;
    if (node.anchor) latest.set(node.anchor, node);
    if (!isCollection(node)) return;
    for (const item of node.items) {
      if (isPair(item)) {
        walk(item.key);
        walk(item.value);
      } else walk(item);
    }
  };
  walk(doc.contents);
  return targets;
}

interface Refs {
  /** Anchored nodes in the subtree, by anchor name. */
  anchors: Map<string, Node[]>;
  aliases: Alias[];
}

function refsOf(root: unknown): Refs {
  const refs: Refs = { anchors: new Map(), aliases: [] };
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const node = stack.pop();
    if (isAlias(node)) {
      refs.aliases.push(node);
      continue;
    }
    if (isPair(node)) {
      stack.push(node.key, node.value);
      continue;
    }
    if (!isScalar(node) && !isCollection(node)) continue;
    if (node.anchor) {
      const list = refs.anchors.get(node.anchor) ?? [];
      list.push(node);
      refs.anchors.set(node.anchor, list);
    }
    if (isCollection(node)) stack.push(...node.items);
  }
  return refs;
}

/**
 * For each item, the items that must stay before it: the one holding the anchor its aliases name,
 * and any item defining the same anchor name, which must stay out from between the two.
 */
function dependencies(items: readonly Pair[], targets: ReadonlyMap<Alias, Node>): Set<number>[] {
  const deps = items.map(() => new Set<number>());
  const refs = items.map((p) => refsOf(p));
  if (refs.every((r) => r.aliases.length === 0) || refs.every((r) => r.anchors.size === 0)) return deps;
  const holder = new Map<Node, number>();
  refs.forEach((r, i) => r.anchors.forEach((nodes) => nodes.forEach((n) => holder.set(n, i))));
  refs.forEach((r, j) => {
    for (const alias of r.aliases) {
      const target = targets.get(alias);
      const i = target ? holder.get(target) : undefined;
      if (i === j) continue;
      if (i !== undefined) deps[j]!.add(i);
      refs.forEach((other, k) => {
        if (k === i || k === j || !other.anchors.has(alias.source)) return;
        // Another definition of the name: it stays before the target or after the alias.
        if (k < j && i !== undefined) deps[i]!.add(k);
        else deps[k]!.add(j);
      });
    }
  });
  return deps;
}

/** The items in rank order, except that an item never moves before one it depends on. */
function order(items: readonly Pair[], shape: Shape, targets: ReadonlyMap<Alias, Node>): Pair[] {
  const ranks = items.map((p, i) => rankOf(p, i, shape));
  const byRank = (a: number, b: number) => ranks[a]![0] - ranks[b]![0] || ranks[a]![1] - ranks[b]![1] || a - b;
  const deps = targets.size > 0 ? dependencies(items, targets) : undefined;
  const indices = items.map((_, i) => i);
  if (!deps || deps.every((d) => d.size === 0)) return indices.sort(byRank).map((i) => items[i]!);
  // The original order satisfies every dependency, so some item is always free to go next.
  const placed = new Set<number>();
  const out: Pair[] = [];
  while (out.length < items.length) {
    const next = indices.filter((i) => !placed.has(i) && [...deps[i]!].every((d) => placed.has(d))).sort(byRank)[0]!;
    placed.add(next);
    out.push(items[next]!);
  }
  return out;
}

/** The comment block and blank line before a pair, which travel with it. */
const keyNode = (p: Pair): Node | undefined => (isScalar(p.key) || isCollection(p.key) ? (p.key as Node) : undefined);

/**
 * Sorts the mapping `node` (through an alias: the mapping it names) and everything below it that
 * the schema describes. `done` holds mappings already sorted (anchored ones are reached more than once).
 */
export function sortByShape(node: unknown, shape: Shape | undefined, targets: ReadonlyMap<Alias, Node>, done: Set<Node>): void {
  if (!shape) return;
  const target = isAlias(node) ? targets.get(node) : node;
  if (isSeq(target)) {
    if (shape.items) for (const item of target.items) sortByShape(item, shape.items, targets, done);
    return;
  }
  if (!isMap(target) || done.has(target)) return;
  done.add(target);
  const map = target as YAMLMap<unknown, unknown>;
  const items = map.items as Pair[];
  if (shape.order.length > 0 && items.length > 1) {
    const sorted = order(items, shape, targets);
    if (sorted[0] !== items[0]) {
      // The blank line before the new first pair would stand right under the parent key; it goes
      // to the pair that used to open the mapping, so a mapping with blank lines between all its
      // keys keeps them.
      const first = keyNode(sorted[0]!);
      const oldFirst = keyNode(items[0]!);
      if (first && oldFirst) {
        oldFirst.spaceBefore = first.spaceBefore;
        first.spaceBefore = undefined;
      }
    }
    map.items = sorted;
  }
  for (const pair of map.items as Pair[]) {
    if (isMergeKey(pair.key)) {
      // Merged mappings (usually under an `x-` key) take the order of the place they are merged into.
      const value = isAlias(pair.value) ? targets.get(pair.value) : pair.value;
      const sources = isSeq(value) ? value.items : [value];
      for (const s of sources) sortByShape(s, shape, targets, done);
      continue;
    }
    const key = keyText(pair.key);
    if (key !== undefined) sortByShape(pair.value, shape.properties.get(key), targets, done);
  }
}
