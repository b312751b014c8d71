/**
 * Stage 6: the DesiredState. Config defaults are merged (resolve.ts did that); the service's
 * documented defaults are not, so a plan can tell what the user wrote from what the API assumes.
 */
import type { DesiredAlert, DesiredGroup, DesiredMonitor, DesiredState, MonitorSpec } from '../model/desired.js';
import { valuePos, type Resolved, type ResolvedAlert } from './resolve.js';

/** A list of the state's own (`[...(list ?? [])]` made two). */
const copyOf = <T>(list: readonly T[] | undefined): T[] => (list === undefined ? [] : list.slice());

function buildAlert(a: ResolvedAlert): DesiredAlert {
  const v = a.values;
  const alert: DesiredAlert = {
    monitor: a.monitor,
    subject_init: a.raw.subject_init,
    subject_term: a.raw.subject_term,
    // checkSemantics has reported alerts without a timeout; buildState only runs without errors.
    timeout: v.timeout!,
    alert_destinations: copyOf(v.alert_destinations),
    previous_subjects: copyOf(a.raw.previous_subjects),
    source: a.source(),
  };
  if (v.message_init !== undefined) alert.message_init = v.message_init;
  if (v.message_term !== undefined) alert.message_term = v.message_term;
  if (v.down_only !== undefined) alert.down_only = v.down_only;
  if (v.repeat !== undefined) alert.repeat = v.repeat;
  return alert;
}

export function buildState(r: Resolved): DesiredState {
  const monitors: DesiredMonitor[] = r.monitors.map((m) => {
    // The merged values are the spec already: the fields set, in SPEC_FIELDS order, all scalars,
    // in an object of this monitor's own (as is its merged meta); a copy of each was garbage.
    const spec = m.values as Partial<MonitorSpec>;
    if (m.meta !== undefined) spec.meta = m.meta;
    return {
      label: m.raw.label,
      previous_labels: copyOf(m.raw.previous_labels),
      // The four required fields were checked by checkSemantics.
      spec: spec as MonitorSpec,
      alerts: m.alerts.map(buildAlert),
      source: m.source(),
    };
  });
  const groups: DesiredGroup[] = r.groups.map((g) => ({
    name: g.raw.name,
    previous_names: copyOf(g.raw.previous_names),
    monitors: copyOf(g.raw.monitors),
    source: valuePos(g.ref),
  }));
  return {
    settings: { owner: r.settings.owner, ignore: [...r.settings.ignore], prune: r.settings.prune },
    monitors,
    alerts: r.alerts.map(buildAlert),
    groups,
    files: r.files.map((f) => f.locator.file),
  };
}
