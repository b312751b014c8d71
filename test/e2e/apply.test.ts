/**
 * `monsync apply` end to end (issue 5): the built CLI against an emulator. Apply converges, asks
 * before acting (and cannot ask without a terminal), applies a saved plan only to the account it
 * was made from and exactly as saved, and refuses large deletions unless told otherwise.
 */
import { readFile, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, expectCleanOutput, runCli, transcripts } from '../helpers/cli.js';
import { apiCall, type RecordedRequest, type TestEmulator } from '../helpers/emulator.js';
import {
  Workspace,
  alertSubjects,
  byLabel,
  configYaml,
  describeRequests,
  expectNoDuplicates,
  managed,
  memberLabels,
  smtpSeed,
  state,
  writes,
  type EmuState,
  type SimpleMonitor, e2eSuite } from './support.js';

let emu: TestEmulator;
let ws: Workspace;

e2eSuite((e, w) => {
  emu = e;
  ws = w;
});

const cli = (args: string[], opts: { cwd?: string } = {}) => runCli(args, { url: emu.url, ...opts });

const FINGERPRINT_CHANGED = 'the account changed since this plan was made; run plan again';

async function realisticCopy(name: string, edit: (file: string, text: string) => string): Promise<string> {
  const src = join(ROOT, 'examples', 'realistic');
  for (const f of await readdir(src)) await ws.write(`${name}/${f}`, edit(f, await readFile(join(src, f), 'utf8')));
  return ws.path(name);
}

