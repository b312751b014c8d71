import { describe, expect, it } from 'vitest';
import type { ApplyResult, ChangeResult } from '../../src/apply/execute.js';
import {
  estimateLeftMs,
  renderApplyHeader,
  renderApplyQuestion,
  renderApplySummary,
  renderFinishedLine,
  renderLiveLine,
  renderNotStarted,
  renderStillDiffers,
  showsAsFinished,
} from '../../src/render/apply-text.js';

const r = (over: Partial<ChangeResult>): ChangeResult => ({
  ref: 'monitor:mx-eu-3',
  kind: 'monitor',
  action: 'create',
  key: 'mx-eu-3',
  status: 'done',
  id: '48790',
  ms: 212,
  attempts: 1,
  ...over,
});

const result = (results: ChangeResult[], over: Partial<ApplyResult> = {}): ApplyResult => ({
  results,
  done: results.filter((x) => x.status === 'done').length,
  failed: results.filter((x) => x.status === 'failed').length,
  skipped: results.filter((x) => x.status === 'skipped' && x.reason !== 'interrupted').length,
  notStarted: results.filter((x) => x.status === 'skipped' && x.reason === 'interrupted').length,
  ms: 912,
  interrupted: false,
  readbacks: 0,
  notKept: results.filter((x) => (x.notKept?.length ?? 0) > 0).length,
  ...over,
});

