/**
 * A saved plan must be refused when the account changed in a way that changes what its calls do.
 * A declared group's update (PUT, replace: true) carries the ids of the ignored monitors that were
 * members when the plan was made, so that ignore means hands off. The fingerprint dropped ignored
 * monitors and group member lists altogether, so an ignored monitor joining or leaving the group
 * after the plan went unnoticed, and `apply --plan` then took it out of the group again (or put it
 * back): a change to a resource monsync promises never to touch.
 */
import { describe, expect, it } from 'vitest';
import { checkFingerprint } from '../../src/apply/saved-plan.js';
import { diff } from '../../src/plan/diff.js';
import { fingerprintLive } from '../../src/plan/fingerprint.js';
import { desiredState, dGroup, dMonitor, liveGroup, liveMonitor, liveState } from '../plan/helpers.js';

const mx = liveMonitor({ id: '1', label: 'mx' });
const mx2 = liveMonitor({ id: '2', label: 'mx2' });
const legacy = liveMonitor({ id: '9', label: 'legacy-x', meta: {} });
const desired = desiredState({
  settings: { ignore: ['legacy-*'] },
  monitors: [dMonitor('mx'), dMonitor('mx2')],
  groups: [dGroup('prod', ['mx', 'mx2'])],
});

describe('fingerprint: ignored members of declared groups', () => {
  it('a saved plan is refused after an ignored monitor left a group the plan replaces', () => {
    const before = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx, legacy])] });
    const plan = diff(desired, before, { target: 'http://127.0.0.1:1' });
    const update = plan.changes.find((c) => c.kind === 'group')!;
    expect(update.call.body).toMatchObject({ monitors: ['1', '2', '9'], replace: true });

    // Someone takes the ignored monitor out of the group in the web UI.
    const after = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx])] });
    expect(checkFingerprint(plan, fingerprintLive(after, plan.options)).ok).toBe(false);
  });

  it('a saved plan is refused after an ignored monitor joined a group the plan replaces', () => {
    const before = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx])] });
    const plan = diff(desired, before, { target: 'http://127.0.0.1:1' });
    const after = liveState({ monitors: [mx, mx2, legacy], groups: [liveGroup('g1', 'prod', [mx, legacy])] });
    expect(checkFingerprint(plan, fingerprintLive(after, plan.options)).ok).toBe(false);
  });

  it('ignored monitors themselves still do not count', () => {
    const a = liveState({ monitors: [mx, legacy], groups: [liveGroup('g1', 'prod', [mx, legacy])] });
    const b = structuredClone(a);
    b.monitors[1]!.timer = 30;
    b.monitors[1]!.meta = { note: 'x' };
    expect(fingerprintLive(b, ['legacy-*'])).toBe(fingerprintLive(a, ['legacy-*']));
  });
});