describe('apply converges', () => {
  it('apply --auto-approve examples/realistic makes the account match; plan is then empty and a second apply writes nothing', async () => {
    const r = await cli(['apply', 'examples/realistic', '--auto-approve']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toContain('Applying 22 changes with parallelism 8');
    expect(r.stdout.match(/^ {2}\+ .* created \(id \d+\)/gm)).toHaveLength(22);
    expect(r.stdout).toMatch(/^Apply complete: 22 added, 0 changed, 0 destroyed in /m);
    expect(r.stdout).toContain('Checking ... No changes. The account matches the configuration.');

    const s = await state(emu);
    expectNoDuplicates(s);
    expect(managed(s, 'mail-team').map((m) => m.label).sort()).toEqual(
      ['mx-br', 'mx-eu-1', 'mx-eu-2', 'mx-us-east', 'mx-us-west', 'relay-ams', 'relay-fra', 'submission-us'],
    );
    expect(byLabel(s, 'relay-fra')).toMatchObject({
      ip_address: 'relay-fra.example.net',
      timer: 10,
      time_zone: 'Europe/Berlin',
      attachment: 'pdf',
      custom_subject: '[fra]',
      ttl: 300,
      meta: { region: 'eu', site: 'fra', team: 'mail', 'managed-by': 'mail-team' },
    });
    expect(byLabel(s, 'submission-us')).toMatchObject({ port: 465, use_tls: 'on', ttl: 0, timer: 30 });
    expect(alertSubjects(s, 'mx-us-east')).toEqual(['mx-us-east has been down for an hour', 'mx-us-east is DOWN']);
    expect(alertSubjects(s, 'www-http')).toEqual(['www is DOWN']);
    expect(alertSubjects(s, 'gw-ping')).toEqual(['gateway unreachable']);
    const dest = new Map(s.destinations.map((d) => [d.label, d.id]));
    const down = s.alerts.find((a) => a.subject_init === 'mx-us-east is DOWN')!;
    expect([...down.alert_destinations!].sort()).toEqual([dest.get('ops-mail'), dest.get('oncall-sms')].sort());
    expect(down).toMatchObject({ repeat: true, timeout: 15, subject_term: 'mx-us-east is UP' });
    expect(memberLabels(s, 'production')).toEqual(['mx-eu-1', 'mx-eu-2', 'mx-us-east', 'mx-us-west', 'www-http']);
    expect(memberLabels(s, 'infrastructure')).toEqual(['dns-mx', 'gw-ping', 'www-http']);
    expect(s.alerts).toHaveLength(10);

    const plan = await cli(['plan', 'examples/realistic', '--detailed-exitcode']);
    expect(plan.code, plan.stdout).toBe(0);

    await emu.control.clearRequests();
    const again = await cli(['apply', 'examples/realistic', '--auto-approve']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('No changes.');
    expect(again.stdout).not.toContain('Applying');
    expect(describeRequests(await writes(emu))).toEqual([]);
  });

  it('without --auto-approve and without a terminal: a usage error (exit 2) at once, nothing read, no write', async () => {
    await emu.control.clearRequests();
    const r = await cli(['apply', 'examples/realistic']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not on a terminal.*--auto-approve/);
    expect(r.stdout).toBe('');

    const out = ws.path('no-tty.json');
    expect((await cli(['plan', 'examples/realistic', '--out', out])).code).toBe(0);
    await emu.control.clearRequests();
    const saved = await cli(['apply', '--plan', out]);
    expect(saved.code).toBe(2);
    expect(saved.stderr).toMatch(/not on a terminal/);
    expect(await emu.control.requests()).toEqual([]);
  });
});

describe('apply --plan', () => {
  /** The account with examples/realistic applied, and a saved plan changing mx-br's timer. */
  async function savedPlan(name: string): Promise<{ out: string; s: EmuState }> {
    expect((await cli(['apply', 'examples/realistic', '--auto-approve'])).code).toBe(0);
    const dir = await realisticCopy(name, (f, t) => (f === 'americas.yaml' ? t.replace('timer: 15', 'timer: 30') : t));
    const out = ws.path(`${name}.json`);
    const r = await cli(['plan', dir, '--out', out, '--detailed-exitcode']);
    expect(r.code).toBe(2);
    expect(r.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    return { out, s: await state(emu) };
  }

  const mutations: [string, (s: EmuState) => Promise<void>][] = [
    ['a monitor was added', async () => void (await emu.control.seed({ monitors: [smtpSeed('someone-elses-mx')] }))],
    [
      'a managed monitor was changed',
      async (s) => void (await apiCall(emu, 'PUT', `/v1/Config/Monitor/${byLabel(s, 'mx-eu-1').id}/`, { body: { timer: 30 } })),
    ],
    [
      'an unmanaged other-type monitor got an alert',
      async (s) =>
        void (await apiCall(emu, 'POST', '/v1/Config/Alert/', {
          body: { type: 'up-down', monitor: byLabel(s, 'dns-mx').id, subject_init: 'dns down', subject_term: 'dns up', timeout: 5 },
        })),
    ],
    [
      'an alert was deleted',
      async (s) => void (await apiCall(emu, 'DELETE', `/v1/Config/Alert/${s.alerts.find((a) => a.subject_init === 'mx-br is DOWN')!.id}/`)),
    ],
    [
      'a group lost a member',
      async (s) => {
        const g = s.groups.find((x) => x.name === 'europe')!;
        await apiCall(emu, 'PUT', `/v1/Config/Group/${g.id}/`, { body: { name: 'europe', monitors: g.monitors.slice(1), replace: true } });
      },
    ],
  ];

  it.each(mutations)('refuses when the account changed since the plan (%s): exit 1, no write', async (name, mutate) => {
    const { out, s } = await savedPlan(`changed-${name.replaceAll(' ', '-')}`);
    await mutate(s);
    await emu.control.clearRequests();
    const r = await cli(['apply', '--plan', out, '--auto-approve']);
    expect(r.code, r.stdout).toBe(1);
    expect(r.stderr).toContain(`Error: ${FINGERPRINT_CHANGED}`);
    expect(r.stdout).not.toContain('Applying');
    expect(describeRequests(await writes(emu))).toEqual([]);
  });

  it('a change to an ignored monitor is not a change of the account the plan saw', async () => {
    const { out, s } = await savedPlan('ignored-changed');
    expect((await apiCall(emu, 'PUT', `/v1/Config/Monitor/${byLabel(s, 'legacy-mx').id}/`, { body: { timer: 30 } })).status).toBe(200);
    const r = await cli(['apply', '--plan', out, '--auto-approve']);
    expect(r.code, r.stderr).toBe(0);
    expect(byLabel(await state(emu), 'mx-br').timer).toBe(30);
  });

  it('on an unchanged account applies exactly the saved calls, not what the configuration says now; then refuses a rerun', async () => {
    const dir = await realisticCopy('exact', (_f, t) => t);
    const out = ws.path('exact.json');
    expect((await cli(['plan', dir, '--out', out])).code).toBe(0);
    const saved = JSON.parse(await readFile(out, 'utf8')) as {
      changes: { ref: string; call: { method: string; path: string; body?: unknown } }[];
    };
    // Edited after the plan was saved: apply --plan must not see this.
    await ws.write('exact/americas.yaml', (await readFile(join(dir, 'americas.yaml'), 'utf8')).replace('timer: 15', 'timer: 30'));

    await emu.control.clearRequests();
    const r = await cli(['apply', '--plan', out, '--auto-approve']);
    expect(r.stdout).toMatch(/^Apply complete: 22 added/m);
    // Its closing check compares the account with the desired state saved in the plan, which every
    // write kept: exit 0, and a note that the files on disk have moved on (issue 35: it used to read
    // the edited files and end in exit 4, "the service did not keep a write", which was untrue).
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).not.toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
    expect(r.stderr).toMatch(/Note: the check compared the account with the configuration saved in the plan; the files on disk \(.*americas\.yaml.*\) now differ from it/);

    const s = await state(emu);
    const idOf = (ref: string): string => {
      const [kind, name] = [ref.slice(0, ref.indexOf(':')), ref.slice(ref.indexOf(':') + 1)];
      if (kind === 'monitor') return byLabel(s, name).id;
      if (kind === 'group') return s.groups.find((g) => g.name === name)!.id;
      throw new Error(`unexpected ref ${ref}`);
    };
    const resolve = (v: unknown): unknown => {
      if (Array.isArray(v)) return v.map(resolve);
      if (v !== null && typeof v === 'object') {
        if ('$ref' in v) return idOf((v as { $ref: string }).$ref);
        return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, resolve(x)]));
      }
      return v;
    };
    const canon = (c: { method: string; path: string; body?: unknown }) => JSON.stringify(sortDeep({ method: c.method, path: c.path, body: c.body }));
    const expected = saved.changes.map((c) => canon({ ...c.call, body: resolve(c.call.body) })).sort();
    const sent = (await writes(emu)).map((q: RecordedRequest) => canon(q)).sort();
    expect(sent).toEqual(expected);
    expect(byLabel(s, 'mx-br').timer).toBe(15);

    await emu.control.clearRequests();
    const rerun = await cli(['apply', '--plan', out, '--auto-approve']);
    expect(rerun.code).toBe(1);
    expect(rerun.stderr).toContain(FINGERPRINT_CHANGED);
    expect(describeRequests(await writes(emu))).toEqual([]);
  });
});

