/**
 * Labels that look the same but are not (issue 23, item 5): the near-miss note, and the stop of a
 * --prune plan that would delete the monitor the configuration most likely means, cover Unicode
 * normalisation (NFC against NFD `café`) and no-break spaces as they cover case and spaces.
 */
import { describe, expect, it } from 'vitest';
import { diff, PlanError } from '../../src/plan/diff.js';
import { desiredState, dMonitor, liveMonitor, liveState, NOW, TARGET } from './helpers.js';

const live = (label: string) => liveState({ monitors: [liveMonitor({ id: '10005', label, meta: {} })] });
const plan = (declared: string, liveLabel: string, prune = false) =>
  diff(desiredState({ monitors: [dMonitor(declared)] }), live(liveLabel), { target: TARGET, now: NOW, prune });

const NFC = 'caf\u00e9';
const NFD = 'cafe\u0301';

describe('near misses beyond case and spaces', () => {
  it.each([
    [NFD, NFC, 'Unicode form'],
    [NFC, NFD, 'Unicode form'],
    ['mx\u00a0eu', 'mx eu', 'Unicode form'],
    ['mx-1\u00a0', 'mx-1', 'spaces'],
    ['\u3000mx-1', 'mx-1', 'spaces'],
    [`${NFD}\u00a0`, 'CAF\u00c9', 'case, spaces and Unicode form'],
  ])('unmanaged %j declared as %j: a create noting it (differs only in %s)', (liveLabel, declared, differs) => {
    const p = plan(declared, liveLabel);
    expect(p.changes.map((c) => `${c.action} ${c.key}`)).toEqual([`create ${declared}`]);
    expect(p.changes[0]!.note).toEqual({ near_miss: { label: liveLabel, id: '10005', differs } });
  });

  it('with --prune, a monitor whose label differs only in Unicode form or by a no-break space stops the plan instead of being deleted', () => {
    for (const [liveLabel, declared] of [[NFD, NFC], ['mx\u00a0eu', 'mx eu']] as const) {
      let problems: readonly string[] = [];
      try {
        plan(declared, liveLabel, true);
      } catch (err) {
        if (!(err instanceof PlanError)) throw err;
        problems = err.problems;
      }
      expect(problems).toEqual([
        `monitoring/main.yaml:1:1: monitor ${JSON.stringify(declared)}: the account has unmanaged monitor ${JSON.stringify(liveLabel)} (id 10005), whose label differs only in Unicode form, and --prune would delete it while creating ${JSON.stringify(declared)}. To adopt it, use its exact label or add ${JSON.stringify(liveLabel)} to previous_labels; otherwise delete or rename it in the service`,
      ]);
    }
  });

  it('labels that differ in more than form, case and spaces are no near miss', () => {
    expect(plan('cafe', NFC).changes[0]!.note).toBeUndefined();
  });
});
