/** Walks over the declared items the checks look at, and the words their messages share. */
import type { DesiredAlert, DesiredMonitor, DesiredState } from '../model/desired.js';
import { plural } from '../util/plural.js';

export const q = (s: string): string => JSON.stringify(s);

export interface AlertItem {
  alert: DesiredAlert;
  monitor?: DesiredMonitor;
}

/** Built once per desired state: four checks walk every alert, on configurations of 20,000 alerts. */
const alertItems = new WeakMap<DesiredState, readonly AlertItem[]>();

/** Every declared alert with the managed monitor it sits under (none for top-level alerts). */
export function allAlerts(desired: DesiredState): readonly AlertItem[] {
  let items = alertItems.get(desired);
  if (!items) {
    const list: AlertItem[] = [];
    for (const monitor of desired.monitors) for (const alert of monitor.alerts) list.push({ alert, monitor });
    for (const alert of desired.alerts) list.push({ alert });
    alertItems.set(desired, (items = list));
  }
  return items;
}

/** `alert "S" on monitor "M"`, the way findings name an alert. */
export function alertName(alert: DesiredAlert): string {
  return `alert ${q(alert.subject_init)} on monitor ${q(alert.monitor)}`;
}

export function minutes(n: number): string {
  return plural(n, 'minute');
}
