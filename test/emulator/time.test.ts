/**
 * The emulator's zoned date-times come from an offset cached per quarter hour: the same text as
 * asking Intl for every instant, across daylight-saving changes, in zones off by 30 and 45 minutes.
 *
 * Where the cache could go wrong is at a change of offset, so the test finds every clock change of
 * 2026 in every zone Intl knows and compares the two, minute by minute (and to the millisecond at
 * the edge), for two hours either side of each; zones with no change that year are compared through
 * a day in winter and one in summer. That covers more than the former sweep of five 3-day windows
 * for six zones at a tenth of its cost (issue 34: the unit tier answers in a minute).
 */
import { describe, expect, it } from 'vitest';
import { zonedIso } from '../../src/emulator/time.js';

const reference = new Map<string, Intl.DateTimeFormat>();

/** What Intl says, through a formatter of its own (not the one src/emulator/time.ts caches). */
function direct(ms: number, timeZone: string): string {
  let fmt = reference.get(timeZone);
  if (!fmt) {
    fmt = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    reference.set(timeZone, fmt);
  }
  const p: Record<string, string> = {};
  for (const x of fmt.formatToParts(new Date(ms))) p[x.type] = x.value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

const offsetAt = (ms: number, zone: string) => Date.parse(`${direct(ms, zone)}Z`) - Math.floor(ms / 1000) * 1000;

const YEAR_START = Date.UTC(2026, 0, 1);
const YEAR_END = Date.UTC(2027, 0, 1);
const DAY = 86_400_000;
const MINUTE = 60_000;

/** The first millisecond of each new offset in 2026: a daily scan, then bisection to the millisecond. */
function clockChanges(zone: string): number[] {
  const changes: number[] = [];
  let before = offsetAt(YEAR_START, zone);
  for (let day = YEAR_START + DAY; day <= YEAR_END; day += DAY) {
    const after = offsetAt(day, zone);
    if (after === before) continue;
    let lo = day - DAY;
    let hi = day;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (offsetAt(mid, zone) === before) lo = mid;
      else hi = mid;
    }
    changes.push(hi);
    before = after;
  }
  return changes;
}

// Intl lists ICU's canonical names (Asia/Calcutta, Asia/Katmandu); the names people write are added.
const ZONES = [...new Set([...Intl.supportedValuesOf('timeZone'), 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Kolkata', 'UTC'])];
const CHANGES = new Map(ZONES.map((zone) => [zone, clockChanges(zone)]));

/** Instants where zonedIso and Intl differ, as `zone instant: got / want`. */
function mismatches(zone: string, instants: Iterable<number>): string[] {
  const out: string[] = [];
  for (const ms of instants) {
    const got = zonedIso(ms, zone);
    const want = direct(ms, zone);
    if (got !== want) out.push(`${zone} ${new Date(ms).toISOString()}: ${got} / ${want}`);
  }
  return out;
}

function* aroundChange(t: number): Generator<number> {
  // Every minute (off by 7 s, so both sides of a quarter-hour start are met), and the edge itself.
  for (let ms = t - 2 * 60 * MINUTE; ms < t + 2 * 60 * MINUTE; ms += MINUTE + 7_000) yield ms;
  yield* [t - 1, t, t + 1, t - 15 * MINUTE, t - 15 * MINUTE - 1, t + 15 * MINUTE - 1, t + 15 * MINUTE];
}

function* throughDay(start: number): Generator<number> {
  for (let ms = start; ms < start + DAY; ms += 37 * MINUTE + 7_000) yield ms;
}

describe('zonedIso', () => {
  it('finds the clock changes it is to be compared at (the scan itself works)', () => {
    expect(ZONES.length).toBeGreaterThan(300);
    // Europe/Berlin: 01:00 UTC on the last Sundays of March and October.
    expect(CHANGES.get('Europe/Berlin')).toEqual([Date.UTC(2026, 2, 29, 1), Date.UTC(2026, 9, 25, 1)]);
    // Lord Howe moves by half an hour: 02:00 local (15:00 UTC) on the first Sundays of April and October.
    expect(CHANGES.get('Australia/Lord_Howe')).toEqual([Date.UTC(2026, 3, 4, 15), Date.UTC(2026, 9, 3, 15, 30)]);
    expect(CHANGES.get('Asia/Kathmandu')).toEqual([]);
    expect([...CHANGES.values()].flat().length).toBeGreaterThan(100);
  });

  it('gives what Intl gives, minute by minute for two hours either side of every 2026 clock change of every zone', () => {
    const wrong = [...CHANGES].flatMap(([zone, changes]) => changes.flatMap((t) => mismatches(zone, aroundChange(t))));
    expect(wrong.slice(0, 20)).toEqual([]);
  });

  it('gives what Intl gives through a winter and a summer day in every zone, those off by 30 and 45 minutes too', () => {
    const wrong = ZONES.flatMap((zone) => [...mismatches(zone, throughDay(Date.UTC(2026, 0, 14))), ...mismatches(zone, throughDay(Date.UTC(2026, 6, 14)))]);
    expect(wrong.slice(0, 20)).toEqual([]);
    expect(zonedIso(Date.UTC(2026, 6, 14, 0, 5), 'Asia/Kathmandu')).toBe('2026-07-14T05:50:00');
    expect(zonedIso(Date.UTC(2026, 6, 14, 0, 5), 'Asia/Kolkata')).toBe('2026-07-14T05:35:00');
  });

  it('an unknown zone falls back to UTC', () => {
    expect(zonedIso(Date.UTC(2026, 0, 1, 12), 'Mars/Olympus')).toBe('2026-01-01T12:00:00');
  });
});
