/**
 * The checks in `plan` and `apply`, end to end: the built CLI against the emulator (default seed:
 * the destination legacy-mail is unsubscribed). Warnings show in every face of the plan; an error
 * (or with --strict a warning) stops plan and apply before anything is shown, saved or written:
 * the emulator's request log then holds reads only.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { ROOT, expectCleanOutput, runCli } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import { Workspace, e2eSuite, state, writes } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const cli = (args: string[]) => runCli(args, { url: emu.url, cwd: ws.dir });

/** mx-quiet has no alert (alert/missing, offline); mx-lost's alert goes only to the unsubscribed legacy-mail (alert/unreachable, with the account). */
function config(extra: { settings?: string; monitors?: string } = {}): string {
  return [
    'version: 1',
    'settings:',
    '  owner: e2e',
    ...(extra.settings ? [extra.settings] : []),
    'defaults:',
    '  monitor: { time_zone: Europe/London, timer: 5, test_account: probe@example.com }',
    '  alert: { timeout: 15, alert_destinations: [ops-mail] }',
    'monitors:',
    '  - label: mx-quiet',
    '    ip_address: mx1.example.com',
    '  - label: mx-lost',
    '    ip_address: mx2.example.com',
    '    alerts:',
    '      - { subject_init: "mx-lost is DOWN", subject_term: "mx-lost is UP", alert_destinations: [legacy-mail] }',
    ...(extra.monitors ? [extra.monitors] : []),
    '',
  ].join('\n');
}

const QUIET = 'checks.yaml:8:5: warning alert/missing: monitor "mx-quiet" has no alert; nobody is told when it fails';
const LOST =
  'checks.yaml:13:9: warning alert/unreachable: alert "mx-lost is DOWN" on monitor "mx-lost" sends only to "legacy-mail", and it is unsubscribed: its messages are recorded, not delivered';

