/**
 * The simulated service's tests: when a monitor runs them and what they return.
 *
 * Results are a PURE function of (simulation seed, failure rate, monitor id, slot index, the
 * monitor's settings, its stored outages). Nothing per test is stored: any window of history is
 * recomputed on demand in O(slots), memory stays O(monitors + outages), and the answer never
 * depends on when requests happened to arrive. Keying on the slot index rather than its time makes
 * a seed give the same sequence of results however late (in real time) a monitor was created.
 *
 * Timing (documented in docs/emulator-reference.md): a monitor's tests are aligned to its creation time, the
 * first one `timer` minutes after it was created, then every `timer` minutes. Changing `timer`
 * starts a new schedule segment at the moment of the change, so earlier tests keep their times.
 * Results are kept (computable) for RETENTION_SECONDS.
 */
import type { MonitorKind } from './monitor-types.js';
import { utcIso, zonedIso } from './time.js';

/** How far back results, alert events and the outbox reach. */
export const RETENTION_SECONDS = 7 * 86_400;
export const DEFAULT_FAILURE_RATE = 0.01;
export const DEFAULT_SIM_SEED = 'monsync';
/** The slowest reply an SMTP test can draw (seconds); bounds the backwards search for replies. */
export const MAX_REPLY_SECONDS = 300;
const DEFAULT_TIMER_MINUTES = 5;

export interface SimConfig {
  seed: string;
  failureRate: number;
  /** How far back results, alert events and the outbox reach (seconds); RETENTION_SECONDS unless a history was seeded. */
  retentionSeconds?: number;
}

/** The retention window in force: the default week, or longer after `POST /_emulator/history`. */
export function retentionOf(cfg: SimConfig): number {
  return cfg.retentionSeconds ?? RETENTION_SECONDS;
}

// ---------------------------------------------------------------------------------------------
// Deterministic randomness: a 32-bit hash of (seed, monitor, slot) stretched into uniforms.

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function mix32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The hash of (seed, monitor); a slot's hash mixes its index into it. */
export function monitorHash(seed: string, monitorId: string): number {
  return fnv1a(`${seed}\u0000${monitorId}`);
}

export function slotHash(monitor: number, k: number): number {
  return mix32(monitor ^ mix32((Math.imul(k, 0x85ebca6b) + 0x27d4eb2f) | 0));
}

/** The i-th uniform number in [0, 1) of a slot. */
export function uniform(h: number, i: number): number {
  return mix32(h ^ mix32(Math.imul(i + 1, 0x9e3779b9))) / 4294967296;
}

// ---------------------------------------------------------------------------------------------
// Schedules

/** Tests at `start + j * timer * 60` for j >= 1, before the next segment's start. */
export interface Segment {
  start: number;
  timer: number;
  /** Global index of slot j = 0 of this segment; slot j has index base + j. */
  base: number;
}

export interface Slot {
  /** Unix seconds the test starts. */
  t: number;
  /** Global slot index of the monitor: the key of its result. */
  k: number;
}

/** `timer` as served (a number or, in one sample, a string); anything unusable counts as 5. */
export function timerMinutes(v: unknown): number {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : NaN;
  return Number.isFinite(n) && n >= 1 ? Math.round(n) : DEFAULT_TIMER_MINUTES;
}

export function newSchedule(createdSec: number, timer: number): Segment[] {
  return [{ start: createdSec, timer, base: 0 }];
}

function segEnd(segs: readonly Segment[], i: number): number {
  const next = segs[i + 1];
  return next ? next.start : Number.POSITIVE_INFINITY;
}

/** Slots of a segment strictly before `end`, counted from j = 1. */
function slotsBefore(seg: Segment, end: number): number {
  const p = seg.timer * 60;
  return Math.max(0, Math.ceil((end - seg.start) / p) - 1);
}

/** A timer change at `at`: a new segment whose first test is one new interval later. */
export function changeTimer(segs: Segment[], at: number, timer: number): void {
  const last = segs[segs.length - 1] as Segment;
  if (last.timer === timer) return;
  const start = Math.max(at, last.start);
  if (start === last.start) {
    last.timer = timer;
    return;
  }
  segs.push({ start, timer, base: last.base + slotsBefore(last, start) });
}

/** Drops segments that end before `from`; slot indexes are absolute, so nothing else moves. */
export function pruneSchedule(segs: Segment[], from: number): void {
  while (segs.length > 1 && (segs[1] as Segment).start <= from) segs.shift();
}

