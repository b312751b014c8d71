/** fmt and the `maintenance:` section: the order users write (the sample) is the canonical one. */
import { describe, expect, it } from 'vitest';
import { formatted } from './helpers.js';

const lines = (...l: string[]) => `${l.join('\n')}\n`;

const SAMPLE = lines(
  'version: 1',
  'maintenance:',
  '  - name: patch-tuesday',
  '    monitors: ["mx-eu-*"] # labels or globs',
  '    groups: [production]',
  '    cron: "0 2 * * 2"',
  '    duration: 2h',
  '    time_zone: Europe/London',
  '  - name: us-migration',
  '    monitors: [mx-us-1]',
  '    start: "2026-12-01T22:00"',
  '    end: "2026-12-02T02:00"',
  '    time_zone: America/New_York',
);

describe('fmt of maintenance windows', () => {
  it('keeps the key order of docs/maintenance.md\'s sample; only quotes YAML does not need go', async () => {
    expect(await formatted(SAMPLE)).toBe(SAMPLE.replace(/"([^"]*)"/g, '$1'));
  });

  it('puts the keys of a window in that order: name, what it covers, when, time_zone last', async () => {
    const scrambled = lines(
      'version: 1',
      'maintenance:',
      '  - time_zone: UTC',
      '    weekly: { at: "04:00", days: [sun] }',
      '    duration: 30m',
      '    groups: [g]',
      '    name: sunday',
      '    monitors: [m]',
    );
    expect(await formatted(scrambled)).toBe(
      lines('version: 1', 'maintenance:', '  - name: sunday', '    monitors: [m]', '    groups: [g]', '    weekly: { days: [sun], at: "04:00" }', '    duration: 30m', '    time_zone: UTC'),
    );
  });
});
