/**
 * Reuse across files (issue 29): monitor templates and alert sets defined once (`templates:`) and
 * used by name from other files, with messages pointing at both the definition and the use. Every
 * case runs on the fast path and the full one: the same data and positions.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatDiagnostics, loadConfig } from '../../src/config/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'monsync-templates-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const STANDARDS = `version: 1
templates:
  monitors:
    standard-mx:
      timer: 10
      time_zone: Europe/London
      test_account: probe@example.com
  alert_sets:
    standard:
      - subject_init: mail down
        subject_term: mail up
        timeout: 15
        alert_destinations: [ops-mail]
`;
const user = (label: string, extra = '') => `version: 1
monitors:
  - label: ${label}
    template: standard-mx
    alert_set: standard
    ip_address: ${label}.example.com
${extra}`;

async function load(files: Record<string, string>, fullPath: boolean) {
  const sub = await mkdtemp(join(dir, 'c-'));
  for (const [name, text] of Object.entries(files)) await writeFile(join(sub, name), text);
  return loadConfig(Object.keys(files), { cwd: sub, env: {}, fullPath });
}

const problems = (r: Awaited<ReturnType<typeof load>>) => ('diagnostics' in r ? formatDiagnostics(r.diagnostics, '/').split('\n').filter(Boolean) : []);

describe.each([false, true])('templates (full path only: %s)', (fullPath) => {
  it('a shared alert set and monitor template used from two files give each monitor the fields and the alert, positioned at the definition', async () => {
    const r = await load({ 'standards.yaml': STANDARDS, 'eu.yaml': user('mx-eu'), 'us.yaml': user('mx-us') }, fullPath);
    expect(problems(r)).toEqual([]);
    if (!('state' in r)) return;
    for (const label of ['mx-eu', 'mx-us']) {
      const m = r.state.monitors.find((x) => x.label === label)!;
      expect(m.spec).toMatchObject({ timer: 10, time_zone: 'Europe/London', ip_address: `${label}.example.com` });
      expect(m.alerts.map((a) => [a.monitor, a.subject_init, a.timeout, a.alert_destinations, a.source.file, a.source.line, a.source.column])).toEqual([
        [label, 'mail down', 15, ['ops-mail'], 'standards.yaml', 10, 9],
      ]);
    }
  });

  it("an alert of the set that repeats the monitor's own subject is reported at the set's alert, naming the monitor's alert and where the set is used", async () => {
    const own = '    alerts:\n      - subject_init: mail down\n        subject_term: back\n        timeout: 20\n';
    const r = await load({ 'standards.yaml': STANDARDS, 'eu.yaml': user('mx-eu'), 'us.yaml': user('mx-us', own) }, fullPath);
    expect(problems(r)).toEqual([
      'standards.yaml:10:23: monitor "mx-us" already has an alert with subject_init "mail down" (at us.yaml:8:23); subject_init identifies an alert on its monitor (alert set "standard", used at us.yaml:5:16)',
    ]);
  });

  it("a bad value in a template is reported at the template's field and the monitor's template:", async () => {
    const r = await load({ 'standards.yaml': STANDARDS.replace('Europe/London', 'Europe/Londn'), 'eu.yaml': user('mx-eu') }, fullPath);
    expect(problems(r)).toHaveLength(1);
    expect(problems(r)[0]).toMatch(/^standards\.yaml:6:18: .*Europe\/Londn.* \(monitor template "standard-mx", used at eu\.yaml:4:15\)$/);
  });

  it('an unknown name is reported at the use, with the closest defined one', async () => {
    const r = await load({ 'standards.yaml': STANDARDS, 'eu.yaml': user('mx-eu').replace('alert_set: standard', 'alert_set: standrd') }, fullPath);
    expect(problems(r)).toEqual(['eu.yaml:5:16: no alert set named "standrd" (did you mean "standard"?); templates.alert_sets defines "standard"']);
  });

  it('a name defined in two files is reported at the second, naming the first', async () => {
    const again = 'version: 1\ntemplates:\n  alert_sets:\n    standard: []\n';
    const r = await load({ 'standards.yaml': STANDARDS, 'more.yaml': again, 'eu.yaml': user('mx-eu') }, fullPath);
    expect(problems(r)).toContain('more.yaml:4:5: alert set "standard" is already defined at standards.yaml:9:5; define each name once');
  });
});
