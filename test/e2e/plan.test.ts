/**
 * `monsync plan` end to end (issue 4): the built CLI, spawned as a user would run it, against an
 * emulator on 127.0.0.1. Plan must never write, must refuse to plan from a failed read, and must
 * show exactly what apply would do to the resources it owns, and nothing for the rest.
 */
import { execFileSync } from 'node:child_process';
import { readFile, readdir } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { PASSWORD, ROOT, USERNAME, expectCleanOutput, runCli, startCli, transcripts } from '../helpers/cli.js';
import type { TestEmulator } from '../helpers/emulator.js';
import {
  Workspace,
  alertSeed,
  byLabel,
  configYaml,
  describeRequests,
  groupByName,
  memberLabels,
  smtpSeed,
  state,
  writes, e2eSuite } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const cli = (args: string[], opts: { cwd?: string; env?: Record<string, string | undefined> } = {}) =>
  runCli(args, { url: emu.url, ...opts });

const ajv = new Ajv2020.default({ allErrors: true, strict: true, strictTypes: false });
addFormats.default(ajv);
let validatePlan: ReturnType<typeof ajv.compile> | undefined;

interface JsonChange {
  action: 'create' | 'update' | 'delete';
  kind: 'monitor' | 'alert' | 'group';
  key: string;
  id: string | null;
  monitor?: string;
  call: { method: string; path: string; body?: Record<string, unknown> };
  note?: Record<string, unknown>;
  changed: string[];
}
interface JsonPlan {
  changes: JsonChange[];
  summary: { create: number; update: number; delete: number };
  unmanaged: Record<string, number>;
  warnings: string[];
  target: string;
  fingerprint: string;
}

/** stdout of `plan --json`: the whole of it is one JSON document valid against schemas/plan.schema.json. */
async function planJson(stdout: string): Promise<JsonPlan> {
  validatePlan ??= ajv.compile(JSON.parse(await readFile(join(ROOT, 'schemas', 'plan.schema.json'), 'utf8')));
  const doc = JSON.parse(stdout) as unknown;
  const ok = validatePlan(doc);
  expect(ok ? [] : validatePlan.errors, 'plan --json against schemas/plan.schema.json').toEqual([]);
  return doc as JsonPlan;
}

const keys = (p: JsonPlan, action?: string) =>
  p.changes.filter((c) => action === undefined || c.action === action).map((c) => `${c.action} ${c.kind} ${c.key}`).sort();

/** A copy of examples/realistic in the workspace, with `edit` applied to each file's text. */
async function realisticCopy(name: string, edit: (file: string, text: string) => string = (_f, t) => t): Promise<string> {
  const src = join(ROOT, 'examples', 'realistic');
  for (const f of await readdir(src)) {
    await ws.write(`${name}/${f}`, edit(f, await readFile(join(src, f), 'utf8')));
  }
  return ws.path(name);
}

