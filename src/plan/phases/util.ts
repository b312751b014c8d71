/**
 * Small pure helpers the planner's phases share: how problems quote things, call paths, and list
 * operations written for large accounts (no intermediate arrays where the common case needs none).
 */
import type { SourceRef, DesiredAlert } from '../../model/desired.js';
import type { Alert } from '../../model/live.js';
import type { IdOrRef } from '../types.js';
export { groupBy } from '../../util/group-by.js';
import { pathText } from '../../util/safe-text.js';
import { closest } from '../../util/suggest.js';

export const q = (s: string): string => JSON.stringify(s);
/** A problem about a place in the configuration, said as validate says its own: `file:line:column: message`. */
export const located = (src: SourceRef | undefined, message: string): string =>
  src ? `${pathText(src.file)}:${src.line}:${src.column}: ${message}` : message;
export const idPath = (kind: 'Monitor' | 'Alert' | 'Group', id: string): string =>
  `/v1/Config/${kind}/${encodeURIComponent(id)}/`;
export const ids = (xs: readonly { id: string }[]): string => xs.map((x) => x.id).join(', ');

/** `alert "<monitor> / <subject>"`, for problems (located at the alert). */
export function alertContext(monitorLabel: string, da: DesiredAlert): string {
  return `alert ${q(`${monitorLabel} / ${da.subject_init}`)}`;
}

/** `; did you mean "x"?` when one of `known` is a plausible typo of `name`, else ''. */
export function didYouMean(name: string, known: Iterable<string>): string {
  const near = closest(name, [...known]);
  return near === undefined || near === name ? '' : `; did you mean ${q(near)}?`;
}

export function byId<T extends { id: string }>(a: T, b: T): number {
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

const DIGITS = /^[0-9]+$/;

/** Ids in the order the service gave them out: by number when both are numbers ('9' before '10'), else as text. */
export function compareIds(a: string, b: string): number {
  if (DIGITS.test(a) && DIGITS.test(b)) {
    const x = a.replace(/^0+(?=.)/, '');
    const y = b.replace(/^0+(?=.)/, '');
    if (x.length !== y.length) return x.length - y.length;
  }
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The copy with the most `weight`, the lowest id among equals: one answer whatever order the account lists them in. */
export function keeperOf<T extends { id: string }>(copies: readonly T[], weight: (x: T) => number = () => 0): T {
  let best = copies[0]!;
  let bestWeight = weight(best);
  for (let i = 1; i < copies.length; i++) {
    const c = copies[i]!;
    const w = weight(c);
    if (w > bestWeight || (w === bestWeight && compareIds(c.id, best.id) < 0)) {
      best = c;
      bestWeight = w;
    }
  }
  return best;
}

/** Alerts of a type the API cannot create (anything but up-down; '' is an entry without a type). */
export function isOtherType(a: Alert): boolean {
  return a.type !== 'up-down' && a.type !== '';
}


export function uniq<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

export const NO_ALERTS: readonly Alert[] = [];

export function hasRepeatedSubject(xs: readonly DesiredAlert[]): boolean {
  if (xs.length > 16) return new Set(xs.map((x) => x.subject_init)).size !== xs.length;
  for (let i = 1; i < xs.length; i++) {
    for (let j = 0; j < i; j++) if (xs[j]!.subject_init === xs[i]!.subject_init) return true;
  }
  return false;
}

/** The same ids at the same positions: the same membership, without building anything. */
export function samePositions(live: readonly { id: string }[], desired: readonly { id: IdOrRef }[]): boolean {
  if (live.length !== desired.length) return false;
  for (let i = 0; i < live.length; i++) if (live[i]!.id !== desired[i]!.id) return false;
  return true;
}

/** uniq(xs), but xs itself when it has no repeats (the usual case); short lists are checked without a Set. */
export function distinct<T>(xs: readonly T[]): readonly T[] {
  if (xs.length > 8) return new Set(xs).size === xs.length ? xs : uniq(xs);
  for (let i = 1; i < xs.length; i++) if (xs.lastIndexOf(xs[i]!, i - 1) !== -1) return uniq(xs);
  return xs;
}

export function inIdOrder(xs: readonly { id: string }[]): boolean {
  for (let i = 1; i < xs.length; i++) if (xs[i - 1]!.id > xs[i]!.id) return false;
  return true;
}
