/**
 * The progress printer of plan and apply (src/cli/progress.ts): in a log each event is a line; on a
 * terminal the account is one line that shows time passing while a slow read lasts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { printProgress } from '../../src/cli/progress.js';
import type { PlanProgress } from '../../src/workflow/events.js';
import { captureIo, lines } from '../helpers/io.js';

const reading: PlanProgress = { kind: 'reading', url: 'https://api.example.com', user: 'mail-team' };
const configuration: PlanProgress = { kind: 'configuration', files: 1, monitors: 2, alerts: 0, groups: 0 };
const account: PlanProgress = { kind: 'account', url: 'https://api.example.com', monitors: 3, smtpMonitors: 2, alerts: 0, groups: 0, destinations: 1, ms: 1234, requests: 4 };

/** The rows a terminal shows after `text`: \r returns, ESC[2K clears the row. */
function screen(text: string): string[] {
  const rows: string[] = [''];
  for (const part of text.split(/(\r|\n|\x1b\[2K)/)) {
    if (part === '\n') rows.push('');
    else if (part === '\x1b[2K') rows[rows.length - 1] = '';
    else if (part !== '\r') rows[rows.length - 1] += part;
  }
  return rows;
}

afterEach(() => {
  vi.useRealTimers();
});

describe('printProgress', () => {
  it('in a log: which account before the read, what it held after, each a line', () => {
    const io = captureIo({});
    const print = printProgress(io);
    for (const p of [configuration, reading, account, { kind: 'account-failed' } as const]) print(p);
    expect(lines(io.stderr)).toEqual([
      'Reading 1 file ... 2 monitors, 0 alerts, 0 groups declared.',
      'Reading account https://api.example.com (mail-team) ...',
      'Read 3 monitors (2 SMTP), 0 alerts, 0 groups, 1 destination (1.2 s, 4 requests)',
    ]);
  });

  it('on a terminal: one line, a spinner with the seconds while the read is slow, then the counts in its place', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const io = captureIo({}, { columns: 80 });
    const print = printProgress(io);
    print(reading);
    vi.advanceTimersByTime(200);
    expect(screen(io.stderr)).toEqual(['Reading account https://api.example.com (mail-team) ... ']);
    vi.advanceTimersByTime(2000);
    expect(screen(io.stderr)).toEqual([expect.stringMatching(/^Reading account https:\/\/api\.example\.com \(mail-team\) \.\.\. [⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏] 2 s$/)]);
    // Another line meanwhile goes above it.
    print(configuration);
    print(account);
    expect(screen(io.stderr)).toEqual([
      'Reading 1 file ... 2 monitors, 0 alerts, 0 groups declared.',
      'Reading account https://api.example.com (mail-team) ... 3 monitors (2 SMTP), 0 alerts, 0 groups, 1 destination (1.2 s, 4 requests)',
      '',
    ]);
    const written = io.stderr.length;
    vi.advanceTimersByTime(1000);
    expect(io.stderr.length).toBe(written);
  });

  it('on a terminal: a failed read ends the line with "failed."', () => {
    const io = captureIo({}, { columns: 80 });
    const print = printProgress(io);
    print(reading);
    print({ kind: 'account-failed' });
    expect(screen(io.stderr)).toEqual(['Reading account https://api.example.com (mail-team) ... failed.', '']);
  });
});
