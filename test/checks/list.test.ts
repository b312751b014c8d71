/** `monsync checks`: the catalogue as text and JSON, in-process. */
import { describe, expect, it } from 'vitest';
import { CHECKS } from '../../src/checks/index.js';
import { runChecksList } from '../../src/cli/checks.js';
import { captureIo } from '../helpers/io.js';

describe('monsync checks', () => {
  it('lists every check with its severity, what it needs and its whole explanation', async () => {
    const io = captureIo({});
    expect(await runChecksList([], {}, io)).toBe(0);
    expect(io.stdout).toMatch(/^22 checks\. Set a severity \(error, warning, off\) with\nsettings\.checks; silence a check on one monitor, alert or group with disable_checks\.\n\n/);
    expect(io.stdout).toContain('alert/missing                      warning  needs the configuration\n    A managed monitor has no alert: when its mail server fails, nobody is told.\n');
    expect(io.stdout).toContain('monitor/ip-version-mismatch        warning  needs the configuration\n');
    expect(io.stdout).toContain('alert/unreachable                  warning  needs the configuration, account\n');
    const flat = io.stdout.replace(/\n {4}/g, ' ');
    for (const c of CHECKS) expect(flat).toContain(c.explanation);
    for (const line of io.stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(100);
    expect(io.stderr).toBe('');
  });

  it('--json gives each check as data', async () => {
    const io = captureIo({});
    expect(await runChecksList([], { json: true }, io)).toBe(0);
    const { checks } = JSON.parse(io.stdout) as { checks: Record<string, string>[] };
    expect(checks.map((c) => c.name)).toEqual(CHECKS.map((c) => c.name));
    expect(checks[0]).toEqual({
      name: 'alert/missing',
      severity: 'warning',
      default_severity: 'warning',
      needs: 'configuration',
      explanation: 'A managed monitor has no alert: when its mail server fails, nobody is told.',
    });
  });
});
