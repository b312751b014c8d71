/**
 * The dependency graph of a plan's changes: a change needs every change in its `depends_on` and
 * every `{$ref}` in its body. Changes the plan cannot support (a duplicate ref, an unknown action,
 * a call that does not match its action, a dependency not in the plan, a cycle) are found here,
 * before any call, so a bad plan fails without touching the service.
 */
import { refsInBody } from '../plan/order.js';
import type { Change, ChangeAction } from '../plan/types.js';

export interface PlanGraph {
  /** Position of the first change with each ref. */
  indexOf: Map<string, number>;
  /** What each change needs (positions, no repeats). */
  deps: number[][];
  /** What needs each change. */
  dependents: number[][];
  /** Why a change cannot be run as written, or null. */
  invalid: (string | null)[];
}

const EXPECTED_METHOD: Record<ChangeAction, string> = { create: 'POST', update: 'PUT', delete: 'DELETE' };

/** Why a change cannot be run as written, or null. */
function invalidReason(c: Change, refs: Map<string, number>, index: number): string | null {
  if (refs.get(c.ref) !== index) return `the plan has two changes with ref ${JSON.stringify(c.ref)}`;
  if (!['monitor', 'alert', 'group'].includes(c.kind) || !['create', 'update', 'delete'].includes(c.action)) {
    return `the plan has an unknown change ${JSON.stringify(`${c.action} ${c.kind}`)}`;
  }
  if (c.call?.method !== EXPECTED_METHOD[c.action]) {
    return `the plan's call (${c.call?.method} ${c.call?.path}) does not match a ${c.action}`;
  }
  if (c.action !== 'create' && (typeof c.id !== 'string' || c.id === '')) return `the plan gives no id to ${c.action}`;
  if (c.action !== 'delete' && (typeof c.call.body !== 'object' || c.call.body === null)) {
    return `the plan gives no body for the ${c.action}`;
  }
  return null;
}

export function buildGraph(changes: readonly Change[]): PlanGraph {
  const indexOf = new Map<string, number>();
  changes.forEach((c, i) => {
    if (!indexOf.has(c.ref)) indexOf.set(c.ref, i);
  });
  const deps: number[][] = changes.map(() => []);
  const dependents: number[][] = changes.map(() => []);
  const invalid = changes.map((c, i) => invalidReason(c, indexOf, i));

  changes.forEach((c, i) => {
    if (invalid[i]) return;
    const needed = new Set([...(c.depends_on ?? []), ...refsInBody(c.call.body)]);
    // A Set, not includes(): a group of 10,000 new monitors depends on 10,000 changes.
    const seen = new Set<number>();
    for (const r of needed) {
      const j = indexOf.get(r);
      if (j === undefined) {
        invalid[i] = `it depends on ${JSON.stringify(r)}, which is not in the plan`;
        return;
      }
      if (!seen.has(j)) {
        seen.add(j);
        deps[i]!.push(j);
      }
    }
  });
  changes.forEach((_, i) => {
    for (const j of deps[i]!) dependents[j]!.push(i);
  });
  const graph = { indexOf, deps, dependents, invalid };
  markCycles(graph);
  return graph;
}

/** Changes on a dependency cycle can never start: mark them invalid so their dependents are skipped. */
function markCycles({ deps, dependents, invalid }: PlanGraph): void {
  const n = deps.length;
  // Kahn's algorithm; an invalid change counts as settled here (its dependents get skipped anyway).
  const settled = invalid.map(Boolean);
  const pending = deps.map((d) => d.filter((j) => !settled[j]).length);
  const queue = deps.map((_, i) => i).filter((i) => !settled[i] && pending[i] === 0);
  while (queue.length) {
    const j = queue.pop()!;
    settled[j] = true;
    for (const d of dependents[j]!) {
      if (settled[d]) continue;
      pending[d]! -= 1;
      if (pending[d] === 0) queue.push(d);
    }
  }
  for (let i = 0; i < n; i++) {
    // Left over: on a cycle, or behind one. Only those on one fail; the rest are skipped behind them.
    if (!settled[i] && reaches(deps, i, i)) invalid[i] = 'its dependencies form a cycle';
  }
}

function reaches(deps: number[][], from: number, target: number): boolean {
  const stack = [...deps[from]!];
  const visited = new Set<number>();
  while (stack.length) {
    const j = stack.pop()!;
    if (j === target) return true;
    if (visited.has(j)) continue;
    visited.add(j);
    stack.push(...deps[j]!);
  }
  return false;
}