describe('renderFinishedLine', () => {
  it('renders done, failed and skipped changes like the mock-up', () => {
    expect(renderFinishedLine(r({}))).toBe('  + monitor "mx-eu-3" created (id 48790)');
    expect(renderFinishedLine(r({ action: 'update', key: 'mx-us-1', id: '48213', ms: 95 }))).toBe('  ~ monitor "mx-us-1" updated');
    expect(renderFinishedLine(r({ action: 'delete', key: 'mx-legacy', id: '40001', ms: 120 }))).toBe('  - monitor "mx-legacy" deleted');
    expect(
      renderFinishedLine(
        r({ kind: 'alert', key: 'mx-eu-3 / mx-eu-3 is DOWN', monitor: 'mx-eu-3', id: '99311', ms: 180 }),
      ),
    ).toBe('  + alert "mx-eu-3" / "mx-eu-3 is DOWN" created (id 99311)');
    expect(
      renderFinishedLine(
        r({ key: 'mx-eu-4', status: 'failed', id: null, error: 'the service said "time_zone: unknown zone Europe/Berln" (POST /v1/Config/Monitor/)' }),
      ),
    ).toBe('  x monitor "mx-eu-4" failed: the service said "time_zone: unknown zone Europe/Berln" (POST /v1/Config/Monitor/)');
    expect(
      renderFinishedLine(
        r({ kind: 'alert', key: 'mx-eu-4 / mx-eu-4 is DOWN', monitor: 'mx-eu-4', status: 'skipped', id: null, reason: 'needs monitor "mx-eu-4"', ms: 0, attempts: 0 }),
      ),
    ).toBe('  . alert "mx-eu-4" / "mx-eu-4 is DOWN" skipped: needs monitor "mx-eu-4"');
  });

  it('says how a change got done when that is unusual', () => {
    expect(renderFinishedLine(r({ note: 'found after its answer was lost', attempts: 2, ms: 1500 }))).toBe(
      '  + monitor "mx-eu-3" created (id 48790; found after its answer was lost) 1.5 s (2 attempts)',
    );
    expect(renderFinishedLine(r({ action: 'delete', note: 'already gone' }))).toBe('  - monitor "mx-eu-3" deleted (already gone)');
    expect(renderFinishedLine(r({ status: 'failed', id: null, attempts: 4, error: 'HTTP 503 (PUT /x/)' }))).toBe(
      '  x monitor "mx-eu-3" failed after 4 attempts: HTTP 503 (PUT /x/)',
    );
  });

  it('colours only when asked', () => {
    const coloured = renderFinishedLine(r({}), { color: true });
    expect(coloured).toContain('\x1b[');
    expect(coloured.replace(/\x1b\[[0-9;]*m/g, '')).toBe(renderFinishedLine(r({})));
  });
});

describe('finished changes and the live line on long applies', () => {
  // Every finished change said "0.0 s" or "0.1 s": noise on a thousand lines. A time is shown when
  // it stands out, and a long apply says how long it has left.
  it('shows a change\'s time only from a second on, with its attempts', () => {
    expect(renderFinishedLine(r({ ms: 999 }))).toBe('  + monitor "mx-eu-3" created (id 48790)');
    expect(renderFinishedLine(r({ ms: 1000 }))).toBe('  + monitor "mx-eu-3" created (id 48790) 1.0 s');
    expect(renderFinishedLine(r({ ms: 300, attempts: 3 }))).toBe('  + monitor "mx-eu-3" created (id 48790) (3 attempts)');
  });

  it('estimates the time left from the pace so far, once 5 s have passed', () => {
    expect(estimateLeftMs(100, 2000, 4999)).toBeNull();
    expect(estimateLeftMs(0, 2000, 60_000)).toBeNull();
    expect(estimateLeftMs(2000, 2000, 60_000)).toBeNull();
    expect(estimateLeftMs(100, 2000, 10_000)).toBe(190_000);
    expect(renderLiveLine({ done: 100, total: 2000, elapsedMs: 10_000, running: ['+ monitor "a"'], width: 100 })).toBe(
      '  [100/2,000] 10.0 s, about 3 min left  + monitor "a"',
    );
    expect(renderLiveLine({ done: 50, total: 60, elapsedMs: 10_000, running: [] })).toBe('  [50/60] 10.0 s, about 5 s left');
    expect(renderLiveLine({ done: 30, total: 100, elapsedMs: 15_000, running: [] })).toBe('  [30/100] 15.0 s, about 35 s left');
    expect(renderLiveLine({ done: 1, total: 3, elapsedMs: 4000, running: [] })).toBe('  [1/3] 4.0 s');
  });

  it('asks naming the account the changes go to', () => {
    expect(renderApplyQuestion({ changes: 12, url: 'https://api.knowledgefront.com', user: 'mail-team' })).toBe(
      '\nApply 12 changes to https://api.knowledgefront.com (mail-team)? Only "yes" will be accepted: ',
    );
    expect(renderApplyQuestion({ changes: 1, url: 'http://127.0.0.1:8181' })).toBe('\nApply 1 change to http://127.0.0.1:8181? Only "yes" will be accepted: ');
  });
});

describe('renderLiveLine', () => {
  it('shows progress, time and what is in flight', () => {
    expect(
      renderLiveLine({ done: 5, total: 7, elapsedMs: 600, running: ['~ alert "mx-us-1" / "mx-us-1 is DOWN"', '~ group "production"'], width: 100 }),
    ).toBe('  [5/7] 0.6 s  ~ alert "mx-us-1" / "mx-us-1 is DOWN", ~ group "production"');
    expect(renderLiveLine({ done: 0, total: 3, elapsedMs: 0, running: [] })).toBe('  [0/3] 0.0 s');
  });

  it('never reaches the last column of the terminal', () => {
    const running = Array.from({ length: 20 }, (_, i) => `+ monitor "mx-${i}"`);
    for (const width of [20, 40, 80, 132]) {
      const line = renderLiveLine({ done: 1, total: 40, elapsedMs: 1234, running, width });
      expect(line.length).toBeLessThan(width);
      expect(line.endsWith('...')).toBe(true);
      expect(line.startsWith('  [1/40] 1.2 s  ')).toBe(true);
    }
  });
});

describe('renderApplySummary', () => {
  it('counts what was added, changed and destroyed when everything was done', () => {
    const all = [
      r({}),
      r({ ref: 'a' }),
      r({ action: 'update' }),
      r({ action: 'update' }),
      r({ action: 'update' }),
      r({ action: 'update' }),
      r({ action: 'delete' }),
    ];
    expect(renderApplySummary(result(all), { requests: 11, retries: 0 })).toBe(
      'Apply complete: 2 added, 4 changed, 1 destroyed in 0.9 s (11 requests, 0 retries).',
    );
    expect(renderApplySummary(result([r({})]), { requests: 2, retries: 1 })).toBe(
      'Apply complete: 1 added, 0 changed, 0 destroyed in 0.9 s (2 requests, 1 retry).',
    );
  });

  it('says the apply is incomplete or interrupted and what to do next', () => {
    const mixed = [r({}), r({ status: 'failed', id: null, error: 'x' }), r({ status: 'skipped', id: null, reason: 'needs x' })];
    expect(renderApplySummary(result(mixed), { requests: 3, retries: 0 })).toBe(
      'Apply incomplete: 1 done, 1 failed, 1 skipped. Run plan again to see what is left.',
    );
    expect(renderApplySummary(result([r({}), r({ status: 'failed', id: null, error: 'x; interrupted before retrying' })], { interrupted: true }), { requests: 1, retries: 0 })).toBe(
      'Apply interrupted: 1 done, 1 failed, 0 skipped. Run plan again to see what is left.',
    );
  });

  it('gives no advice to plan again when apply itself plans again right after (what is left is printed next)', () => {
    const mixed = [r({}), r({ status: 'failed', id: null, error: 'x' }), r({ status: 'skipped', id: null, reason: 'needs x' })];
    expect(renderApplySummary(result(mixed), { requests: 3, retries: 0 }, { planFollows: true })).toBe('Apply incomplete: 1 done, 1 failed, 1 skipped.');
  });

  it('counts what an interruption left unstarted in one line, however many', () => {
    const notStarted = (i: number) => r({ ref: `m${i}`, key: `mx-${i}`, status: 'skipped', id: null, reason: 'interrupted', ms: 0, attempts: 0 });
    const many = [r({}), r({ status: 'skipped', id: null, reason: 'needs x' }), ...Array.from({ length: 2107 }, (_, i) => notStarted(i))];
    expect(renderApplySummary(result(many, { interrupted: true }), { requests: 1, retries: 0 })).toBe(
      'Apply interrupted: 1 done, 0 failed, 1 skipped, 2,107 not started. Run plan again to see what is left.',
    );
    // Not listed one by one as they finish; named afterwards only when there are few.
    expect(many.filter(showsAsFinished)).toHaveLength(2);
    expect(renderNotStarted(result(many, { interrupted: true }))).toEqual([]);
    const few = [r({}), notStarted(1), notStarted(2)];
    expect(renderNotStarted(result(few, { interrupted: true }))).toEqual(['  . monitor "mx-1" not started', '  . monitor "mx-2" not started']);
    expect(renderNotStarted(result(Array.from({ length: 5 }, (_, i) => notStarted(i)), { interrupted: true }))).toHaveLength(5);
    expect(renderNotStarted(result(Array.from({ length: 6 }, (_, i) => notStarted(i)), { interrupted: true }))).toEqual([]);
  });

  it('has a header line', () => {
    expect(renderApplyHeader(7, 8)).toBe('Applying 7 changes with parallelism 8');
    expect(renderApplyHeader(1, 1)).toBe('Applying 1 change with parallelism 1');
  });
});

describe('writes the service did not keep (issue 23)', () => {
  const lost = r({ action: 'update', notKept: ['the service stored time_zone "America/New_York" for "US/Eastern": write that value in the configuration'] });

  it('are named under their line, each field on its own line, terminal-safe', () => {
    expect(renderFinishedLine(lost).split('\n')).toEqual([
      expect.stringMatching(/^ {2}~ monitor "mx-eu-3" updated/),
      '      ! not kept: the service stored time_zone "America/New_York" for "US/Eastern": write that value in the configuration',
    ]);
    expect(renderFinishedLine(r({ action: 'update', notKept: ['stored "\u202e"'] }))).toContain('stored "\\u202e"');
  });

  it('make the summary incomplete, counted', () => {
    expect(renderApplySummary(result([r({}), lost]), { requests: 2, retries: 0 }, { planFollows: true })).toBe(
      'Apply incomplete: 2 done, 0 failed, 0 skipped, 1 not kept by the service.',
    );
  });

  it('and a check afterwards that still plans changes are said once, with exit 4', () => {
    expect(renderStillDiffers(0, 0)).toBeNull();
    expect(renderStillDiffers(null, 0)).toBeNull();
    expect(renderStillDiffers(1, 1)).toBe(
      'Error: the account still differs from the configuration after apply (1 change, shown above): the service did not keep 1 write as sent (marked "not kept" above); exit 4.',
    );
    expect(renderStillDiffers(null, 2)).toBe(
      'Error: the account still differs from the configuration after apply: the service did not keep 2 writes as sent (marked "not kept" above); exit 4.',
    );
  });
});
