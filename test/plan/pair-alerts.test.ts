/**
 * pairAlerts was rewritten for speed (positions instead of Sets and Maps, a shortcut when subjects
 * line up); the pairing itself must not change. The reference below is the earlier implementation,
 * with copies of a paired alert kept out of the fuzzy step (issue 23, 6a).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Alert } from '../../src/model/live.js';
import type { DesiredAlert } from '../../src/model/desired.js';
import { pairAlerts } from '../../src/plan/diff.js';
import { dAlert, liveAlert } from './helpers.js';

function reference(desired: readonly DesiredAlert[], live: readonly Alert[], fuzzy: boolean) {
  const used = new Set<Alert>();
  const paired = new Map<DesiredAlert, Alert>();
  const take = (d: DesiredAlert, a: Alert): void => {
    used.add(a);
    paired.set(d, a);
  };
  for (const d of desired) {
    const a = live.find((x) => !used.has(x) && x.subject_init === d.subject_init);
    if (a) take(d, a);
  }
  for (const d of desired) {
    if (paired.has(d)) continue;
    for (const prev of d.previous_subjects ?? []) {
      const a = live.find((x) => !used.has(x) && x.subject_init === prev);
      if (a) {
        take(d, a);
        break;
      }
    }
  }
  if (fuzzy) {
    const dl = desired.filter((d) => !paired.has(d));
    // Copies of a paired alert (its subject) are duplicates, not leftovers (issue 23, 6a).
    const pairedSubjects = new Set([...used].map((a) => a.subject_init));
    const ll = live.filter((a) => !used.has(a) && !pairedSubjects.has(a.subject_init));
    if (dl.length === 1 && ll.length === 1) {
      take(dl[0]!, ll[0]!);
    } else {
      for (const d of dl) {
        const ds = dl.filter((x) => x.subject_term === d.subject_term);
        const ls = ll.filter((a) => a.subject_term === d.subject_term);
        if (ds.length === 1 && ls.length === 1 && !used.has(ls[0]!)) take(d, ls[0]!);
      }
    }
  }
  return { partner: desired.map((d) => paired.get(d)), unmatchedLive: live.filter((a) => !used.has(a)) };
}

const SUBJECTS = ['down', 'slow', 'tls', 'bounce'];
const TERMS = ['up', 'ok'];

describe('pairAlerts', () => {
  it('pairs exactly as the earlier implementation did', () => {
    const desiredArb = fc.array(
      fc.record({
        subject: fc.constantFrom(...SUBJECTS),
        term: fc.constantFrom(...TERMS),
        previous: fc.subarray(SUBJECTS),
      }),
      { maxLength: 5 },
    );
    const liveArb = fc.array(fc.record({ subject: fc.constantFrom(...SUBJECTS), term: fc.constantFrom(...TERMS) }), { maxLength: 5 });
    fc.assert(
      fc.property(desiredArb, liveArb, fc.boolean(), (ds, ls, fuzzy) => {
        const desired = ds.map(
          (d) => ({ ...dAlert(d.subject, { subject_term: d.term, previous_subjects: d.previous }), monitor: 'm' }) as DesiredAlert,
        );
        const live = ls.map((l, i) => liveAlert({ id: `a${i}`, monitor: '1', subject_init: l.subject, subject_term: l.term }));
        const got = pairAlerts(desired, live, fuzzy);
        const want = reference(desired, live, fuzzy);
        expect([...got.partner]).toEqual(want.partner);
        expect([...got.unmatchedLive]).toEqual(want.unmatchedLive);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes the live alert at the same position when the subjects line up', () => {
    const desired = [dAlert('down'), dAlert('down'), dAlert('slow')].map((d) => ({ ...d, monitor: 'm' }) as DesiredAlert);
    const live = ['down', 'down', 'slow'].map((s, i) => liveAlert({ id: `a${i}`, monitor: '1', subject_init: s }));
    expect(pairAlerts(desired, live, true)).toEqual({ partner: live, unmatchedLive: [] });
  });
});