describe('exit codes', () => {
  it('--detailed-exitcode: 2 with changes, 0 without; plan never writes; stdout carries only the plan', async () => {
    const first = await cli(['plan', 'examples/realistic', '--detailed-exitcode']);
    expect(first.code, first.stderr).toBe(2);
    expect(first.stdout).toContain('Plan: 22 to add, 0 to change, 0 to destroy.');
    expect(first.stderr).toMatch(/^Reading 4 files \.\.\. 8 monitors, 10 alerts, 4 groups declared\.$/m);
    expect(first.stdout).not.toContain('Reading');

    const plain = await cli(['plan', 'examples/realistic']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe(first.stdout);
    expect(describeRequests(await writes(emu))).toEqual([]);

    const apply = await cli(['apply', 'examples/realistic', '--auto-approve']);
    expect(apply.code, apply.stdout + apply.stderr).toBe(0);
    const after = await cli(['plan', 'examples/realistic', '--detailed-exitcode']);
    expect(after.code, after.stdout).toBe(0);
    expect(after.stdout).toContain('No changes.');
    expect(after.stdout).not.toMatch(/to add|to change|to destroy/);
  });

  it('--detailed-exitcode: 1 on errors (bad credentials, missing config, bad flags), never 0 or 2', async () => {
    const badPassword = 'wrong-secret-pw';
    const denied = await cli(['plan', 'examples/realistic', '--detailed-exitcode'], { env: { MONSYNC_PASSWORD: badPassword } });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toMatch(/401/);
    expectCleanOutput(denied, [badPassword, PASSWORD]);
    expect(denied.stdout).toBe('');

    const missing = await cli(['plan', 'no/such/dir', '--detailed-exitcode']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('no/such/dir');

    const format = await cli(['plan', 'examples/realistic', '--format', 'yaml', '--detailed-exitcode']);
    expect(format.code).toBe(1);
    expect(format.stderr).toContain('--format must be text, json or markdown');

    // The password typed into the URL is refused and never echoed.
    const inUrl = emu.url.replace('http://', `http://${encodeURIComponent(USERNAME)}:${PASSWORD}@`);
    const creds = await cli(['plan', 'examples/realistic', '--detailed-exitcode'], { env: { MONSYNC_URL: inUrl } });
    expect(creds.code).toBe(1);
    expect(creds.stderr).toContain('must not contain credentials');
    expect(describeRequests(await writes(emu))).toEqual([]);
  });
});

describe('output formats', () => {
  it('--json is one document valid against schemas/plan.schema.json, before and after apply, with updates and deletes', async () => {
    const r = await cli(['plan', 'examples/realistic', '--json']);
    expect(r.code).toBe(0);
    const plan = await planJson(r.stdout);
    expect(plan.summary).toEqual({ create: 22, update: 0, delete: 0 });
    expect(plan.changes).toHaveLength(22);
    expect(plan.target).toBe(emu.url);
    expect(plan.unmanaged).toMatchObject({ other_type_monitors: 3, ignored: 1, monitors: 0 });
    // Every create goes to the list endpoint with the ownership marker in the body.
    for (const c of plan.changes.filter((x) => x.kind === 'monitor')) {
      expect(c.call).toMatchObject({ method: 'POST', path: '/v1/Config/Monitor/' });
      expect((c.call.body!.meta as Record<string, string>)['managed-by']).toBe('mail-team');
    }
    const same = await cli(['plan', 'examples/realistic', '--format', 'json']);
    const strip = (s: string) => s.replace(/"created_at": "[^"]*"/, '');
    expect(strip(same.stdout)).toBe(strip(r.stdout));

    expect((await cli(['apply', 'examples/realistic', '--auto-approve'])).code).toBe(0);
    const empty = await planJson((await cli(['plan', 'examples/realistic', '--json'])).stdout);
    expect(empty.changes).toEqual([]);

    // A changed timer, a removed monitor (with its alert) and a renamed one.
    const dir = await realisticCopy('json-edits', (f, t) =>
      f === 'americas.yaml'
        ? t.replace('timer: 15', 'timer: 30').replace('- label: mx-us-west', '- label: mx-us-west-2\n    previous_labels: [mx-us-west]')
        : f === 'europe.yaml'
          ? t.replace(/  - label: relay-ams[\s\S]*$/, '')
          : f === 'groups.yaml'
            ? t.replace(', relay-ams]', ']').replaceAll('mx-us-west', 'mx-us-west-2')
            : t,
    );
    const edits = await planJson((await cli(['plan', dir, '--json'])).stdout);
    expect(keys(edits)).toEqual([
      'delete monitor relay-ams',
      'update group europe',
      'update monitor mx-br',
      'update monitor mx-us-west-2',
    ].sort());
    expect(edits.changes.find((c) => c.key === 'relay-ams')!.note).toMatchObject({ cascade_alerts: 1 });
  });

  it('--format markdown starts with the comment marker', async () => {
    const r = await cli(['plan', 'examples/realistic', '--format', 'markdown']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('<!-- monsync-plan -->')).toBe(true);
    expect(r.stdout).toContain('Plan: 22 to add, 0 to change, 0 to destroy.');
  });

  it('--format markdown names the commit it was made from: --commit, else CI_COMMIT_SHA or GITHUB_SHA, else git rev-parse HEAD', async () => {
    const heading = (stdout: string) => stdout.split('\n')[1]!;
    const noCi = { CI_COMMIT_SHA: undefined, GITHUB_SHA: undefined, MONSYNC_COMMIT: undefined };
    const given = await cli(['plan', 'examples/realistic', '--format', 'markdown', '--commit', 'ABCDEF0123456789'], { env: noCi });
    expect(heading(given.stdout)).toMatch(/ at <code>abcdef0<\/code>$/);
    const gitlab = await cli(['plan', 'examples/realistic', '--format', 'markdown'], { env: { ...noCi, CI_COMMIT_SHA: '1234567890abcdef1234567890abcdef12345678' } });
    expect(heading(gitlab.stdout)).toMatch(/ at <code>1234567<\/code>$/);
    const github = await cli(['plan', 'examples/realistic', '--format', 'markdown'], { env: { ...noCi, GITHUB_SHA: 'fedcba9876543210fedcba9876543210fedcba98' } });
    expect(heading(github.stdout)).toMatch(/ at <code>fedcba9<\/code>$/);
    const recipe = await cli(['plan', 'examples/realistic', '--format', 'markdown'], { env: { GITHUB_SHA: 'fedcba9876543210', MONSYNC_COMMIT: '0123456789abcdef' } });
    expect(heading(recipe.stdout)).toMatch(/ at <code>0123456<\/code>$/);

    // Outside CI: the checkout's HEAD.
    const repo = ws.path('git-repo');
    await ws.write('git-repo/monsync.yaml', configYaml({ monitors: [{ label: 'in-git' }] }));
    const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, encoding: 'utf8' }).trim();
    git('init', '-q');
    git('add', '.');
    git('commit', '-q', '-m', 'first');
    const head = git('rev-parse', 'HEAD');
    const local = await cli(['plan', '--format', 'markdown'], { cwd: repo, env: noCi });
    expect(heading(local.stdout)).toMatch(new RegExp(` at <code>${head.slice(0, 7)}</code>$`));

    const bad = await cli(['plan', 'examples/realistic', '--format', 'markdown', '--commit', 'main; rm -rf'], { env: noCi });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--commit must be a commit id');
  });

  it('--out saves the plan without any credential, and the plan still prints', async () => {
    const out = ws.path('saved-plan.json');
    const r = await cli(['plan', 'examples/realistic', '--out', out, '--detailed-exitcode']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Plan: 22 to add');
    expect(r.stderr).toContain(`Saved the plan to ${out}`);
    const text = await readFile(out, 'utf8');
    // The saved file is valid against the plan schema too, with the desired state apply plans again.
    const saved = await planJson(text);
    expect((saved as unknown as { desired: { monitors: unknown[] } }).desired.monitors).toHaveLength(8);
    expect(saved.changes).toHaveLength(22);
    expect(saved.target).toBe(emu.url);
    expect(text).not.toContain(PASSWORD);
    expect(text).not.toContain(Buffer.from(`${USERNAME}:${PASSWORD}`).toString('base64'));
    expect(text).not.toMatch(/Basic |Bearer /);
  });
});

describe('a failed read aborts the plan', () => {
  it('a 500 on the alert list: exit 1 naming the call, no plan printed or saved, no write by apply', async () => {
    // With managed monitors in the account: a plan from a partial read would recreate or delete things.
    expect((await cli(['apply', 'examples/realistic', '--auto-approve'])).code).toBe(0);
    await emu.control.faults({ error_rate: 1, error_status: 500, path_prefix: '/v1/Config/Alert/' });
    await emu.control.clearRequests();

    const out = ws.path('never-written.json');
    for (const extra of [['--detailed-exitcode'], ['--json', '--out', out]]) {
      const r = await cli(['plan', 'examples/realistic', ...extra]);
      expect(r.code, `${extra.join(' ')}: ${r.stdout}`).toBe(1);
      expect(r.stderr).toMatch(/^Error: .*500.*\(GET \/v1\/Config\/Alert\/\)$/m);
      expect(r.stdout).toBe('');
    }
    expect(existsSync(out)).toBe(false);

    const apply = await cli(['apply', 'examples/realistic', '--auto-approve']);
    expect(apply.code).toBe(1);
    expect(apply.stdout).not.toContain('Applying');
    expect(describeRequests(await writes(emu))).toEqual([]);
    const faulted = (await emu.control.requests()).filter((q) => q.fault !== null);
    expect(faulted.length).toBeGreaterThan(0);
  });

  it('a monitor list that never answers (dropped every time): exit 1, not an empty account', async () => {
    expect((await cli(['apply', 'examples/realistic', '--auto-approve'])).code).toBe(0);
    await emu.control.faults({ drop_rate: 1, methods: ['GET'], path_prefix: '/v1/Config/Monitor/' });
    const r = await cli(['plan', 'examples/realistic', '--detailed-exitcode']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('/v1/Config/Monitor/');
    expect(r.stdout).toBe('');
  }, 60_000);
});

describe('a malformed configuration', () => {
  const bad: [string, string, RegExp][] = [
    [
      'a timer not in the allowed list',
      'version: 1\nmonitors:\n  - label: x\n    ip_address: mx\n    timer: 7\n    test_account: a@example.com\n    time_zone: Europe/London\n',
      /^monsync\.yaml:5:12: .*timer/m,
    ],
    ['broken YAML', 'version: 1\nmonitors:\n  - label: [x\n', /^monsync\.yaml:\d+:\d+: /m],
    [
      'an unknown field',
      'version: 1\nmonitors:\n  - label: x\n    ip_adress: mx\n    timer: 5\n    test_account: a@example.com\n    time_zone: Europe/London\n',
      /^monsync\.yaml:4:5: .*ip_adress/m,
    ],
  ];
  // The account read starts while the YAML loads (it is only GETs): a broken configuration may have
  // read the account, but it must never have written to it.
  it.each(bad)('%s: exit 1 with file:line:column diagnostics and not one write', async (name, text, diagnostic) => {
    const dir = `bad-${name.replaceAll(' ', '-')}`;
    await ws.write(`${dir}/monsync.yaml`, text);
    await emu.control.clearRequests();
    // No path: the default monsync.yaml of the working directory.
    for (const args of [['plan', '--detailed-exitcode', '--json'], ['apply', '--auto-approve']]) {
      const r = await cli(args, { cwd: ws.path(dir) });
      expect(r.code, `${args.join(' ')}\n${r.stderr}`).toBe(1);
      expect(r.stderr).toMatch(diagnostic);
      expect(r.stderr).toContain('no change was sent to the service');
      expect(r.stdout).toBe('');
    }
    const requests = await emu.control.requests();
    expect(requests.filter((q) => q.method !== 'GET')).toEqual([]);
  });

  it('is reported before missing credentials or an unreachable service', async () => {
    const [, text, diagnostic] = bad[0]!;
    await ws.write('bad-first/monsync.yaml', text);
    const noCreds = await cli(['plan'], { cwd: ws.path('bad-first'), env: { MONSYNC_USERNAME: '', MONSYNC_PASSWORD: '' } });
    expect(noCreds.code, noCreds.stderr).toBe(1);
    expect(noCreds.stderr).toMatch(diagnostic);
    expect(noCreds.stderr).not.toMatch(/MONSYNC_USERNAME|MONSYNC_PASSWORD|credential/i);
    // A loopback port nobody listens on (taken from port 0, then released): the read fails at once, and
    // the configuration's problems are still what is shown.
    const server = createServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    await new Promise<void>((r) => server.close(() => r()));
    const closed = await cli(['plan', '--url', `http://127.0.0.1:${port}`], { cwd: ws.path('bad-first') });
    expect(closed.code, closed.stderr).toBe(1);
    expect(closed.stderr).toMatch(diagnostic);
    expect(closed.stderr).not.toMatch(/ECONNREFUSED|could not connect|connect/i);
  });
});

describe('what plan leaves alone', () => {
  async function seedOthers() {
    const s = await state(emu);
    const legacy = byLabel(s, 'legacy-mx').id;
    const seeded = await emu.control.seed({
      monitors: [
        smtpSeed('webui-mx'),
        smtpSeed('their-mx', { 'managed-by': 'someone-else' }),
        smtpSeed('quirky-mx', {}, { timer: '5', use_tls: null, port: null }),
      ],
    });
    const [webui, theirs, quirky] = seeded.monitors as [string, string, string];
    const www = byLabel(s, 'www-http').id;
    await emu.control.seed({
      alerts: [alertSeed(webui, 'webui down', ['701']), alertSeed(theirs, 'their alert'), alertSeed(www, 'www custom')],
      groups: [{ name: 'ops-team', monitors: [webui, theirs] }],
    });
    return { legacy, webui, theirs, quirky, www };
  }

  it('unmanaged, foreign and other-type monitors, their alerts and undeclared groups: counted and never written', async () => {
    const ids = await seedOthers();
    const dir = ws.path('leave-alone');
    await ws.write('leave-alone/monsync.yaml', configYaml({ monitors: [{ label: 'mine-1', alerts: [{ subject_init: 'mine-1 down' }] }] }));
    const before = await state(emu);

    const text = await cli(['plan', dir, '--detailed-exitcode']);
    expect(text.code).toBe(2);
    expect(text.stdout).toContain(
      'Left alone: 3 unmanaged monitors, 1 foreign monitor (managed by another owner), 3 monitors of other types, ' +
        // ops-team lists their-mx, another owner's: --prune would keep it.
        '3 undeclared alerts on them, 1 undeclared group (--prune would delete 3 unmanaged monitors).',
    );
    const plan = await planJson((await cli(['plan', dir, '--json'])).stdout);
    expect(plan.unmanaged).toEqual({ monitors: 4, foreign_monitors: 1, alerts: 3, groups: 1, other_owner_groups: 1, other_type_monitors: 3, ignored: 0 });
    expect(keys(plan)).toEqual(['create alert mine-1 / mine-1 down', 'create monitor mine-1']);

    await emu.control.clearRequests();
    expect((await cli(['apply', dir, '--auto-approve'])).code).toBe(0);
    expect(describeRequests(await writes(emu))).toEqual([
      'POST /v1/Config/Monitor/ -> 200',
      'POST /v1/Config/Alert/ -> 200',
    ]);
    const after = await state(emu);
    const untouched = (s: typeof before) => ({
      monitors: s.monitors.filter((m) => m.label !== 'mine-1'),
      alerts: s.alerts.filter((a) => a.monitor !== byLabel(after, 'mine-1').id),
      groups: s.groups,
    });
    expect(untouched(after)).toEqual(untouched(before));
  });

  it('adopts an unmanaged monitor the configuration names: one update adding the marker, same id', async () => {
    const { legacy } = await seedOthers();
    const dir = ws.path('adopt');
    await ws.write(
      'adopt/monsync.yaml',
      [
        'version: 1',
        'settings: { owner: e2e }',
        'monitors:',
        '  - label: legacy-mx',
        '    ip_address: mx',
        '    test_account: probe@example.org',
        '    timer: 10',
        '    time_zone: Europe/London',
        '    ttl: 0',
        '    alerts:',
        '      - { subject_init: legacy down, subject_term: legacy up, timeout: 15, alert_destinations: [ops-mail] }',
      ].join('\n'),
    );
    const text = await cli(['plan', dir]);
    expect(text.stdout).toContain(`~ monitor "legacy-mx"   (id ${legacy}, adopting)`);
    expect(text.stdout).toContain('meta: + managed-by: "e2e"');
    const plan = await planJson((await cli(['plan', dir, '--json'])).stdout);
    expect(plan.changes.map((c) => [c.action, c.key, c.call.method, c.call.path, c.call.body, c.note])).toEqual([
      ['update', 'legacy-mx', 'PUT', `/v1/Config/Monitor/${legacy}/`, { meta: { 'managed-by': 'e2e' } }, { adopt: true }],
      ['create', 'legacy-mx / legacy down', 'POST', '/v1/Config/Alert/', expect.objectContaining({ monitor: legacy }), undefined],
    ]);

    expect((await cli(['apply', dir, '--auto-approve'])).code).toBe(0);
    const s = await state(emu);
    expect(byLabel(s, 'legacy-mx')).toMatchObject({ id: legacy, meta: { 'managed-by': 'e2e' } });
    expect((await cli(['plan', dir, '--detailed-exitcode'])).code).toBe(0);
  });

  it('a rename through previous_labels / previous_names is an update keeping the ids', async () => {
    const seeded = await emu.control.seed({
      monitors: [smtpSeed('mx-europe-1', { 'managed-by': 'mail-team', region: 'eu', tier: '1', team: 'mail' }, { ip_address: 'mx:failover', test_account: 'probe-eu@example.com', timer: 5, ttl: 300 })],
    });
    const old = seeded.monitors[0]!;
    const more = await emu.control.seed({
      alerts: [alertSeed(old, 'mx-eu-1 down', ['701', '702'])],
      groups: [{ name: 'prod', monitors: [old] }],
    });
    const [oldAlert] = more.alerts;
    const [oldGroup] = more.groups;

    const text = await cli(['plan', 'examples/realistic']);
    expect(text.stdout).toContain(`~ monitor "mx-eu-1"   (id ${old}, renamed from "mx-europe-1")`);
    const plan = await planJson((await cli(['plan', 'examples/realistic', '--json'])).stdout);
    const eu1 = plan.changes.filter((c) => c.key === 'mx-eu-1' || c.key === 'mx-europe-1');
    expect(eu1.map((c) => [c.action, c.id, c.call.method, c.call.path, c.call.body, c.note])).toEqual([
      ['update', old, 'PUT', `/v1/Config/Monitor/${old}/`, { label: 'mx-eu-1' }, { renamed_from: 'mx-europe-1' }],
    ]);
    const alert = plan.changes.find((c) => c.key === 'mx-eu-1 / mx-eu-1 is DOWN')!;
    expect([alert.action, alert.id, alert.note]).toEqual(['update', oldAlert, { subject_changed_from: 'mx-eu-1 down' }]);
    const group = plan.changes.find((c) => c.key === 'production')!;
    expect([group.action, group.id, group.note?.renamed_from]).toEqual(['update', oldGroup, 'prod']);
    expect(plan.summary.delete).toBe(0);

    expect((await cli(['apply', 'examples/realistic', '--auto-approve'])).code).toBe(0);
    const s = await state(emu);
    expect(byLabel(s, 'mx-eu-1').id).toBe(old);
    expect(s.monitors.some((m) => m.label === 'mx-europe-1')).toBe(false);
    expect(s.alerts.find((a) => a.id === oldAlert)).toMatchObject({ monitor: old, subject_init: 'mx-eu-1 is DOWN' });
    expect(groupByName(s, 'production').id).toBe(oldGroup);
    expect(memberLabels(s, 'production')).toEqual(['mx-eu-1', 'mx-eu-2', 'mx-us-east', 'mx-us-west', 'www-http']);
    expect((await cli(['plan', 'examples/realistic', '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('--target', () => {
  it('limits the plan to matching keys (alerts by their monitor) plus the creates they need, and says so', async () => {
    const eu = await planJson((await cli(['plan', 'examples/realistic', '--target', 'mx-eu-*', '--json'])).stdout);
    expect(keys(eu)).toEqual([
      'create alert mx-eu-1 / mx-eu-1 is DOWN',
      'create alert mx-eu-2 / mx-eu-2 is DOWN',
      'create monitor mx-eu-1',
      'create monitor mx-eu-2',
    ]);
    expect(eu.warnings.join('\n')).toContain('--target limits this plan to 4 changes; 18 other changes are left out');

    const prod = await planJson((await cli(['plan', 'examples/realistic', '--target', 'production', '--json'])).stdout);
    expect(keys(prod)).toEqual([
      'create group production',
      'create monitor mx-eu-1',
      'create monitor mx-eu-2',
      'create monitor mx-us-east',
      'create monitor mx-us-west',
    ]);

    const two = await planJson(
      (await cli(['plan', 'examples/realistic', '--target', 'relay-fra', '--target', 'americas', '--json'])).stdout,
    );
    expect(two.changes.filter((c) => c.kind !== 'monitor').map((c) => c.key).sort()).toEqual(['americas', 'relay-fra / relay-fra is DOWN']);

    const text = await cli(['plan', 'examples/realistic', '--target', 'mx-eu-*']);
    expect(text.stdout).toMatch(/^Warning: --target limits this plan/m);
    expect(text.stdout).toContain('Plan: 4 to add, 0 to change, 0 to destroy.');

    expect((await cli(['apply', 'examples/realistic', '--target', 'mx-eu-*', '--auto-approve'])).code).toBe(0);
    const s = await state(emu);
    expect(s.monitors.filter((m) => m.meta?.['managed-by'] === 'mail-team').map((m) => m.label).sort()).toEqual(['mx-eu-1', 'mx-eu-2']);
    expect(s.groups).toEqual([]);
    const rest = await cli(['plan', 'examples/realistic', '--detailed-exitcode']);
    expect(rest.code).toBe(2);
    expect(rest.stdout).toContain('Plan: 18 to add, 0 to change, 0 to destroy.');
  });
});

describe('--prune and settings.ignore', () => {
  async function seedPrunable() {
    const seeded = await emu.control.seed({
      monitors: [smtpSeed('old-mx'), smtpSeed('their-mx', { 'managed-by': 'someone-else' })],
    });
    const [oldMx, theirMx] = seeded.monitors as [string, string];
    const legacy = byLabel(await state(emu), 'legacy-mx').id;
    const more = await emu.control.seed({
      alerts: [alertSeed(oldMx, 'old down'), alertSeed(legacy, 'legacy down')],
      groups: [
        { name: 'stale-group', monitors: [oldMx] },
        { name: 'legacy-group', monitors: [legacy] },
        { name: 'their-group', monitors: [theirMx] },
      ],
    });
    return { oldMx, theirMx, legacy, groups: more.groups };
  }

  it('--prune deletes unmanaged SMTP monitors and undeclared groups; never foreign, other-type or ignored ones, nor groups of another owner', async () => {
    const { oldMx, theirMx, legacy } = await seedPrunable();
    const kept = await cli(['plan', 'examples/realistic', '--json']);
    expect((await planJson(kept.stdout)).summary.delete).toBe(0);
    const keptText = await cli(['plan', 'examples/realistic']);
    expect(keptText.stdout).toContain('(--prune would delete 1 unmanaged monitor and 1 undeclared group)');

    const pruned = await planJson((await cli(['plan', 'examples/realistic', '--prune', '--json'])).stdout);
    // their-group lists their-mx, which another owner manages: that owner's group, kept.
    expect(keys(pruned, 'delete')).toEqual(['delete group stale-group', 'delete monitor old-mx']);
    expect(pruned.changes.find((c) => c.key === 'old-mx')!.note).toMatchObject({ cascade_alerts: 1 });
    expect(pruned.unmanaged).toMatchObject({ monitors: 1, foreign_monitors: 1, groups: 1, other_owner_groups: 1, other_type_monitors: 3, ignored: 2 });

    const apply = await cli(['apply', 'examples/realistic', '--prune', '--auto-approve']);
    expect(apply.code, apply.stdout).toBe(0);
    const s = await state(emu);
    expect(s.monitors.some((m) => m.id === oldMx)).toBe(false);
    expect(s.groups.map((g) => g.name).sort()).toEqual(['americas', 'europe', 'infrastructure', 'legacy-group', 'production', 'their-group']);
    for (const id of [theirMx, legacy]) expect(s.monitors.some((m) => m.id === id)).toBe(true);
    expect(s.monitors.filter((m) => m.type !== 'smtp').map((m) => m.label).sort()).toEqual(['dns-mx', 'gw-ping', 'www-http']);
    expect((await cli(['plan', 'examples/realistic', '--prune', '--detailed-exitcode'])).code).toBe(0);
  });

  it('settings.ignore hides matching monitors (with their alerts) and groups from the plan, even with --prune', async () => {
    const { legacy } = await seedPrunable();
    const withIgnore = await planJson((await cli(['plan', 'examples/realistic', '--prune', '--json'])).stdout);
    expect(JSON.stringify(withIgnore.changes)).not.toContain('legacy');
    expect(withIgnore.unmanaged.ignored).toBe(2);

    // The same configuration without the ignore glob would delete them: the glob is what protects them.
    const dir = await realisticCopy('no-ignore', (f, t) => (f === 'settings.yaml' ? t.replace('ignore: [legacy-*]', 'ignore: []') : t));
    const without = await planJson((await cli(['plan', dir, '--prune', '--json'])).stdout);
    expect(keys(without, 'delete').filter((k) => k.includes('legacy'))).toEqual(['delete group legacy-group', 'delete monitor legacy-mx']);
    expect(without.unmanaged.ignored).toBe(0);

    // A configuration naming an ignored label is refused rather than half-applied.
    const named = await realisticCopy('names-ignored', (f, t) =>
      f === 'groups.yaml' ? t.replace('monitors: [gw-ping, dns-mx, www-http]', 'monitors: [gw-ping, dns-mx, www-http, legacy-mx]') : t,
    );
    const refused = await cli(['plan', named, '--detailed-exitcode']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('"legacy-mx" matches settings.ignore');

    expect((await cli(['apply', 'examples/realistic', '--prune', '--auto-approve'])).code).toBe(0);
    const s = await state(emu);
    expect(byLabel(s, 'legacy-mx')).toMatchObject({ id: legacy });
    expect(byLabel(s, 'legacy-mx').meta).toEqual({});
    expect(s.alerts.filter((a) => a.monitor === legacy).map((a) => a.subject_init)).toEqual(['legacy down']);
    expect(groupByName(s, 'legacy-group').monitors).toEqual([legacy]);
  });
});

describe('output hygiene', () => {
  // `${VAR}` interpolation could read the credentials: a configuration (say, in a pull request whose
  // plan CI posts as a comment) writing `custom_subject: "${MONSYNC_PASSWORD}"` would print the
  // password in the plan, the comment and the saved plan, and send it to the service. Refused.
  it('a configuration interpolating ${MONSYNC_PASSWORD} is refused: the secret never reaches a plan, a comment or the service', async () => {
    await ws.write(
      'interpolated/monsync.yaml',
      configYaml({ monitors: [{ label: 'leak' }] }).replace('    timer: 5\n', '    timer: 5\n    custom_subject: "${MONSYNC_PASSWORD}"\n'),
    );
    const out = ws.path('interpolated.json');
    await emu.control.clearRequests();
    const runs = [
      await startCli(['plan', ws.path('interpolated'), '--out', out], { url: emu.url, record: false }).done,
      await startCli(['plan', ws.path('interpolated'), '--format', 'markdown'], { url: emu.url, record: false }).done,
    ];
    for (const r of runs) {
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/monsync\.yaml:\d+:\d+: \$\{MONSYNC_PASSWORD\} is a credential/);
      expect(`${r.stdout}${r.stderr}`).not.toContain(PASSWORD);
    }
    await expect(readFile(out, 'utf8')).rejects.toThrow();
    const requests = await emu.control.requests();
    expect(requests.filter((q) => q.method !== 'GET')).toEqual([]);
    expect(JSON.stringify(requests)).not.toContain(PASSWORD);
  });

  it('no run of this file printed the password or a stack trace', () => {
    expect(transcripts.length).toBeGreaterThan(20);
    for (const t of transcripts) expectCleanOutput(t.result);
  });
});
