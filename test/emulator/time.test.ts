/**
 * The emulator's zoned date-times come from an offset cached per quarter hour: the same text as
 * asking Intl for every instant, across daylight-saving changes, in zones off by 30 and 45 minutes.
 */
import { describe, expect, it } from 'vitest';
import { zonedIso } from '../../src/emulator/time.js';

function direct(ms: number, timeZone: string): string {
  const fmt = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const p: Record<string, string> = {};
  for (const x of fmt.formatToParts(new Date(ms))) p[x.type] = x.value;
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

describe('zonedIso', () => {
  it.each(['Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Asia/Kolkata', 'UTC'])(
    'in %s gives what Intl gives, minute by minute around the 2026 clock changes',
    (zone) => {
      const windows = [Date.UTC(2026, 2, 28), Date.UTC(2026, 3, 4), Date.UTC(2026, 9, 3), Date.UTC(2026, 9, 24), Date.UTC(2026, 10, 1)];
      for (const start of windows) {
        for (let ms = start; ms < start + 3 * 86_400_000; ms += 60_000 + 7_000) expect(zonedIso(ms, zone), `${zone} ${new Date(ms).toISOString()}`).toBe(direct(ms, zone));
      }
    },
  );

  it('an unknown zone falls back to UTC', () => {
    expect(zonedIso(Date.UTC(2026, 0, 1, 12), 'Mars/Olympus')).toBe('2026-01-01T12:00:00');
  });
});