/** The latest slot at or before `at`. */
export function slotAtOrBefore(segs: readonly Segment[], at: number): Slot | null {
  for (let i = segs.length - 1; i >= 0; i--) {
    const s = segs[i] as Segment;
    const p = s.timer * 60;
    const limit = Math.min(at, segEnd(segs, i) - 1);
    if (limit < s.start + p) continue;
    const j = Math.floor((limit - s.start) / p);
    return { t: s.start + j * p, k: s.base + j };
  }
  return null;
}

/** The first slot later than `after`. */
export function slotAfter(segs: readonly Segment[], after: number): Slot | null {
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as Segment;
    const p = s.timer * 60;
    const lo = Math.max(after + 1, s.start + p);
    const j = Math.ceil((lo - s.start) / p);
    const t = s.start + j * p;
    if (t < segEnd(segs, i)) return { t, k: s.base + j };
  }
  return null;
}

/** Slots with `after < t <= upTo`, in time order. */
export function slotsIn(segs: readonly Segment[], after: number, upTo: number): Slot[] {
  const out: Slot[] = [];
  for (let i = 0; i < segs.length; i++) {
    const s = segs[i] as Segment;
    const p = s.timer * 60;
    const lo = Math.max(after + 1, s.start + p);
    const hi = Math.min(upTo, segEnd(segs, i) - 1);
    if (hi < lo) continue;
    const j1 = Math.floor((hi - s.start) / p);
    for (let j = Math.ceil((lo - s.start) / p); j <= j1; j++) out.push({ t: s.start + j * p, k: s.base + j });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Results

export interface Outage {
  /**
   * Unix seconds; tests starting in (start, until] fail. A test starting the very second the
   * outage is forced has already been reported, so its result stays as it was.
   */
  start: number;
  until: number;
}

/** What a monitor's results depend on, taken from its stored record. */
/**
 * A monitor's round trip made to fail one way (POST /_emulator/round-trip): `no-forwarder`, the
 * test account never forwards the message back (no response); `refused`, the delivery host refuses
 * the test account (550); `late`, the reply comes 60 s after the ttl (300 s without one).
 */
export type RoundTripFault = 'no-forwarder' | 'refused' | 'late';
export const ROUND_TRIP_FAULTS: readonly RoundTripFault[] = ['no-forwarder', 'refused', 'late'];

export interface SimMonitor {
  id: string;
  smtp: boolean;
  /** failureTexts() of its type: what it reports in an outage, then its other failures. */
  errors: readonly [string, ...string[]];
  /** Seconds; 0 means none. */
  ttl: number;
  /** `duration` of test data objects in milliseconds (data_label `milliseconds`) instead of seconds. */
  durationInMs: boolean;
  timeZone: string | undefined;
  /** Unix seconds. */
  created: number;
  segments: Segment[];
  outages: readonly Outage[];
  /** Every test's round trip fails this way (none when absent). */
  roundTrip?: RoundTripFault;
  /** For hop analysis. */
  target: string;
  domain: string;
  /** monitorHash(hashSeed, id), computed on first use. */
  hash?: number;
  hashSeed?: string;
}

export interface TestResult {
  t: number;
  k: number;
  complete: boolean;
  /** Reply time in milliseconds; null when no reply came. */
  ms: number | null;
  /** Unix seconds the reply arrived; null when none did. */
  term: number | null;
  error: string | null;
  /** The slot's hash: further draws (hop analysis) come from it. */
  h: number;
  /** Seen before its outcome is known (asSeenAt): no reply yet, no error yet. */
  inFlight?: boolean;
}

export const OUTAGE_ERROR = 'no response: the test message did not come back';
const REFUSED_ERROR = '550 5.1.1 test account mailbox unavailable';
/** How much later than its ttl a `late` round trip replies. */
const LATE_BY_SECONDS = 60;

/**
 * A test as the service can show it at `now`: an SMTP test whose reply has not arrived yet is in
 * flight (not complete, no duration, no `time_term`, no error: API 2.7) until the service gives up
 * waiting, at its ttl (MAX_REPLY_SECONDS without one). Then a test that gets no reply at all shows
 * its error; one whose reply is late shows `no reply within the ttl of T s` until the reply arrives,
 * and the late reply after that. Failures known at once (a refused recipient, a refused
 * connection) show from the test's start. Other types answer within seconds: shown as they end.
 */
export function asSeenAt(m: SimMonitor, r: TestResult, now: number): TestResult {
  if (!m.smtp) return r;
  if (r.term !== null ? now >= r.term : r.error !== OUTAGE_ERROR) return r;
  if (now < r.t + (m.ttl > 0 ? m.ttl : MAX_REPLY_SECONDS)) return { t: r.t, k: r.k, h: r.h, complete: false, ms: null, term: null, error: null, inFlight: true };
  if (r.term === null) return r;
  return { t: r.t, k: r.k, h: r.h, complete: false, ms: null, term: null, error: `no reply within the ttl of ${m.ttl} s` };
}

/**
 * What a failed test of each type says: first what it reports when nothing answers (an outage),
 * then the other failures a random one draws from. Types the service does not list get the last row.
 */
const FAILURES: Record<MonitorKind | 'other', readonly [string, ...string[]]> = {
  smtp: [
    OUTAGE_ERROR,
    'connect to the delivery host failed: connection refused',
    '451 4.3.0 temporary server error, please try again later',
    '550 5.1.1 test account mailbox unavailable',
    'TLS handshake with the delivery host failed',
  ],
  http: [
    'connection timed out: no response from the web server',
    'connection refused',
    'HTTP 503 Service Unavailable',
    'HTTP 500 Internal Server Error',
    'TLS handshake failed: certificate has expired',
  ],
  ping: ['no reply: 100% packet loss', 'destination host unreachable'],
  'dns query': ['no answer: the query timed out', 'SERVFAIL: the name server failed to answer', 'REFUSED: the name server refused the query'],
  'tcp port': ['connection timed out', 'connection refused', 'connection reset by peer'],
  'ssh port': ['connection timed out', 'connection refused', 'no SSH banner: the server closed the connection'],
  other: ['no answer from the host', 'connection timed out', 'connection refused'],
};

export function failureTexts(kind: MonitorKind | undefined): readonly [string, ...string[]] {
  return FAILURES[kind ?? 'other'];
}

export function inOutage(outages: readonly Outage[], t: number): boolean {
  for (const o of outages) if (o.start < t && t <= o.until) return true;
  return false;
}

export function testResult(cfg: SimConfig, m: SimMonitor, slot: Slot): TestResult {
  if (m.hashSeed !== cfg.seed || m.hash === undefined) {
    m.hash = monitorHash(cfg.seed, m.id);
    m.hashSeed = cfg.seed;
  }
  const h = slotHash(m.hash, slot.k);
  const { t, k } = slot;
  if (m.outages.length && inOutage(m.outages, t)) return { t, k, h, complete: false, ms: null, term: null, error: m.errors[0] };
  if (m.roundTrip === 'no-forwarder') return { t, k, h, complete: false, ms: null, term: null, error: OUTAGE_ERROR };
  if (m.roundTrip === 'refused') return { t, k, h, complete: false, ms: null, term: null, error: REFUSED_ERROR };
  if (m.roundTrip === 'late') {
    const seconds = (m.ttl > 0 ? m.ttl : MAX_REPLY_SECONDS) + (m.ttl > 0 ? LATE_BY_SECONDS : 0);
    const term = t + seconds;
    if (m.ttl > 0) return { t, k, h, complete: false, ms: seconds * 1000, term, error: `reply after ${seconds} s, past the ttl of ${m.ttl} s` };
    return { t, k, h, complete: true, ms: seconds * 1000, term, error: null };
  }
  if (uniform(h, 0) < cfg.failureRate) {
    const list = m.errors;
    return { t, k, h, complete: false, ms: null, term: null, error: list[Math.floor(uniform(h, 1) * list.length)] as string };
  }
  // SMTP round trips: mostly seconds, a few slow enough to pass small ttls (about 5% over 30 s,
  // 2% over a minute). Other types answer in milliseconds.
  const r = uniform(h, 2);
  const v = uniform(h, 3);
  let ms: number;
  if (m.smtp) ms = r < 0.93 ? 1500 + v * 13_500 : r < 0.98 ? 15_000 + v * 45_000 : 60_000 + v * (MAX_REPLY_SECONDS * 1000 - 60_000);
  else ms = r < 0.95 ? 20 + v * 280 : 300 + v * 2700;
  ms = Math.round(ms);
  const seconds = m.smtp ? Math.max(1, Math.round(ms / 1000)) : Math.ceil(ms / 1000);
  const term = t + seconds;
  if (m.ttl > 0 && ms > m.ttl * 1000) {
    const shown = m.smtp ? seconds : ms / 1000;
    return { t, k, h, complete: false, ms, term, error: `reply after ${shown} s, past the ttl of ${m.ttl} s` };
  }
  return { t, k, h, complete: true, ms, term, error: null };
}

/** Test data object (API 2.7); `completeField` is `flag` where the service's sample names it so. */
export function renderTestData(m: SimMonitor, r: TestResult, completeField: 'complete' | 'flag' = 'complete'): Record<string, unknown> {
  let duration: number | null = null;
  if (r.ms !== null) duration = m.durationInMs ? r.ms : r.term !== null ? r.term - r.t : null;
  return {
    duration,
    error: r.error,
    [completeField]: r.complete,
    time_init: zonedIso(r.t * 1000, m.timeZone),
    // A late reply (past the ttl) did arrive, but the test never completed.
    time_term: r.term === null ? null : zonedIso(r.term * 1000, m.timeZone),
    utc_mktime: r.t,
    utc_time_init: utcIso(r.t * 1000),
    utc_time_term: r.complete && r.term !== null ? utcIso(r.term * 1000) : null,
  };
}

export interface Hop {
  source: string;
  destination: string;
  time: number;
  duration: number;
}

const PROBE = 'probe.mailive.example';
const INBOUND = 'inbound.mailive.example';

/**
 * The path of a test message that came back (late or not): 2 to 4 hops from the probe to the
 * delivery host and back, whole seconds summing to the round trip.
 */
export function hopsOf(m: SimMonitor, r: TestResult): Hop[] | null {
  if (!m.smtp || r.term === null) return null;
  const total = r.term - r.t;
  const n = 2 + Math.min(2, Math.floor(uniform(r.h, 10) * 3));
  const target = m.target === 'mx' ? `mx.${m.domain}` : m.target === 'mx:failover' ? (uniform(r.h, 11) < 0.9 ? `mx1.${m.domain}` : `mx2.${m.domain}`) : m.target;
  const middle = [`mailstore.${m.domain}`, `relay.${m.domain}`].slice(0, n - 2);
  const hosts = [PROBE, target, ...middle, INBOUND];
  const weights = Array.from({ length: n }, (_, i) => 0.2 + uniform(r.h, 20 + i));
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts = weights.map((w) => Math.floor((total * w) / sum));
  parts[n - 1] = (parts[n - 1] as number) + total - parts.reduce((a, b) => a + b, 0);
  const hops: Hop[] = [];
  let time = r.t;
  for (let i = 0; i < n; i++) {
    const duration = parts[i] as number;
    hops.push({ source: hosts[i] as string, destination: hosts[i + 1] as string, time, duration });
    time += duration;
  }
  return hops;
}

// ---------------------------------------------------------------------------------------------
// The last successful reply, for the minute-by-minute alert checks.

/**
 * Follows one monitor forward minute by minute: the time of its latest successful reply that had
 * arrived by the last check. Built from the pure results, so it can be dropped and rebuilt at any
 * time (after a settings change) with the same outcome.
 */
export class SuccessTracker {
  private next: Slot | null;
  private pending: number[] = [];
  lastSuccess: number;

  constructor(
    private readonly cfg: SimConfig,
    private readonly m: SimMonitor,
    at: number,
  ) {
    this.next = slotAfter(m.segments, at);
    this.lastSuccess = m.created;
    // Walk back from `at` to the latest reply that arrived by then; outages are skipped whole.
    // A reply takes at most MAX_REPLY_SECONDS, so once the slots are older than the best reply by
    // more than that nothing earlier can beat it.
    const floor = at - retentionOf(cfg);
    let slot = slotAtOrBefore(m.segments, at);
    while (slot && slot.t >= floor && slot.t + MAX_REPLY_SECONDS >= this.lastSuccess) {
      const t = slot.t;
      const outage = m.outages.find((o) => o.start < t && t <= o.until);
      if (outage) {
        slot = slotAtOrBefore(m.segments, outage.start);
        continue;
      }
      const r = testResult(cfg, m, slot);
      if (r.complete && r.term !== null) {
        if (r.term <= at) this.lastSuccess = Math.max(this.lastSuccess, r.term);
        else this.pending.push(r.term);
      }
      slot = slotAtOrBefore(m.segments, slot.t - 1);
    }
  }

  /** Moves to the check at `at` (later than the previous one). */
  advance(at: number): number {
    while (this.next && this.next.t <= at) {
      const r = testResult(this.cfg, this.m, this.next);
      if (r.complete && r.term !== null) this.pending.push(r.term);
      this.next = slotAfter(this.m.segments, this.next.t);
    }
    if (this.pending.length) {
      const still: number[] = [];
      for (const term of this.pending) {
        if (term <= at) this.lastSuccess = Math.max(this.lastSuccess, term);
        else still.push(term);
      }
      this.pending = still;
    }
    return this.lastSuccess;
  }
}
