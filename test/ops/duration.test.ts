import { describe, expect, it } from 'vitest';
import { DurationError, formatDuration, parseDuration } from '../../src/util/duration.js';
import { UserError } from '../../src/util/errors.js';

describe('parseDuration', () => {
  it.each([
    ['90s', 90],
    ['30m', 1800],
    ['2h', 7200],
    ['1d', 86_400],
    ['45', 45],
    ['3600', 3600],
    ['1h30m', 5400],
    ['1d2h3m4s', 93_784],
    ['1h 30m', 5400],
    [' 30m ', 1800],
    ['30M', 1800],
    ['+30m', 1800],
    ['10min', 600],
    ['2hours', 7200],
    ['1', 1],
  ])('%j is %i seconds', (text, seconds) => {
    expect(parseDuration(text)).toBe(seconds);
  });

  it.each([
    ['0', /is zero/],
    ['0m', /is zero/],
    ['0h0m', /is zero/],
    ['-5m', /negative/],
    ['-30', /negative/],
    ['1.5h', /fraction.*90m rather than 1\.5h/],
    ['.5h', /fraction/],
    ['', /give a duration/],
    ['   ', /give a duration/],
    ['soon', /not a duration/],
    ['m', /not a duration/],
    ['30', null],
    ['30x', /unknown unit "x"/],
    ['5w', /unknown unit "w"/],
    ['30m2h', /out of order/],
    ['1h1h', /repeats a unit/],
    ['30m!', /not a duration/],
    ['h30', /not a duration/],
    ['99999999999999999999', /too long/],
  ])('%j is refused', (text, message) => {
    if (message === null) return expect(parseDuration(text)).toBe(30);
    expect(() => parseDuration(text, '--for')).toThrow(message);
    try {
      parseDuration(text, '--for');
    } catch (err) {
      // main() prints UserErrors as messages with exit 1: never a stack.
      expect(err).toBeInstanceOf(DurationError);
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message.startsWith('--for: ')).toBe(true);
    }
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0s'],
    [-5, '0s'],
    [45, '45s'],
    [60, '1m'],
    [1780, '29m 40s'],
    [1799.9, '29m 59s'],
    [3600, '1h'],
    [3630, '1h'],
    [5400, '1h 30m'],
    [86_400, '1d'],
    [93_784, '1d 2h'],
  ])('%d seconds reads %j', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it('gives more units when asked, and what it prints parses back to the same seconds', () => {
    expect(formatDuration(93_784, 4)).toBe('1d 2h 3m 4s');
    for (const s of [1, 59, 61, 3599, 3601, 86_399, 90_061, 1_000_000]) {
      expect(parseDuration(formatDuration(s, 4))).toBe(s);
    }
  });
});
