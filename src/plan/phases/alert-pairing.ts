/**
 * How declared and live alerts of one monitor are paired (docs/semantics.md, "Alert matching"). Pure.
 */
import type { DesiredAlert } from '../../model/desired.js';
import type { Alert } from '../../model/live.js';
import { NO_ALERTS } from './util.js';

export interface AlertPairing {
  /** Per desired alert, at the same index: the live alert it updates, or undefined (a create). */
  partner: readonly (Alert | undefined)[];
  /** Live alerts no desired alert took, in live order. */
  unmatchedLive: readonly Alert[];
  /**
   * Per desired alert, how a partner with another subject_init was found without previous_subjects
   * naming it: the only pair left (`alone`) or a subject_term unique on both sides (`subject_term`).
   * Absent when no pair was guessed so.
   */
  guessed?: readonly (PairGuess | undefined)[];
}

/** How a fuzzy pair was made (README, "Alert matching"); a reviewer is told, as it is a guess. */
export type PairGuess = 'alone' | 'subject_term';

/**
 * Pairs desired and live alerts of one monitor: exact subject_init, then previous_subjects; then,
 * only where this plan owns the monitor's alerts (fuzzy), a lone leftover pair, else leftovers
 * with a subject_term that is unique on both sides. On monitors we do not own, a leftover live alert
 * is somebody else's and must not be rewritten into ours. A leftover live alert with the subject of
 * one already paired is a copy of it (README, "Duplicates heal"): copies are settled before the
 * fuzzy step, so they are deleted as duplicates and never rewritten into another declared alert.
 */
export function pairAlerts(desired: readonly DesiredAlert[], live: readonly Alert[], fuzzy: boolean): AlertPairing {
  // The usual case, once per monitor: the same subjects in the same order. Each desired alert then
  // takes the live alert at its own index (the first unused one with its subject), and nothing is
  // left for the later passes.
  if (desired.length === live.length) {
    let aligned = true;
    for (let i = 0; i < desired.length; i++) {
      if (desired[i]!.subject_init !== live[i]!.subject_init) {
        aligned = false;
        break;
      }
    }
    if (aligned) return { partner: live, unmatchedLive: NO_ALERTS };
  }
  const partner = new Array<Alert | undefined>(desired.length).fill(undefined);
  const used = new Array<boolean>(live.length).fill(false);
  const firstUnused = (subject: string): number => {
    for (let j = 0; j < live.length; j++) if (!used[j] && live[j]!.subject_init === subject) return j;
    return -1;
  };
  const take = (i: number, j: number): void => {
    used[j] = true;
    partner[i] = live[j];
  };
  for (let i = 0; i < desired.length; i++) {
    const j = firstUnused(desired[i]!.subject_init);
    if (j >= 0) take(i, j);
  }
  for (let i = 0; i < desired.length; i++) {
    if (partner[i] !== undefined) continue;
    for (const prev of desired[i]!.previous_subjects ?? []) {
      const j = firstUnused(prev);
      if (j >= 0) {
        take(i, j);
        break;
      }
    }
  }
  let guessed: (PairGuess | undefined)[] | undefined;
  const guess = (i: number, how: PairGuess): void => {
    guessed ??= new Array<PairGuess | undefined>(desired.length).fill(undefined);
    guessed[i] = how;
  };
  if (fuzzy) {
    const dl: number[] = [];
    const ll: number[] = [];
    for (let i = 0; i < desired.length; i++) if (partner[i] === undefined) dl.push(i);
    // Subjects of the live alerts paired so far: an unused one with such a subject is a copy.
    const pairedSubjects = new Set<string>();
    for (let j = 0; j < live.length; j++) if (used[j]) pairedSubjects.add(live[j]!.subject_init);
    for (let j = 0; j < live.length; j++) if (!used[j] && !pairedSubjects.has(live[j]!.subject_init)) ll.push(j);
    if (dl.length === 1 && ll.length === 1) {
      take(dl[0]!, ll[0]!);
      guess(dl[0]!, 'alone');
    } else {
      for (const i of dl) {
        const term = desired[i]!.subject_term;
        const ds = dl.filter((x) => desired[x]!.subject_term === term);
        const ls = ll.filter((j) => live[j]!.subject_term === term);
        if (ds.length === 1 && ls.length === 1 && !used[ls[0]!]) {
          take(i, ls[0]!);
          guess(i, 'subject_term');
        }
      }
    }
  }
  return { partner, unmatchedLive: live.filter((_, j) => !used[j]), ...(guessed ? { guessed } : {}) };
}
