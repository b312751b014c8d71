import { describe, expect, it } from 'vitest';
import { cronProblem, localToInstant, occurrences, openAt, parseLocal, weeklyCron } from '../../src/config/maintenance-time.js';

const t = (iso: string) => Date.parse(iso);
const london = (cron: string, duration_seconds: number) => ({ kind: 'cron' as const, cron, duration_seconds, time_zone: 'Europe/London' });

describe('maintenance window times', () => {
  it('reads a one-off local time in its time zone', () => {
    expect(localToInstant(parseLocal('2026-12-01T22:00')!, 'America/New_York')).toBe(t('2026-12-02T03:00:00Z'));
    expect(localToInstant(parseLocal('2026-07-01T22:00')!, 'America/New_York')).toBe(t('2026-07-02T02:00:00Z'));
  });

  it('moves a local time the clocks skip to the moment they go forward (01:30 London, 29 March 2026, is 02:00 BST)', () => {
    expect(localToInstant(parseLocal('2026-03-29T01:30')!, 'Europe/London')).toBe(t('2026-03-29T01:00:00Z'));
  });

  it('takes the first of a local time that happens twice (01:30 London, 25 October 2026, is 01:30 BST)', () => {
    expect(localToInstant(parseLocal('2026-10-25T01:30')!, 'Europe/London')).toBe(t('2026-10-25T00:30:00Z'));
  });

  it('refuses dates that do not exist', () => {
    expect(parseLocal('2026-02-30T01:00')).toBeUndefined();
    expect(parseLocal('2026-13-01T01:00')).toBeUndefined();
    expect(parseLocal('2026-01-01T24:00')).toBeUndefined();
  });

  it('starts a recurring occurrence in the skipped hour when the clocks go forward, and it lasts its elapsed duration', () => {
    const [o] = occurrences(london('30 1 * * *', 7200), t('2026-03-28T12:00:00Z'), t('2026-03-29T12:00:00Z'));
    expect(o).toEqual({ startMs: t('2026-03-29T01:00:00Z'), endMs: t('2026-03-29T03:00:00Z') });
  });

  it('starts a recurring occurrence once, at the first 01:30, on the night the clocks go back', () => {
    const list = occurrences(london('30 1 * * *', 7200), t('2026-10-24T12:00:00Z'), t('2026-10-25T12:00:00Z'));
    expect(list).toEqual([{ startMs: t('2026-10-25T00:30:00Z'), endMs: t('2026-10-25T02:30:00Z') }]);
  });

  it('says an occurrence is open from its start up to, not including, its end', () => {
    const w = london('0 2 * * 2', 7200);
    expect(openAt(w, t('2026-12-01T01:59:59Z'))).toBeUndefined();
    expect(openAt(w, t('2026-12-01T02:00:00Z'))).toEqual({ startMs: t('2026-12-01T02:00:00Z'), endMs: t('2026-12-01T04:00:00Z') });
    expect(openAt(w, t('2026-12-01T03:59:59Z'))?.endMs).toBe(t('2026-12-01T04:00:00Z'));
    expect(openAt(w, t('2026-12-01T04:00:00Z'))).toBeUndefined();
  });

  it('turns the weekly form into cron', () => {
    expect(weeklyCron(['thu', 'tue'], '02:30')).toBe('30 2 * * 2,4');
    expect(weeklyCron(['sun'], '00:05')).toBe('5 0 * * 0');
  });

  it('refuses cron expressions that are not five fields, are not valid, or never fire; takes names, L and #', () => {
    expect(cronProblem('@daily')).toMatch(/has 1 field; write five/);
    expect(cronProblem('0 0 0 2 * *')).toMatch(/has 6 fields/);
    expect(cronProblem('0 0 30 2 *')).toBe('cron "0 0 30 2 *" never fires');
    expect(cronProblem('60 2 * * *')).toMatch(/is not valid: .*minute/);
    for (const ok of ['0 2 * * MON', '0 2 L * *', '0 2 * * 1#2', '*/15 1-3 * * 1-5']) expect(cronProblem(ok)).toBeUndefined();
  });
});
