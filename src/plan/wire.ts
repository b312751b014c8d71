/**
 * Plan format 1 on the wire (`plan --json`, saved plans): a change's `effects` (what apply decides
 * on) travel inside its `note` (what is shown), as they did before the two were told apart in
 * memory. `wireChange` folds them in, `changeFromWire` takes them out again; a change without
 * effects is the same object both ways. Pure.
 */
import type { Change, ChangeEffects, ChangeNote } from './types.js';

/** The fields of `ChangeEffects`, which format 1 keeps in `note`. */
export const EFFECT_FIELDS = ['cascade_alerts', 'other_type_alerts'] as const satisfies readonly (keyof ChangeEffects)[];

/** The change as format 1 writes it: its effects inside `note`, no `effects` key. */
export function wireChange(c: Change): Change {
  if (c.effects === undefined) return c;
  const { effects, ...rest } = c;
  return { ...rest, note: { ...c.note, ...effects } as ChangeNote };
}

/** A change as format 1 wrote it, its effects apart from its note again. */
export function changeFromWire(c: Change): Change {
  const note = c.note as (ChangeNote & ChangeEffects) | undefined;
  if (note === undefined || !EFFECT_FIELDS.some((f) => note[f] !== undefined)) return c;
  const shown: Record<string, unknown> = {};
  const effects: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(note)) ((EFFECT_FIELDS as readonly string[]).includes(k) ? effects : shown)[k] = v;
  const { note: _note, ...rest } = c;
  return { ...rest, ...(Object.keys(shown).length > 0 ? { note: shown as ChangeNote } : {}), effects: effects as ChangeEffects };
}