describe('apply --plan refuses a plan file that is not what monsync plans (issue 23, item 3)', () => {
  // Only the account was fingerprinted: an edited change id made apply delete or rewrite another
  // monitor (`www-http`) while the display named the planned one.
  async function editedPlan(name: string, edit: (p: any, s: EmuState) => void): Promise<string> {
    expect((await cli(['apply', 'examples/realistic', '--auto-approve'])).code).toBe(0);
    const dir = await realisticCopy(name, (f, t) => (f === 'americas.yaml' ? t.replace('timer: 15', 'timer: 30') : t));
    const out = ws.path(`${name}.json`);
    expect((await cli(['plan', dir, '--out', out])).code).toBe(0);
    const data = JSON.parse(await readFile(out, 'utf8'));
    expect(data.changes.map((c: { action: string; key: string }) => `${c.action} ${c.key}`)).toEqual(['update mx-br']);
    edit(data, await state(emu));
    await ws.write(`${name}.json`, JSON.stringify(data, null, 2));
    await emu.control.clearRequests();
    return out;
  }

  const edits: [string, (p: any, s: EmuState) => void, string][] = [
    [
      "the update's id and path pointed at an unmanaged HTTP monitor",
      (p, s) => {
        const id = byLabel(s, 'www-http').id;
        Object.assign(p.changes[0], { id, call: { ...p.changes[0].call, path: `/v1/Config/Monitor/${id}/` } });
      },
      'changes[0].id is',
    ],
    ["the update's body", (p) => (p.changes[0].call.body.ip_address = 'mail.attacker.example'), 'changes[0].call is'],
    ["the change's action", (p) => Object.assign(p.changes[0], { action: 'delete', call: { method: 'DELETE', path: p.changes[0].call.path } }), 'changes[0].action is "delete"'],
    ['a change removed', (p) => p.changes.pop(), 'it holds 0 changes, planning again gives 1'],
  ];

  it.each(edits)('%s: one message, exit 1, no write', async (name, edit, why) => {
    const out = await editedPlan(`edited-${name.replace(/\W+/g, '-')}`, edit);
    const r = await cli(['apply', '--plan', out, '--auto-approve']);
    expect(r.code, r.stdout + r.stderr).toBe(1);
    expect(r.stderr).toContain(`Error: ${out} is not what monsync plans for the configuration saved in it against this account (${why}`);
    expect(r.stderr).toContain('it was edited or damaged, so nothing was sent: run plan again');
    expect(r.stdout).not.toContain('Applying');
    expect(describeRequests(await writes(emu))).toEqual([]);
  });

  it('a plan file saved without its desired state (an older monsync) is refused with advice to plan again; show still shows it', async () => {
    const out = await editedPlan('older-format', (p) => delete p.desired);
    const r = await cli(['apply', '--plan', out, '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`Error: ${out} was saved without the configuration it was planned from (by an older monsync)`);
    expect(r.stderr).toContain('run plan --out again');
    expect(describeRequests(await writes(emu))).toEqual([]);
    const shown = await cli(['show', out]);
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('Plan: 0 to add, 1 to change, 0 to destroy.');
  });
});

describe('apply --plan where the configuration files are not there', () => {
  // A CI apply job runs the saved plan from another checkout or directory: the plan's files
  // (relative paths) are not found. The closing check compares with the desired state saved in the
  // plan (issue 35), so it runs; the files are named as not readable from here. It must neither fail
  // nor claim that nothing was sent.
  it('applies the plan, exits 0, checks against the plan\'s own configuration and says its files cannot be read here', async () => {
    await realisticCopy('moved/cfg', (_f, t) => t);
    const out = ws.path('moved.json');
    expect((await cli(['plan', 'cfg', '--out', out], { cwd: ws.path('moved') })).code).toBe(0);

    const r = await cli(['apply', '--plan', out, '--auto-approve'], { cwd: ws.dir });
    expect(r.stdout).toMatch(/^Apply complete: 22 added, 0 changed, 0 destroyed/m);
    expect(managed(await state(emu), 'mail-team')).toHaveLength(8);
    expect(`${r.stdout}${r.stderr}`).not.toContain('no change was sent');
    expect(r.stdout).toMatch(/Checking \.\.\. No changes/);
    expect(r.stderr).toMatch(/files it was made from \(.*cfg\/americas\.yaml.*\) cannot be read from here/);
    expect(r.code, r.stdout + r.stderr).toBe(0);
  });
});

const SMALL_MONITORS = [{ label: 'mx-a', alerts: [{ subject_init: 'mx-a is DOWN' }] }, { label: 'mx-b' }];

/** Plans `name.yaml` into `name.json`: a plan with changes. */
async function planned(name: string, yaml: string): Promise<string> {
  await ws.write(`${name}.yaml`, yaml);
  const r = await cli(['plan', `${name}.yaml`, '--out', `${name}.json`, '--detailed-exitcode'], { cwd: ws.dir });
  expect(r.code, r.stderr).toBe(2);
  return `${name}.json`;
}

/*
 * A saved plan is derived again exactly as `plan --out` made it (issue 35): the one plan assembly
 * (src/workflow/assemble.ts) gives the same maintenance windows, checks and ignore rules to both, and
 * the proof compares what the plan covers: objects the configuration ignores may come and go
 * between plan and apply, as they are outside the fingerprint too (docs/semantics.md).
 */
describe('apply --plan derives the saved plan again as plan made it', () => {
  it('a configuration with maintenance windows: the plan saved by plan --out is applied, not refused as edited', async () => {
    const yaml = `${configYaml({ monitors: SMALL_MONITORS })}maintenance:
  - name: nightly
    monitors: [mx-*]
    weekly: { days: [mon, tue, wed, thu, fri, sat, sun], at: "03:00" }
    duration: 30m
    time_zone: Europe/London
`;
    const file = await planned('maint', yaml);
    const r = await cli(['apply', '--plan', file, '--auto-approve'], { cwd: ws.dir });
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
    expect(managed(await state(emu), 'e2e').map((m) => m.label).sort()).toEqual(['mx-a', 'mx-b']);
  });

  it('a monitor matching settings.ignore created between plan and apply is outside the plan: applied, not refused', async () => {
    const file = await planned('ignored-monitor', configYaml({ ignore: ['legacy-*'], monitors: SMALL_MONITORS }));
    await emu.control.seed({ monitors: [smtpSeed('legacy-new')] });
    const r = await cli(['apply', '--plan', file, '--auto-approve'], { cwd: ws.dir });
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
    const s = await state(emu);
    expect(managed(s, 'e2e').map((m) => m.label).sort()).toEqual(['mx-a', 'mx-b']);
    expect(s.monitors.some((m) => m.label === 'legacy-new')).toBe(true);
  });

  it('a group matching settings.ignore created between plan and apply is outside the plan: applied, not refused', async () => {
    const file = await planned('ignored-group', configYaml({ ignore: ['legacy-*'], monitors: SMALL_MONITORS }));
    const seeded = await emu.control.seed({ monitors: [smtpSeed('legacy-member')] });
    await emu.control.seed({ groups: [{ name: 'legacy-group', monitors: seeded.monitors }] });
    const r = await cli(['apply', '--plan', file, '--auto-approve'], { cwd: ws.dir });
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
  });

  it('a window over mx-* with mx-legacy-* ignored and no mx-* monitor: an ignored mx-legacy-2 created after plan --out leaves it applied, not refused (issue 45)', async () => {
    const yaml = `${configYaml({ ignore: ['mx-legacy-*'], monitors: [{ label: 'relay-a' }] })}maintenance:
  - name: nightly
    monitors: [mx-*]
    weekly: { days: [mon, tue, wed, thu, fri, sat, sun], at: "03:00" }
    duration: 30m
    time_zone: Europe/London
`;
    const file = await planned('maint-ignored', yaml);
    // Ignored monitors of the seed aside, no mx-* monitor at plan --out; then one that is ignored.
    await emu.control.seed({ monitors: [smtpSeed('mx-legacy-2')] });
    const r = await cli(['apply', '--plan', file, '--auto-approve'], { cwd: ws.dir });
    expect(r.stderr).not.toContain('edited or damaged');
    expect(r.code, r.stderr).toBe(0);
    expect(managed(await state(emu), 'e2e').map((m) => m.label)).toEqual(['relay-a']);
  });

  it('an edited change is still refused: the proof compares everything the plan covers', async () => {
    const file = await planned('edited', configYaml({ monitors: SMALL_MONITORS }));
    const { readFile, writeFile } = await import('node:fs/promises');
    const p = ws.path(file);
    const data = JSON.parse(await readFile(p, 'utf8')) as { changes: { call: { body?: Record<string, unknown> } }[] };
    data.changes[0]!.call.body = { ...data.changes[0]!.call.body, timer: 60 };
    await writeFile(p, JSON.stringify(data));
    await emu.control.clearRequests();
    const r = await cli(['apply', '--plan', file, '--auto-approve'], { cwd: ws.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('edited or damaged');
    expect(describeRequests(await writes(emu))).toEqual([]);
  });
});

function sortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortDeep);
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, sortDeep((v as Record<string, unknown>)[k])]),
    );
  }
  return v;
}