describe('plan', () => {
  it('shows the findings of the configuration and of the account above the changes, and exits as before', async () => {
    await ws.write('checks.yaml', config());
    const r = await cli(['plan', 'checks.yaml', '--detailed-exitcode']);
    expectCleanOutput(r);
    expect(r.code).toBe(2);
    expect(r.stdout.split('\n').slice(0, 4)).toEqual(['Checks: 2 warnings (`monsync checks` explains them)', `  ${QUIET}`, `  ${LOST}`, '']);
    expect(r.stdout).toContain('monsync will perform the following actions:');
    expect(await writes(emu)).toEqual([]);
  });

  it('puts them in the JSON plan (valid against its schema) and the Markdown comment', async () => {
    await ws.write('checks.yaml', config());
    const json = await cli(['plan', 'checks.yaml', '--json']);
    expect(json.code).toBe(0);
    const doc = JSON.parse(json.stdout);
    const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
    addFormats.default(ajv);
    const validate = ajv.compile(JSON.parse(await readFile(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')));
    expect(validate(doc) ? [] : validate.errors).toEqual([]);
    expect(doc.checks.map((f: { check: string; kind: string; key: string; line: number }) => [f.check, f.kind, f.key, f.line])).toEqual([
      ['alert/missing', 'monitor', 'mx-quiet', 8],
      ['alert/unreachable', 'alert', 'mx-lost / mx-lost is DOWN', 13],
    ]);
    const md = await cli(['plan', 'checks.yaml', '--format', 'markdown']);
    expect(md.stdout).toContain('**Checks:** 2 warnings');
    expect(md.stdout.indexOf('**Checks:**')).toBeLessThan(md.stdout.indexOf('| | Kind | Key | Change |'));
  });

  it('--strict stops on warnings: exit 1, every finding on stderr, no plan shown or saved, nothing written', async () => {
    await ws.write('checks.yaml', config());
    const r = await cli(['plan', 'checks.yaml', '--strict', '--out', 'strict-plan.json']);
    expectCleanOutput(r);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('Error: the checks found 2 warnings, and --strict stops on warnings; no change was sent to the service\n');
    expect(r.stderr).toContain(`${QUIET}\n${LOST}\n`);
    expect(existsSync(ws.path('strict-plan.json'))).toBe(false);
    expect(await writes(emu)).toEqual([]);
  });

  it('a check set to error in settings.checks stops the plan; one set to off is not run', async () => {
    await ws.write('checks.yaml', config({ settings: '  checks: { alert/missing: error, alert/unreachable: off }' }));
    const r = await cli(['plan', 'checks.yaml']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: the checks found 1 error; no change was sent to the service\n');
    expect(r.stderr).toContain('checks.yaml:9:5: error alert/missing: monitor "mx-quiet" has no alert; nobody is told when it fails');
    expect(r.stderr).not.toContain('alert/unreachable');
  });
});

describe('apply', () => {
  it('an error-level finding stops apply before any write: the request log holds reads only', async () => {
    // An IPv4 address with IPv6-only delivery: every test would fail (monitor/ip-version-mismatch, raised to error here).
    await ws.write(
      'checks.yaml',
      config({
        settings: '  checks: { monitor/ip-version-mismatch: error }',
        monitors: '  - { label: mx-v6, ip_address: 192.0.2.25, ipv6: true, alerts: [{ subject_init: v6 down, subject_term: v6 up }] }',
      }),
    );
    const before = await state(emu);
    await emu.control.clearRequests();
    const r = await cli(['apply', 'checks.yaml', '--auto-approve']);
    expectCleanOutput(r);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: the checks found 1 error; no change was sent to the service\n');
    expect(r.stderr).toContain(
      'checks.yaml:15:5: error monitor/ip-version-mismatch: monitor "mx-v6" delivers over IPv6 only (ipv6: true) to the IPv4 address "192.0.2.25": every test fails',
    );
    expect(r.stdout).not.toContain('Applying');
    const log = await emu.control.requests();
    expect(log.length).toBeGreaterThan(0);
    expect(log.filter((q) => q.method !== 'GET')).toEqual([]);
    expect((await state(emu)).monitors).toEqual(before.monitors);
  });

  it('--strict stops apply on warnings with no write; without it, apply shows them and goes ahead', async () => {
    await ws.write('checks.yaml', config());
    const strict = await cli(['apply', 'checks.yaml', '--auto-approve', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('--strict stops on warnings');
    expect(await writes(emu)).toEqual([]);

    const r = await cli(['apply', 'checks.yaml', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('Checks: 2 warnings')).toBe(true);
    expect(r.stdout).toMatch(/Apply complete: 3 added/);
  });

  it('apply --plan FILE --strict refuses a saved plan with warnings; the same file applies without --strict', async () => {
    await ws.write('checks.yaml', config());
    const saved = await cli(['plan', 'checks.yaml', '--out', 'saved.json']);
    expect(saved.code).toBe(0);
    const refused = await cli(['apply', '--plan', 'saved.json', '--auto-approve', '--strict']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${QUIET}\n`);
    expect(await writes(emu)).toEqual([]);
    expect((await cli(['apply', '--plan', 'saved.json', '--auto-approve'])).code).toBe(0);
  });

  it('disable_checks on the monitor silences its finding, and the plan goes through --strict', async () => {
    await ws.write(
      'checks.yaml',
      config({ settings: '  checks: { alert/unreachable: off }' }).replace('    ip_address: mx1.example.com\n', '    ip_address: mx1.example.com\n    disable_checks: [alert/missing]\n'),
    );
    const r = await cli(['plan', 'checks.yaml', '--strict']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Checks:');
  });
});

describe('examples/realistic against the default account', () => {
  it('raises only the finding its comment announces', async () => {
    const r = await runCli(['plan', 'examples/realistic', '--json'], { url: emu.url, cwd: ROOT });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).checks.map((f: { check: string; key: string }) => `${f.check} ${f.key}`)).toEqual(['alert/missing submission-us']);
  });
});
