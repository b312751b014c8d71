/**
 * Stage 6: the DesiredState. Config defaults are merged (resolve.ts did that, and built each
 * monitor and alert as the state holds it); the service's documented defaults are not, so a plan
 * can tell what the user wrote from what the API assumes.
 */
import type { DesiredAlert, DesiredGroup, DesiredMaintenance, DesiredState, StatePositions, ValueRef } from '../model/desired.js';
import { valuePos, type Ref, type Resolved, type ResolvedAlert, type ResolvedGroup } from './resolve.js';
import { serviceLevelOf } from './slo.js';

/** `maintenance`: the windows built by maintenance.ts (loaded only for a configuration that has some). */
export function buildState(r: Resolved, maintenance?: DesiredMaintenance[]): DesiredState {
  const groups: DesiredGroup[] = r.groups.map((g) => {
    const slo = serviceLevelOf(g.raw.slo);
    return {
      name: g.raw.name,
      previous_names: [...(g.raw.previous_names ?? [])],
      // Left out: the group's membership is not managed (docs/semantics.md).
      monitors: g.raw.monitors === undefined ? null : [...g.raw.monitors],
      ...(g.raw.disable_checks !== undefined ? { disable_checks: [...g.raw.disable_checks] } : {}),
      ...(slo !== undefined ? { slo } : {}),
      source: valuePos(g.ref),
    };
  });
  const settings: DesiredState['settings'] = { owner: r.settings.owner, ignore: [...r.settings.ignore], prune: r.settings.prune };
  if (r.settings.checks !== undefined) settings.checks = { ...r.settings.checks };
  const state: DesiredState = {
    settings,
    monitors: r.monitors.map((m) => m.desired),
    alerts: r.alerts.map((a) => a.desired),
    groups,
    files: r.files.map((f) => f.locator.file),
  };
  if (maintenance !== undefined && maintenance.length > 0) state.maintenance = maintenance;
  Object.defineProperty(state, 'positions', { value: positionsOf(r, groups), enumerable: false });
  return state;
}

/** Where values were written, looked up when a problem asks: indexes are built on the first question. */
function positionsOf(r: Resolved, groups: readonly DesiredGroup[]): StatePositions {
  let alerts: Map<DesiredAlert, ResolvedAlert> | undefined;
  let groupsOf: Map<DesiredGroup, ResolvedGroup> | undefined;
  const alertOf = (a: DesiredAlert): ResolvedAlert | undefined => {
    alerts ??= new Map([...r.monitors.flatMap((m) => m.alerts), ...r.alerts].map((x) => [x.desired, x]));
    return alerts.get(a);
  };
  const at = (ref: Ref, fromDefaults: boolean, ...path: (string | number)[]): ValueRef => ({
    ...valuePos({ locator: ref.locator, path: [...ref.path, ...path] }),
    fromDefaults,
  });
  return {
    groupMember(g, index) {
      groupsOf ??= new Map(groups.map((x, i) => [x, r.groups[i]!]));
      const rg = groupsOf.get(g);
      return rg && at(rg.ref, false, 'monitors', index);
    },
    alertDestination(a, index) {
      const ra = alertOf(a);
      const origin = ra?.origin('alert_destinations');
      return origin && at(origin, ra!.raw.alert_destinations === undefined, index);
    },
    alertMonitor(a) {
      const ra = alertOf(a);
      return ra?.topLevel ? at(ra.monitorRef, false) : undefined;
    },
  };
}