describe('the delete threshold', () => {
  const labels = Array.from({ length: 13 }, (_, i) => `m-${String(i + 1).padStart(2, '0')}`);
  const thirteen = configYaml({ monitors: labels.map((label) => ({ label })) });
  const keep = (n: number) => configYaml({ monitors: labels.slice(labels.length - n).map((label) => ({ label })) });

  async function applyAll(): Promise<void> {
    await ws.write('threshold/monsync.yaml', thirteen);
    const r = await cli(['apply', '--auto-approve'], { cwd: ws.path('threshold') });
    expect(r.code, r.stdout).toBe(0);
    expect(managed(await state(emu), 'e2e')).toHaveLength(13);
  }

  it('a plan deleting 12 of 13 managed monitors is refused (naming them, no write) unless --force or --max-deletes allows it', async () => {
    await applyAll();
    await ws.write('threshold/monsync.yaml', keep(1));
    await emu.control.clearRequests();

    const refused = await cli(['apply', '--auto-approve'], { cwd: ws.path('threshold') });
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error: refusing to apply a plan that deletes 12 resources (more than 10)');
    expect(refused.stderr).toContain('--force');
    const ids = new Map(managed(await state(emu), 'e2e').map((m) => [m.label, m.id]));
    for (const l of labels.slice(0, 12)) expect(refused.stderr).toContain(`  - monitor "${l}" (id ${ids.get(l)})`);
    expect(refused.stderr).not.toContain('"m-13"');
    expect(refused.stdout).toContain('Plan: 0 to add, 0 to change, 12 to destroy.');

    const tooFew = await cli(['apply', '--auto-approve', '--max-deletes', '11'], { cwd: ws.path('threshold') });
    expect(tooFew.code).toBe(1);
    expect(tooFew.stderr).toContain('deletes 12 resources (more than --max-deletes 11)');
    expect(describeRequests(await writes(emu))).toEqual([]);
    expect(managed(await state(emu), 'e2e')).toHaveLength(13);

    const enough = await cli(['apply', '--auto-approve', '--max-deletes', '12'], { cwd: ws.path('threshold') });
    expect(enough.code, enough.stderr).toBe(0);
    expect(managed(await state(emu), 'e2e').map((m) => m.label)).toEqual(['m-13']);

    await applyAll();
    await ws.write('threshold/monsync.yaml', keep(1));
    const forced = await cli(['apply', '--auto-approve', '--force'], { cwd: ws.path('threshold') });
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toMatch(/^Apply complete: 0 added, 0 changed, 12 destroyed/m);
    expect(managed(await state(emu), 'e2e').map((m) => m.label)).toEqual(['m-13']);
  });

  it('at most 10 deletes pass by default; alerts deleted with a monitor count; --max-deletes 0 refuses any delete', async () => {
    await applyAll();
    await ws.write('threshold/monsync.yaml', keep(3));
    const ten = await cli(['apply', '--auto-approve'], { cwd: ws.path('threshold') });
    expect(ten.code, ten.stderr).toBe(0);
    expect(managed(await state(emu), 'e2e')).toHaveLength(3);

    // Two monitors with two alerts each: deleting one monitor deletes 3 resources.
    const withAlerts: SimpleMonitor[] = ['a-1', 'a-2'].map((label) => ({
      label,
      alerts: [{ subject_init: `${label} down` }, { subject_init: `${label} slow` }],
    }));
    await ws.write('cascade/monsync.yaml', configYaml({ owner: 'cascade', monitors: withAlerts }));
    expect((await cli(['apply', '--auto-approve'], { cwd: ws.path('cascade') })).code).toBe(0);
    await ws.write('cascade/monsync.yaml', configYaml({ owner: 'cascade', monitors: withAlerts.slice(1) }));
    await emu.control.clearRequests();
    const cascade = await cli(['apply', '--auto-approve', '--max-deletes', '2'], { cwd: ws.path('cascade') });
    expect(cascade.code).toBe(1);
    expect(cascade.stderr).toContain('deletes 3 resources (more than --max-deletes 2)');
    expect(cascade.stderr).toMatch(/- monitor "a-1" \(id \d+\) and its 2 alerts/);
    const none = await cli(['apply', '--auto-approve', '--max-deletes', '0'], { cwd: ws.path('cascade') });
    expect(none.code).toBe(1);
    expect(describeRequests(await writes(emu))).toEqual([]);
    const bad = await cli(['apply', '--auto-approve', '--max-deletes', 'many'], { cwd: ws.path('cascade') });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--max-deletes must be a whole number');
    expect((await cli(['apply', '--auto-approve', '--max-deletes', '3'], { cwd: ws.path('cascade') })).code).toBe(0);
    const s = await state(emu);
    expect(managed(s, 'cascade').map((m) => m.label)).toEqual(['a-2']);
    expect(s.alerts.filter((a) => a.subject_init.startsWith('a-1'))).toEqual([]);
  });
});

describe('output hygiene', () => {
  it('no run of this file printed the password or a stack trace', () => {
    expect(transcripts.length).toBeGreaterThan(20);
    for (const t of transcripts) expectCleanOutput(t.result);
  });
});
