/**
 * The shapes the emulator store takes and gives (its public types), and the records it keeps
 * inside. Objects are kept in their wire form ("raw"): seeded objects with quirks (`timer: "5"`,
 * `hostname`, `type: "EMAIL"`) are served back exactly as given; only `alerts` and `groups` of a
 * monitor are computed from the relations, so they always reflect reality.
 */
import type { AlertState, OutboxMessage } from '../alerting.js';
import type { Hop, Outage, RoundTripFault, Segment, SimMonitor } from '../simulation.js';
import type { Json, JsonObject } from '../validate.js';

export type { Json, JsonObject } from '../validate.js';
export type { Hop } from '../simulation.js';
export type { OutboxMessage } from '../alerting.js';

export type SeedName = 'default' | 'empty';
export type Kind = 'monitor' | 'alert' | 'group' | 'destination';

export const FIRST_IDS: Readonly<Record<Kind, number>> = {
  monitor: 10001,
  alert: 50001,
  group: 301,
  destination: 701,
};

export interface MonitorRec {
  /** Wire fields except `alerts` and `groups`. */
  raw: JsonObject;
  /** Seeded monitors of other types may omit these fields; API-made ones always carry them. */
  showAlerts: boolean;
  showGroups: boolean;
  alerts: Set<string>;
  groups: Set<string>;
  /** Simulation: unix seconds of creation, test schedule, forced outages (oldest first). */
  created: number;
  segments: Segment[];
  outages: Outage[];
  /** A round trip made to fail (POST /_emulator/round-trip); absent when none. */
  roundTrip?: RoundTripFault;
  /** Derived from raw; dropped when the monitor changes. */
  sim?: SimMonitor;
}

export interface GroupRec {
  id: string;
  name: string;
  monitors: Set<string>;
}

export interface DataItemIn {
  utc_mktime: number;
  value: number | null;
  failed: boolean;
  error: string | null;
  samples: number | null;
  alert_matches: string[];
  time?: string;
  utc_time?: string;
}

/** Data set through the control API for one monitor; it replaces its simulated data. */
export interface MonitorData {
  items: DataItemIn[];
  analysis: Hop[][];
}

export interface SeedBody {
  destinations?: unknown[];
  monitors?: unknown[];
  alerts?: unknown[];
  groups?: unknown[];
}

export interface SeedResult {
  destinations: string[];
  monitors: string[];
  alerts: string[];
  groups: string[];
}

export interface StatusEntry {
  id: string;
  label: string;
  type: string;
  alert_active: boolean;
}

export interface FilterQuery {
  t: number;
  prefix?: string;
  suffix?: string;
  contains?: string;
  meta?: [string, string][];
}

export type Average = 'raw' | 'hour' | 'day';

export interface GroupMembers {
  id: string;
  name: string;
  monitors: { id: string; label: string }[];
}

export interface PausedAlert {
  id: string;
  monitor: string;
  seconds: number;
}

export interface MonitorDataView {
  monitor: string;
  monitor_label: string;
  data: JsonObject[];
}

export const SNAPSHOT_FORMAT = 'monsync-emulator-state';
/** Version 2 adds the simulation; version 1 files still load (their monitors start afresh). */
export const SNAPSHOT_VERSION = 2;

export interface Snapshot {
  format: typeof SNAPSHOT_FORMAT;
  version: number;
  clock_offset_ms: number;
  counters: Record<Kind, number>;
  destinations: JsonObject[];
  monitors: JsonObject[];
  alerts: JsonObject[];
  groups: { id: string; name: string; monitors: string[] }[];
  pauses: { id: string; until_ms: number }[];
  alert_active: string[];
  data: { monitor: string; items: DataItemIn[]; analysis: Hop[][] }[];
  simulation?: { seed: string; failure_rate: number; last_minute: number; retention_seconds?: number };
  monitor_sim?: { monitor: string; created: number; segments: Segment[]; outages: Outage[]; round_trip?: RoundTripFault }[];
  alert_sim?: ({ alert: string } & AlertState)[];
  outbox?: OutboxMessage[];
}

export interface SimulationOptions {
  /** Seed of the simulated test results; `POST /_emulator/reset` returns to it. */
  simSeed?: string | number;
  /** Share of tests that fail at random, 0..1 (default 0.01). */
  failureRate?: number;
}

/** What GET/POST /_emulator/simulation answer. */
export interface SimulationView {
  seed: string;
  failure_rate: number;
  /** Unix seconds of the last minute check run. */
  last_minute: number;
  retention_seconds: number;
}

/** An id as given in a seed or a state file: a non-empty string, or a number. */
export function idOf(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

export function asString(v: Json | undefined): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}
