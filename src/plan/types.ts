/**
 * The plan: versioned, serialisable plain data. `diff` produces it, renderers read it, `apply`
 * executes it, `--out` saves it. Nothing in here may hold a secret.
 */

import type { Finding } from '../checks/types.js';
import type { SourceRef } from '../model/desired.js';

export type ChangeAction = 'create' | 'update' | 'delete';
export type ChangeKind = 'monitor' | 'alert' | 'group';

/**
 * Stands in for the id of a resource that this same plan creates. Apply substitutes the id once
 * the change named by `$ref` is done. An object (never a string) so no user text can be mistaken
 * for it.
 */
export interface IdRef {
  $ref: string;
}

export type IdOrRef = string | IdRef;

/** The exact API call a change makes, with ids of not-yet-created resources as IdRef. */
export interface PlannedCall {
  method: 'POST' | 'PUT' | 'DELETE';
  /** e.g. `/v1/Config/Monitor/48213/`; always concrete (updates and deletes have live ids). */
  path: string;
  body?: Record<string, unknown>;
}

/**
 * Why a change is as it is, for the people reading the plan: display only. Renderers show it; nothing
 * that decides (apply, its safety checks) reads it. What decides is `ChangeEffects`.
 */
export interface ChangeNote {
  /** An unmanaged live monitor the config names: the update adds the ownership marker. */
  adopt?: boolean;
  /** A monitor label or group name changed through previous_labels / previous_names. */
  renamed_from?: string;
  /** An alert matched to a live one whose subject_init differs. */
  subject_changed_from?: string;
  /**
   * With subject_changed_from, when no previous_subjects named the old subject: how the pair was
   * guessed (README, "Alert matching"): `alone`, the only declared and the only live alert left on
   * the monitor; `subject_term`, the same subject_term, unique on both sides.
   */
  paired_by?: 'alone' | 'subject_term';
  /** Deletes of resources the config never owned (unmanaged monitors, undeclared groups), by --prune. */
  pruned?: boolean;
  /** Monitor deletes: the subjects of the alerts deleted with it that the alert list holds, in id order (when any). */
  cascade_subjects?: string[];
  /**
   * Deletes of an extra copy of a resource this plan keeps (same label, name, or monitor and
   * subject, left by two applies racing): the id of the copy kept.
   */
  duplicate_of?: string;
  /**
   * Monitor creates: an unmanaged live monitor whose label differs from the declared one only in
   * case, surrounding spaces or Unicode form (NFC/NFD, no-break spaces). Declaring its exact label
   * would adopt it instead.
   */
  near_miss?: NearMiss;
  /** Monitor deletes: the names of the live groups it leaves (it is a member of). */
  member_of?: string[];
  /**
   * A monitor or group create whose fields are those of exactly one delete of this plan (a rename
   * without previous_labels / previous_names, or a `git revert` of one): that delete's label or
   * name. Declaring it as previous would keep the id and history.
   */
  looks_like_rename_of?: string;
  /** The delete of such a pair: the label or name of the create. */
  looks_like_rename_to?: string;
  /** Group updates: member labels added and removed. */
  members_added?: string[];
  members_removed?: string[];
}

/**
 * What a change does beyond its own call, that apply decides on (src/apply/safety.ts: the delete
 * threshold, the refusal to lose alerts the API cannot make again). Renderers show it too.
 *
 * Plan format 1 carries these fields inside `note` on the wire (plan --json, saved plans), as it
 * always has: `wireChange` and `changeFromWire` (src/plan/wire.ts) move them there and back, so the
 * JSON is unchanged while in memory what is shown and what decides are apart.
 */
export interface ChangeEffects {
  /** Monitor deletes: alerts the service deletes with it. */
  cascade_alerts?: number;
  /**
   * Monitor deletes: those of `cascade_alerts` of types other than up-down, which the API cannot
   * create again. Apply refuses such a delete without --force.
   */
  other_type_alerts?: UncreatableAlert[];
}

export interface UncreatableAlert {
  id: string;
  /** As the service names it, e.g. `threshold`. */
  type: string;
  subject_init: string;
}

