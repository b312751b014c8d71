/**
 * The shapes of the checks: what a check function returns (hits on declared items), and what the
 * runner makes of them (findings: plain, serialisable values with the position of the item in the
 * YAML, carried by plans, printed as `file:line:column: warning name: message`).
 */
import type { CheckLevel, DesiredAlert, DesiredGroup, DesiredMonitor } from '../model/desired.js';

export type { CheckLevel };

/** A finding's severity: a check set `off` reports nothing. */
export type FindingSeverity = Exclude<CheckLevel, 'off'>;

/** The declared item a hit is about; its `source` is where the finding points, its `disable_checks` can silence it. */
export type Subject =
  | { kind: 'monitor'; monitor: DesiredMonitor }
  /** `monitor`: the managed monitor the alert is declared under (absent for top-level alerts). */
  | { kind: 'alert'; alert: DesiredAlert; monitor?: DesiredMonitor }
  | { kind: 'group'; group: DesiredGroup };

/** What a check function found: one item and why. */
export interface Hit {
  subject: Subject;
  message: string;
}

/**
 * One finding, as plans carry it (the JSON plan's `checks` array, schemas/plan.schema.json). Flat,
 * so CI tools can turn it into an annotation without knowing monsync.
 */
export interface Finding {
  /** The check's name, e.g. `alert/missing`. */
  check: string;
  severity: FindingSeverity;
  message: string;
  /** Where the item is declared (relative to the working directory, as diagnostics show it). */
  file: string;
  line: number;
  column: number;
  kind: 'monitor' | 'alert' | 'group';
  /** As plan changes name items: monitor label, group name, or `<monitor label> / <subject_init>`. */
  key: string;
}
