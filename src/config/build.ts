/**
 * Stage 6: the DesiredState. Config defaults are merged (resolve.ts did that, and built each
 * monitor and alert as the state holds it); the service's documented defaults are not, so a plan
 * can tell what the user wrote from what the API assumes.
 */
import type { DesiredGroup, DesiredState } from '../model/desired.js';
import { valuePos, type Resolved } from './resolve.js';

export function buildState(r: Resolved): DesiredState {
  const groups: DesiredGroup[] = r.groups.map((g) => ({
    name: g.raw.name,
    previous_names: [...(g.raw.previous_names ?? [])],
    // Left out: the group's membership is not managed (README, Semantics).
    monitors: g.raw.monitors === undefined ? null : [...g.raw.monitors],
    ...(g.raw.disable_checks !== undefined ? { disable_checks: [...g.raw.disable_checks] } : {}),
    source: valuePos(g.ref),
  }));
  const settings: DesiredState['settings'] = { owner: r.settings.owner, ignore: [...r.settings.ignore], prune: r.settings.prune };
  if (r.settings.checks !== undefined) settings.checks = { ...r.settings.checks };
  return {
    settings,
    monitors: r.monitors.map((m) => m.desired),
    alerts: r.alerts.map((a) => a.desired),
    groups,
    files: r.files.map((f) => f.locator.file),
  };
}
