/**
 * The order apply runs changes in, and what each waits for. Pure.
 *
 * Phases: monitors are created and updated first (alerts and groups need their ids), then alerts,
 * then groups; deletes come last and in reverse: alerts, then monitors (after the group updates
 * that drop them), then groups. Within a phase changes are sorted by key, so a plan is stable
 * whatever order the account or the YAML listed things in.
 */
import type { Change, IdRef, PlanSummary } from './types.js';

const PHASES: Record<string, number> = {
  'create:monitor': 0,
  'update:monitor': 0,
  'create:alert': 1,
  'update:alert': 1,
  'create:group': 2,
  'update:group': 2,
  'delete:alert': 3,
  'delete:monitor': 4,
  'delete:group': 5,
};

export function phaseOf(c: Pick<Change, 'action' | 'kind'>): number {
  return PHASES[`${c.action}:${c.kind}`] ?? 6;
}

export function isIdRef(value: unknown): value is IdRef {
  return (
    value !== null &&
    typeof value === 'object' &&
    !Array.isArray(value) &&
    typeof (value as { $ref?: unknown }).$ref === 'string' &&
    Object.keys(value).length === 1
  );
}

/** Refs of the changes whose ids a request body needs, in the order they appear. */
export function refsInBody(body: unknown): string[] {
  // A Set, not includes(): a group of 10,000 new monitors has 10,000 refs in one body.
  const out = new Set<string>();
  const walk = (v: unknown): void => {
    if (isIdRef(v)) {
      out.add(v.$ref);
    } else if (Array.isArray(v)) {
      v.forEach(walk);
    } else if (v !== null && typeof v === 'object') {
      Object.values(v).forEach(walk);
    }
  };
  walk(body);
  return [...out];
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Sorts changes into apply order and fills `depends_on`: every IdRef in a call body, plus the
 * ordering dependencies already set (monitor deletes after the group updates that drop them).
 * References to changes not in the list are dropped. Returns new Change objects.
 */
export function orderChanges(changes: readonly Change[]): Change[] {
  const sorted = [...changes].sort(
    (a, b) => phaseOf(a) - phaseOf(b) || cmp(a.key, b.key) || cmp(a.ref, b.ref),
  );
  const position = new Map(sorted.map((c, i) => [c.ref, i]));
  return sorted.map((c, i) => {
    const deps = [...new Set([...c.depends_on, ...refsInBody(c.call.body)])]
      .filter((r) => position.has(r) && r !== c.ref)
      .sort((a, b) => position.get(a)! - position.get(b)!);
    for (const r of deps) {
      // Phases are built so this cannot happen; if it ever does, apply would deadlock or misuse ids.
      if (position.get(r)! > i) throw new Error(`internal: ${c.ref} depends on later change ${r}`);
    }
    return { ...c, depends_on: deps };
  });
}

export function summarize(changes: readonly Change[]): PlanSummary {
  const s: PlanSummary = { create: 0, update: 0, delete: 0 };
  for (const c of changes) s[c.action]++;
  return s;
}
