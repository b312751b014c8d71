/**
 * `settings` and `defaults` may appear in at most one file (the schema's descriptions): a
 * second definition is an error, a copy with the same values too. A file whose `defaults` conflict
 * still has everything else wrong with it reported in the same run.
 */
import { describe, expect, it } from 'vitest';
import { brief, diagnosticsOf, loadFiles } from './helpers.js';

const SETTINGS = 'version: 1\nsettings:\n  owner: mail-team\n';
const DEFAULTS = 'version: 1\ndefaults:\n  monitor: { timer: 5, time_zone: Europe/London }\n';

describe('settings and defaults in one file only', () => {
  it('refuses settings copied identically into a second file, at the copy', async () => {
    const result = await loadFiles({ 'a.yaml': SETTINGS, 'b.yaml': `# copy\n${SETTINGS}` });
    expect(diagnosticsOf(result).map(brief)).toEqual([
      {
        file: 'b.yaml',
        line: 3,
        column: 1,
        message: 'settings is also defined at a.yaml:2:1 (the same values); define settings in one file only: remove this copy',
      },
    ]);
  });

  it('refuses defaults copied identically into a second file, at the copy', async () => {
    const result = await loadFiles({ 'a.yaml': DEFAULTS, 'b.yaml': DEFAULTS });
    expect(diagnosticsOf(result).map(brief)).toEqual([
      {
        file: 'b.yaml',
        line: 2,
        column: 1,
        message: 'defaults is also defined at a.yaml:2:1 (the same values); define defaults in one file only: remove this copy',
      },
    ]);
  });

  it('reports what is wrong in a file whose defaults conflict in the same run, judged under its own defaults', async () => {
    const second =
      'version: 1\n' +
      'defaults:\n' +
      '  monitor: { timer: 10, time_zone: Mars/Base, ip_address: mx.example.com }\n' +
      'monitors:\n' +
      '  - label: mx-1\n' +
      '    test_account: probe@example.com\n' +
      '  - label: mx-2\n' +
      '    test_account: probe@example.com\n' +
      '    ip_address: "bad host!"\n';
    const result = await loadFiles({ 'a.yaml': DEFAULTS, 'b.yaml': second });
    expect(diagnosticsOf(result).map((d) => `${d.file}:${d.line}:${d.column}: ${d.message}`)).toEqual([
      'b.yaml:2:1: defaults is also defined at a.yaml:2:1 with different values; define defaults in one file only',
      // Once, at the default, not at each monitor using it; no "has no ip_address": b.yaml's default gives one.
      'b.yaml:3:36: unknown time zone "Mars/Base" (use a tz database name such as "Europe/London")',
      'b.yaml:9:17: ip_address must be a host name, an IP address, mx or mx:failover (got the text "bad host!"): the part "bad host!" may hold only letters, digits and "-", and not start or end with "-"',
    ]);
  });
});
