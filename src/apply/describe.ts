/**
 * How apply names a change in reasons, events and output lines. Kept in one place so a skip
 * reason ("needs monitor "mx-eu-4"") reads exactly like the line that reported the failure.
 */
import type { ChangeAction, ChangeKind } from '../plan/types.js';

export interface Describable {
  kind: ChangeKind;
  action: ChangeAction;
  key: string;
  /** Alerts: the monitor label their key starts with. */
  monitor?: string;
}

export const ACTION_SYMBOL: Record<ChangeAction, string> = { create: '+', update: '~', delete: '-' };

/** `monitor "mx-eu-3"`, `alert "mx-eu-3" / "mx-eu-3 is DOWN"`, `group "production"`. */
export function changeTitle(c: Describable): string {
  if (c.kind === 'alert' && c.monitor !== undefined && c.key.startsWith(`${c.monitor} / `)) {
    return `alert ${JSON.stringify(c.monitor)} / ${JSON.stringify(c.key.slice(c.monitor.length + 3))}`;
  }
  return `${c.kind} ${JSON.stringify(c.key)}`;
}

/** `~ alert "mx-us-1" / "mx-us-1 is DOWN"`: the form the live progress line lists. */
export function changeLabel(c: Describable): string {
  return `${ACTION_SYMBOL[c.action]} ${changeTitle(c)}`;
}