export interface NearMiss {
  label: string;
  id: string;
  differs:
    | 'case'
    | 'spaces'
    | 'Unicode form'
    | 'case and spaces'
    | 'case and Unicode form'
    | 'spaces and Unicode form'
    | 'case, spaces and Unicode form';
}

export interface Change {
  /** Unique within the plan; what `depends_on` and IdRef point at. e.g. `monitor:mx-eu-1`. */
  ref: string;
  action: ChangeAction;
  kind: ChangeKind;
  /** Monitor label, group name, or for alerts `<monitor label> / <subject_init>`. */
  key: string;
  /** Alerts: the label of the monitor they are on. */
  monitor?: string;
  /** Live id for updates and deletes; null for creates. */
  id: string | null;
  /** Comparable fields before / after, references shown as labels. Null for create / delete. */
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
  /** Field names that differ (updates); every field given (creates); empty for deletes. */
  changed: string[];
  /** Refs of changes that must be done first. */
  depends_on: string[];
  call: PlannedCall;
  /** Display only (ChangeNote). */
  note?: ChangeNote;
  /** What decides (ChangeEffects). */
  effects?: ChangeEffects;
  /** Where the desired resource is declared (creates and updates), for annotations pointing at the YAML. */
  source?: SourceRef;
}

export interface PlanSummary {
  create: number;
  update: number;
  delete: number;
}

/** What the plan saw and deliberately left alone. */
export interface UnmanagedCounts {
  /** SMTP monitors without our marker and not named by the config. */
  monitors: number;
  /** Of `monitors`: those carrying another owner's marker (never pruned). */
  foreign_monitors?: number;
  /**
   * Of `monitors`: unmanaged ones --prune keeps because a declared group or top-level alert names
   * them (with or without --prune). Set only when non-zero.
   */
  referenced_monitors?: number;
  /** Alerts on those monitors (and on other-type monitors) not declared in the config. */
  alerts: number;
  /**
   * Alerts of types other than up-down on monitors this configuration manages: never deleted, as
   * the API cannot create them again. Set only when non-zero.
   */
  other_type_alerts?: number;
  /** Live groups the config does not declare (and does not prune). */
  groups: number;
  /**
   * Of the undeclared groups: those listing a monitor of another owner, which --prune keeps (with or
   * without --prune). Set only when non-zero.
   */
  other_owner_groups?: number;
  /** Monitors of types monsync never creates, modifies or deletes. */
  other_type_monitors: number;
  /** Resources matched by settings.ignore. */
  ignored: number;
}

export interface Plan {
  format_version: 1;
  /** ISO 8601 UTC. */
  created_at: string;
  /** Base URL of the account, never with credentials. */
  target: string;
  /** The declared account (settings.accounts) it was made for; absent without accounts. */
  account?: string;
  files: string[];
  /**
   * `ignore`: the settings.ignore globs the live state was filtered with; apply passes these
   * options to fingerprintLive so its fingerprint sees what the plan saw.
   */
  options: { prune: boolean; targets: string[]; owner: string; ignore?: string[] };
  /** In the order apply runs them. */
  changes: Change[];
  summary: PlanSummary;
  unmanaged: UnmanagedCounts;
  /**
   * sha256 of the canonical live state the plan was computed from; empty for a plan made only to
   * be shown as text (DiffOptions.fingerprint false), which is never saved.
   */
  fingerprint: string;
  warnings: string[];
  /**
   * Findings of the checks (src/checks) on the configuration and the account this plan was made
   * from, sorted by file, line and column; none at error level (those stop the plan). Absent where
   * no check ran: the plan apply makes again to see its work, and plans saved before checks existed.
   */
  checks?: Finding[];
  /**
   * Occurrences of the configuration's maintenance windows open at some time in the 7 days after the
   * plan was made (service time), with the monitors of the account they cover: what `monsync
   * maintain` will pause. Absent when the configuration declares no window.
   */
  maintenance?: PlannedMaintenance[];
}

export interface PlannedMaintenance {
  window: string;
  /** ISO 8601 UTC. */
  start: string;
  end: string;
  /** Labels of the account's monitors the window covers. */
  monitors: string[];
  /** Monitor patterns and `group NAME`s of the window matching nothing in the account. */
  unmatched: string[];
}

export const PLAN_FORMAT_VERSION = 1 as const;
